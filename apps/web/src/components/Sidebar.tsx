import { useQuery } from '@tanstack/react-query';
import { memo } from 'react';
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
}: {
  current: string;
  onPick(query: string): void;
}) {
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
    <nav className="sidebar" aria-label="Folders">
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
