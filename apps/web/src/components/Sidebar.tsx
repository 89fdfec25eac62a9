import { useQuery } from '@tanstack/react-query';
import { memo, useEffect, useRef } from 'react';
import { trackline } from '../api';
import { keys } from '../lib/queries';

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

/**
 * Folders (everything, projects, saved searches, tags) with how many issues each matches. Memoised:
 * paging the list (a new `page`, the same query) does not render the folders again.
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
  const list = (folders.data ?? []) as Folder[];
  // One count per folder; the client batches them into one request.
  const counts = useQuery({
    queryKey: [...keys.counts, list.map((f) => f.query)],
    queryFn: () =>
      Promise.all(list.map((f) => trackline.issues.count.query({ filter: f.query }).then((c) => c.value))),
    enabled: list.length > 0,
  });
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
              {items.map(({ folder, index }) => (
                <li key={folder.id}>
                  <button
                    type="button"
                    className="folder"
                    aria-current={folder.query === current ? 'true' : undefined}
                    onClick={() => onPick(folder.query)}
                  >
                    <span className="folder-name">{folder.name}</span>
                    <span className="folder-count">
                      {counts.data?.[index] ?? ''}
                      <span className="visually-hidden"> issues</span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </nav>
  );
});
