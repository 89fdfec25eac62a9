import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, memo, useEffect, useRef, useState } from 'react';
import { messageOf, trackline } from '../api';
import { keys } from '../lib/queries';
import { useConfirm } from './Confirm';
import { Dialog } from './Dialog';
import { FormActions } from './FormActions';

type Folder = {
  id: string;
  type: 'everything' | 'project' | 'savedSearch' | 'tag';
  name: string;
  query: string;
};

const SECTIONS: { type: Folder['type']; title: string }[] = [
  { type: 'everything', title: 'All' },
  { type: 'project', title: 'Projects' },
  { type: 'savedSearch', title: 'Saved searches' },
  { type: 'tag', title: 'Tags' },
];

/** Always there, after Everything: the caller's open issues. */
const ASSIGNED_TO_ME: Folder = {
  id: 'assigned-to-me',
  type: 'everything',
  name: 'Assigned to me',
  query: 'for: me #Unresolved',
};

/**
 * Folders (everything, assigned to me, projects, saved searches, tags) with how many issues each
 * matches; the caller's saved searches can be renamed, shared and deleted here. Memoised: paging
 * the list (a new `page`, the same query) does not render the folders again.
 */
export const Sidebar = memo(function Sidebar({
  current,
  onPick,
  open,
  onClose,
}: {
  current: string;
  onPick(query: string): void;
  /** On a narrow screen the folders are a drawer: shown while `open`. */
  open: boolean;
  onClose(): void;
}) {
  const ref = useRef<HTMLElement>(null);
  // The drawer takes the focus when it opens, and Escape closes it.
  useEffect(() => {
    if (!open) return;
    ref.current?.querySelector<HTMLElement>('.folder')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, onClose]);
  const folders = useQuery({
    queryKey: keys.folders,
    queryFn: () => trackline.folders.list.query({ max: 500 }),
  });
  const mine = useQuery({
    queryKey: [...keys.folders, 'saved-searches'],
    queryFn: () => trackline.folders.savedSearches.query({}),
  });
  const fetched = (folders.data ?? []) as Folder[];
  const list =
    fetched.length > 0
      ? [
          ...fetched.filter((f) => f.type === 'everything'),
          ASSIGNED_TO_ME,
          ...fetched.filter((f) => f.type !== 'everything'),
        ]
      : [];
  // One count per folder; the client batches them into one request.
  const counts = useQuery({
    queryKey: [...keys.counts, list.map((f) => f.query)],
    queryFn: () =>
      Promise.all(list.map((f) => trackline.issues.count.query({ filter: f.query }).then((c) => c.value))),
    enabled: list.length > 0,
  });
  const own = new Map((mine.data ?? []).map((s) => [s.name, s]));
  return (
    <nav className={open ? 'sidebar open' : 'sidebar'} aria-label="Folders" id="folders" ref={ref}>
      <button type="button" className="drawer-close" onClick={onClose}>
        Close folders
      </button>
      {SECTIONS.map((section) => {
        const items = list
          .map((folder, index) => ({ folder, index }))
          .filter(({ folder }) => folder.type === section.type);
        if (items.length === 0) return null;
        return (
          <section key={section.type}>
            <h2>{section.title}</h2>
            <ul>
              {items.map(({ folder, index }) => {
                const saved = folder.type === 'savedSearch' ? own.get(folder.name) : undefined;
                return (
                  <li key={folder.id} className={saved ? 'folder-item has-actions' : 'folder-item'}>
                    <button
                      type="button"
                      className="folder"
                      aria-current={folder.query === current ? 'true' : undefined}
                      onClick={() => onPick(folder.query)}
                    >
                      <span className="folder-name">
                        {folder.name}
                        {saved?.shared && <span className="muted small"> · shared</span>}
                      </span>
                      <span className="folder-count">
                        {counts.data?.[index] ?? ''}
                        <span className="visually-hidden"> issues</span>
                      </span>
                    </button>
                    {saved && <SavedSearchActions search={saved} />}
                  </li>
                );
              })}
            </ul>
          </section>
        );
      })}
    </nav>
  );
});

type SavedSearch = { name: string; query: string; shared: boolean };

/** Rename, share (with everyone) or stop sharing, and delete one of the caller's saved searches. */
function SavedSearchActions({ search }: { search: SavedSearch }) {
  const client = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const [error, setError] = useState('');
  const { confirm, dialog } = useConfirm();
  const refresh = () => client.invalidateQueries({ queryKey: keys.folders });
  const act = async (work: () => Promise<unknown>) => {
    setError('');
    try {
      await work();
      await refresh();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <div className="folder-actions">
      <button
        type="button"
        className="icon-button small-icon"
        aria-label={`Rename ${search.name}`}
        title="Rename"
        onClick={() => setRenaming(true)}
      >
        <span aria-hidden="true">✎</span>
      </button>
      <button
        type="button"
        className="icon-button small-icon"
        aria-label={search.shared ? `Stop sharing ${search.name}` : `Share ${search.name}`}
        title={search.shared ? 'Shared with everyone: click to stop sharing' : 'Share with everyone'}
        aria-pressed={search.shared}
        onClick={() =>
          void act(() =>
            trackline.folders.saveSearch.mutate({
              name: search.name,
              query: search.query,
              shared: !search.shared,
            }),
          )
        }
      >
        <span aria-hidden="true">⇪</span>
      </button>
      <button
        type="button"
        className="icon-button small-icon danger"
        aria-label={`Delete ${search.name}`}
        title="Delete"
        onClick={() =>
          void confirm({
            title: `Delete the saved search ${search.name}?`,
            body: (
              <p>
                Its query <code>{search.query}</code> goes from the folders
                {search.shared ? ', also for everyone it is shared with' : ''}. This cannot be undone.
              </p>
            ),
            action: 'Delete saved search',
          }).then((yes) => {
            if (yes) void act(() => trackline.folders.deleteSearch.mutate({ name: search.name }));
          })
        }
      >
        <span aria-hidden="true">🗑</span>
      </button>
      {error && (
        <span className="error small" role="alert">
          {error}
        </span>
      )}
      {dialog}
      {renaming && (
        <RenameDialog
          search={search}
          onClose={() => setRenaming(false)}
          onDone={() => {
            setRenaming(false);
            void refresh();
          }}
        />
      )}
    </div>
  );
}

/**
 * A new name for a saved search: saved under the new name, then the old one deleted (if the new
 * name is taken, nothing changes).
 */
function RenameDialog(props: { search: SavedSearch; onClose(): void; onDone(): void }) {
  const [name, setName] = useState(props.search.name);
  const [error, setError] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next = name.trim();
    if (!next || next === props.search.name) return props.onClose();
    try {
      const taken = (await trackline.folders.savedSearches.query({})).some(
        (s) => s.name.toLowerCase() === next.toLowerCase() && s.name !== props.search.name,
      );
      if (taken) {
        setError(`You already have a saved search named ${next}.`);
        return;
      }
      await trackline.folders.saveSearch.mutate({
        name: next,
        query: props.search.query,
        shared: props.search.shared,
      });
      await trackline.folders.deleteSearch.mutate({ name: props.search.name });
      props.onDone();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <Dialog title="Rename saved search" onClose={props.onClose}>
      <form className="form" onSubmit={submit}>
        <label className="field">
          <span>Name</span>
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            maxLength={100}
            data-autofocus
          />
        </label>
        <FormActions submit="Rename" onCancel={props.onClose} error={error} />
      </form>
    </Dialog>
  );
}
