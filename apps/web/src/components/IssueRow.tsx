import type { IssueView } from '@trackline/client';
import { memo } from 'react';
import { rememberOpened } from '../lib/keys';
import { Link } from '../lib/router';
import { Chip } from './Chip';

/** The fields shown as chips in lists, in this order, when the project has them. */
export const LIST_FIELDS = ['Priority', 'State', 'Type', 'Assignee'];

// One formatter for every date shown: an Intl formatter built per call (toLocaleString with
// options) cost more than rendering the row itself.
const TIME = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
export const formatTime = (ms: number) => TIME.format(ms);

/** One issue of a list: selection box, id and summary (a link), coloured chips, last update. */
export const IssueRow = memo(function IssueRow(props: {
  issue: IssueView;
  selected: boolean;
  onToggle(id: string): void;
  focused: boolean;
}) {
  const { issue } = props;
  return (
    <li
      className={`issue-row${props.selected ? ' selected' : ''}${issue.resolved !== null ? ' resolved' : ''}`}
      data-issue={issue.id}
    >
      <input
        type="checkbox"
        checked={props.selected}
        onChange={() => props.onToggle(issue.id)}
        aria-label={`Select ${issue.id}`}
        tabIndex={-1}
      />
      <Link
        href={`/issue/${issue.id}`}
        className="issue-link"
        tabIndex={props.focused ? 0 : -1}
        onClick={() => rememberOpened(issue.id)}
      >
        <span className="issue-id">{issue.id}</span> <span className="issue-summary">{issue.summary}</span>
      </Link>
      <span className="chips">
        {LIST_FIELDS.map((name) => {
          const field = issue.fields.find((f) => f.name === name);
          if (!field) return null;
          return <Chip key={name} value={field.values[0]} empty={field.emptyText} title={name} />;
        })}
      </span>
      <time className="updated muted" dateTime={new Date(issue.updated).toISOString()}>
        {formatTime(issue.updated)}
      </time>
    </li>
  );
});
