import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { RouterOutputs } from '@trackline/client';
import { useState } from 'react';
import { messageOf, trackline } from '../../api';
import { Link } from '../../lib/router';
import { notificationKeys } from './notification-keys';
import './notifications.css';

type Entry = RouterOutputs['notifications']['inbox']['entries'][number];
type Part = NonNullable<Entry['issue']>['changes'][number]['parts'][number];

const values = (v: string[]) => (v.length ? v.join(', ') : 'empty');

/** One part of a change, in words. */
function PartLine({ part }: { part: Part }) {
  switch (part.kind) {
    case 'issue.created':
      return <li>Created: {part.summary}</li>;
    case 'issue.changed':
      return (
        <>
          {part.fields.map((f) => (
            <li key={f.name}>
              {f.name}:{' '}
              {f.name === 'description' ? 'edited' : `${values(f.oldValues)} → ${values(f.newValues)}`}
            </li>
          ))}
        </>
      );
    case 'issue.visibility':
      return (
        <li>
          Visible to: {part.from ?? 'everyone'} → {part.to ?? 'everyone'}
        </li>
      );
    case 'comment.added':
    case 'comment.updated':
      return (
        <li>
          {part.kind === 'comment.added' ? 'Comment' : 'Comment edited'}
          {part.group ? ` (visible to ${part.group})` : ''}: <q>{part.text}</q>
        </li>
      );
    case 'attachment.added':
      return <li>Attached: {part.name}</li>;
    case 'link.added':
    case 'link.removed':
      return (
        <li>
          {part.kind === 'link.added' ? 'Link added' : 'Link removed'}: {part.phrase}{' '}
          <Link href={`/issue/${encodeURIComponent(part.issue)}`}>{part.issue}</Link> {part.summary}
        </li>
      );
    case 'tag.added':
    case 'tag.removed':
      return (
        <li>
          {part.kind === 'tag.added' ? 'Tagged' : 'Untagged'}: {part.tag}
        </li>
      );
  }
}

const when = (ms: number) => new Date(ms).toLocaleString();

/** The inbox: what the caller was told, newest first, each entry linking to its issue. */
export function InboxPage() {
  const client = useQueryClient();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inbox = useQuery({
    queryKey: notificationKeys.inbox(unreadOnly),
    queryFn: () => trackline.notifications.inbox.query({ unreadOnly }),
  });
  const markRead = async (ids?: number[]) => {
    setError(null);
    try {
      await trackline.notifications.markRead.mutate(ids ? { ids } : {});
      await client.invalidateQueries({ queryKey: notificationKeys.all });
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const entries = inbox.data?.entries ?? [];
  return (
    <div className="inbox-page">
      <div className="inbox-head">
        <h1>Inbox</h1>
        <span className="muted" aria-live="polite">
          {inbox.data ? `${inbox.data.unread} unread` : ''}
        </span>
        <label className="inbox-filter">
          <input type="checkbox" checked={unreadOnly} onChange={(e) => setUnreadOnly(e.target.checked)} />{' '}
          Unread only
        </label>
        <button type="button" onClick={() => void markRead()} disabled={!inbox.data?.unread}>
          Mark all read
        </button>
        <Link href="/settings/notifications">Notification settings</Link>
      </div>
      {error && <p role="alert">{error}</p>}
      {inbox.isPending && <p className="loading">Loading…</p>}
      {inbox.error && <p role="alert">{messageOf(inbox.error)}</p>}
      {inbox.data && entries.length === 0 && <p className="muted">Nothing here.</p>}
      <ul className="inbox-list" aria-label="Notifications">
        {entries.map((entry) => (
          <li key={entry.id} className={entry.read ? 'inbox-entry' : 'inbox-entry unread'}>
            <div className="inbox-entry-head">
              {entry.issue ? (
                <h2>
                  <Link href={`/issue/${encodeURIComponent(entry.issue.id)}`}>
                    {entry.issue.id} {entry.issue.summary}
                  </Link>
                </h2>
              ) : (
                <h2>{entry.note?.subject}</h2>
              )}
              <span className="muted">
                {entry.read ? '' : 'Unread · '}
                {entry.digest ? 'Digest · ' : ''}
                {when(entry.created)}
              </span>
              {!entry.read && (
                <button
                  type="button"
                  onClick={() => void markRead([entry.id])}
                  aria-label={`Mark read: ${entry.issue?.id ?? entry.note?.subject ?? ''}`}
                >
                  Mark read
                </button>
              )}
            </div>
            {entry.note && <p>{entry.note.text}</p>}
            {entry.issue?.changes.map((change) => (
              <div key={`${change.at}-${change.author.login}`} className="inbox-change">
                <p className="muted">
                  {change.author.fullName}, {when(change.at)}
                </p>
                <ul>
                  {change.parts.map((part, i) => (
                    <PartLine key={`${part.kind}-${i}`} part={part} />
                  ))}
                </ul>
              </div>
            ))}
          </li>
        ))}
      </ul>
    </div>
  );
}
