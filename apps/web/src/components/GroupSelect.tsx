import { useQuery } from '@tanstack/react-query';
import { trackline } from '../api';

/**
 * Who may see a comment: everyone who can read the issue, or one group the caller may list
 * (`groups.list`). Without `READ_USERGROUP` (no groups) the choice is not shown.
 */
export function GroupSelect(props: { label: string; value: string; onChange(group: string): void }) {
  const groups = useQuery({
    queryKey: ['groups.list'],
    queryFn: () => trackline.groups.list.query({}),
    retry: false,
  });
  if (!groups.data || groups.data.length === 0) return null;
  return (
    <label className="field inline">
      <span>{props.label}</span>
      <select value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">All who can read the issue</option>
        {groups.data.map((g) => (
          <option key={g.name} value={g.name}>
            {g.name}
          </option>
        ))}
      </select>
    </label>
  );
}
