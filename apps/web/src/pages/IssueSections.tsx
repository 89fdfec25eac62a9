import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { IssueView, Me, RouterOutputs } from '@trackline/client';
import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import { messageOf, trackline, uploadAttachments } from '../api';
import { useConfirm } from '../components/Confirm';
import { ErrorText, FormActions } from '../components/FormActions';
import { GroupSelect } from '../components/GroupSelect';
import { AddLinkForm } from '../components/IssueActions';
import { formatTime } from '../components/IssueRow';
import { MarkdownEditor, MarkdownText } from '../components/Markdown';
import { formatPeriod, parsePeriod } from '../lib/period';
import { mayIn } from '../lib/permissions';
import { keys } from '../lib/queries';
import { Link } from '../lib/router';

function Section({
  title,
  count,
  children,
  actions,
}: {
  title: string;
  count?: number | undefined;
  children: ReactNode;
  actions?: ReactNode;
}) {
  const id = useId();
  return (
    <section className="issue-section" aria-labelledby={id}>
      <div className="section-header">
        <h2 id={id}>
          {title}
          {count !== undefined && <span className="count-badge">{count}</span>}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** The start of a long text, for a confirmation that names it. */
const excerpt = (text: string) => (text.length > 160 ? `${text.slice(0, 160)}…` : text);

/** Comments with their visibility group: add (optionally for one group), edit and delete. */
export function Comments({
  issue,
  me,
  onChanged,
}: {
  issue: IssueView;
  me: Me;
  onChanged(issues: IssueView[]): void;
}) {
  const project = issue.project.shortName;
  const mayComment = mayIn(me, project, 'CREATE_COMMENT');
  const mayEdit = (author: string) =>
    mayIn(me, project, author === me.login ? 'UPDATE_COMMENT' : 'UPDATE_NOT_OWN_COMMENT');
  const mayDelete = (author: string) =>
    mayIn(me, project, author === me.login ? 'DELETE_COMMENT' : 'DELETE_NOT_OWN_COMMENT');
  const client = useQueryClient();
  const comments = useQuery({
    queryKey: [...keys.issueExtras(issue.id), 'comments'],
    queryFn: () => trackline.issues.comments.query({ issue: issue.id }),
  });
  const [text, setText] = useState('');
  const [group, setGroup] = useState('');
  const [editing, setEditing] = useState<{ id: string; text: string } | null>(null);
  const [error, setError] = useState('');
  const { confirm, dialog } = useConfirm();
  const reload = () => client.invalidateQueries({ queryKey: keys.issueExtras(issue.id) });
  const act = async (work: () => Promise<unknown>) => {
    setError('');
    try {
      await work();
      await reload();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const add = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    void act(async () => {
      const { issues } = await trackline.commands.execute.mutate({
        issues: [issue.id],
        comment: text,
        ...(group ? { group } : {}),
      });
      onChanged(issues);
      setText('');
    });
  };
  const list = (comments.data ?? []).filter((c) => !c.deleted);
  return (
    <Section title="Comments" count={list.length}>
      {dialog}
      <ol className="comments">
        {list.map((c) => (
          <li key={c.id} className="comment">
            <div className="comment-meta">
              <strong>{c.authorFullName}</strong> <span className="muted">{formatTime(c.created)}</span>
              {c.updated !== null && <span className="muted"> (edited)</span>}
              {c.permittedGroup && <span className="visibility">visible to {c.permittedGroup}</span>}
            </div>
            {editing?.id === c.id ? (
              <form
                className="form"
                onSubmit={(e) => {
                  e.preventDefault();
                  void act(async () => {
                    await trackline.issues.updateComment.mutate({
                      issue: issue.id,
                      comment: c.id,
                      text: editing.text,
                    });
                    setEditing(null);
                  });
                }}
              >
                <MarkdownEditor
                  label="Edit the comment"
                  hideLabel
                  value={editing.text}
                  onChange={(text) => setEditing({ id: c.id, text })}
                  rows={3}
                  autoFocus
                />
                <FormActions submit="Save" onCancel={() => setEditing(null)} />
              </form>
            ) : (
              <>
                <MarkdownText text={c.text} className="comment-text" />
                <div className="comment-actions">
                  {mayEdit(c.author) && (
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => setEditing({ id: c.id, text: c.text })}
                      aria-label={`Edit comment by ${c.authorFullName}`}
                    >
                      Edit
                    </button>
                  )}
                  {mayDelete(c.author) && (
                    <button
                      type="button"
                      className="link-button danger"
                      onClick={() =>
                        void confirm({
                          title: `Delete the comment by ${c.authorFullName}?`,
                          body: (
                            <>
                              <blockquote className="quoted">{excerpt(c.text)}</blockquote>
                              <p>The comment leaves {issue.id}; the console cannot bring it back.</p>
                            </>
                          ),
                          action: 'Delete comment',
                        }).then((yes) => {
                          if (yes)
                            void act(() =>
                              trackline.issues.deleteComment.mutate({ issue: issue.id, comment: c.id }),
                            );
                        })
                      }
                      aria-label={`Delete comment by ${c.authorFullName}`}
                    >
                      Delete
                    </button>
                  )}
                </div>
              </>
            )}
          </li>
        ))}
      </ol>
      {mayComment ? (
        <form className="form add-comment" onSubmit={add}>
          <MarkdownEditor label="Add a comment" value={text} onChange={setText} rows={3} />
          <div className="actions">
            <GroupSelect label="Visible to" value={group} onChange={setGroup} />
            <button type="submit" className="primary" disabled={!text.trim()}>
              Comment
            </button>
          </div>
        </form>
      ) : (
        <p className="muted small">Commenting needs the permission Create comment in {project}.</p>
      )}
      <ErrorText error={error} />
    </Section>
  );
}

/** Links in both directions; removing one is the command `remove <phrase> <issue>`. */
export function Links({
  issue,
  me,
  onChanged,
}: {
  issue: IssueView;
  me: Me;
  onChanged(issues: IssueView[], deleted?: string[]): void;
}) {
  const mayLink = mayIn(me, issue.project.shortName, 'LINK_ISSUE');
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState('');
  const remove = async (role: string, other: string) => {
    setError('');
    try {
      const { issues } = await trackline.commands.execute.mutate({
        issues: [issue.id],
        command: `remove ${role} ${other}`,
      });
      onChanged(issues);
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <Section
      title="Links"
      count={issue.links.length}
      actions={
        mayLink &&
        !adding && (
          <button type="button" onClick={() => setAdding(true)}>
            Add link
          </button>
        )
      }
    >
      {adding && <AddLinkForm issue={issue} changed={onChanged} onDone={() => setAdding(false)} />}
      {issue.links.length === 0 ? (
        <p className="muted">No links.</p>
      ) : (
        <ul className="links">
          {issue.links.map((l) => (
            <li key={`${l.role}|${l.issue.id}`}>
              <span className="muted">{l.role}</span>{' '}
              <Link href={`/issue/${l.issue.id}`} className={l.issue.resolved ? 'resolved' : undefined}>
                {l.issue.id}
              </Link>{' '}
              {l.issue.summary}{' '}
              {mayLink && (
                <button
                  type="button"
                  className="link-button danger"
                  onClick={() => void remove(l.role, l.issue.id)}
                  aria-label={`Remove link ${l.role} ${l.issue.id}`}
                >
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <ErrorText error={error} />
    </Section>
  );
}

/** Attachments: download links, upload (multipart, several files), delete. */
export function Attachments({ issue, me, onChanged }: { issue: IssueView; me: Me; onChanged(): void }) {
  const project = issue.project.shortName;
  const mayAttach = mayIn(me, project, 'CREATE_ATTACHMENT_ISSUE');
  const mayDelete = (author: string) =>
    (author === me.login && mayAttach) || mayIn(me, project, 'DELETE_ATTACHMENT_ISSUE');
  const client = useQueryClient();
  const files = useQuery({
    queryKey: [...keys.issueExtras(issue.id), 'attachments'],
    queryFn: () => trackline.attachments.list.query({ issue: issue.id }),
  });
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const { confirm, dialog } = useConfirm();
  const reload = async () => {
    await client.invalidateQueries({ queryKey: keys.issueExtras(issue.id) });
    onChanged();
  };
  const upload = async (event: FormEvent) => {
    event.preventDefault();
    const chosen = [...(input.current?.files ?? [])];
    if (chosen.length === 0) return;
    setBusy(true);
    setError('');
    try {
      await uploadAttachments(issue.id, chosen);
      if (input.current) input.current.value = '';
      await reload();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  const list = files.data ?? [];
  return (
    <Section title="Attachments" count={list.length}>
      {dialog}
      {list.length > 0 && (
        <ul className="attachments">
          {list.map((a) => (
            <li key={a.id}>
              <a href={`/rest/issue/${encodeURIComponent(issue.id)}/attachment/${a.id}`} download={a.name}>
                {a.name}
              </a>{' '}
              <span className="muted">
                {a.authorLogin}, {formatTime(a.created)}
              </span>{' '}
              {mayDelete(a.authorLogin) && (
                <button
                  type="button"
                  className="link-button danger"
                  aria-label={`Delete attachment ${a.name}`}
                  onClick={() =>
                    void confirm({
                      title: `Delete ${a.name}?`,
                      body: <p>The file leaves {issue.id} for good. This cannot be undone.</p>,
                      action: 'Delete attachment',
                    }).then((yes) => {
                      if (yes)
                        void trackline.attachments.delete
                          .mutate({ issue: issue.id, attachment: a.id })
                          .then(reload)
                          .catch((e: unknown) => setError(messageOf(e)));
                    })
                  }
                >
                  Delete
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {mayAttach ? (
        <form className="upload" onSubmit={upload}>
          <label className="field inline">
            <span>Attach files</span>
            <input type="file" multiple ref={input} />
          </label>
          <button type="submit" disabled={busy}>
            {busy ? 'Uploading…' : 'Upload'}
          </button>
        </form>
      ) : (
        <p className="muted small">Attaching files needs the permission Create attachment in {project}.</p>
      )}
      <ErrorText error={error} />
    </Section>
  );
}

/** Work items: time spent (period syntax), with a form to add one. */
export function WorkItems({ issue, me }: { issue: IssueView; me: Me }) {
  const mayAdd = mayIn(me, issue.project.shortName, 'CREATE_WORK_ITEM');
  const client = useQueryClient();
  const items = useQuery({
    queryKey: [...keys.issueExtras(issue.id), 'work'],
    queryFn: () => trackline.timeTracking.workItems.query({ issue: issue.id }),
    retry: false,
  });
  const [duration, setDuration] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState('');
  const add = async (event: FormEvent) => {
    event.preventDefault();
    const minutes = parsePeriod(duration);
    if (minutes === null || minutes < 1) {
      setError('Duration: write it as 1h 30m, 2d or a number of minutes.');
      return;
    }
    setError('');
    try {
      await trackline.timeTracking.createWorkItem.mutate({
        issue: issue.id,
        duration: minutes,
        date: Date.now(),
        description,
      });
      setDuration('');
      setDescription('');
      await client.invalidateQueries({ queryKey: keys.issueExtras(issue.id) });
    } catch (e) {
      setError(messageOf(e));
    }
  };
  if (items.error) return null;
  const list = items.data ?? [];
  const total = list.reduce((sum, w) => sum + w.duration, 0);
  return (
    <Section title="Work items" count={list.length}>
      {list.length > 0 && (
        <table className="table">
          <caption className="visually-hidden">Time spent, {formatPeriod(total)} in all</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Author</th>
              <th scope="col">Spent</th>
              <th scope="col">Type</th>
              <th scope="col">Description</th>
            </tr>
          </thead>
          <tbody>
            {list.map((w) => (
              <tr key={w.id}>
                <td>{new Date(w.date).toLocaleDateString()}</td>
                <td>{w.author.login}</td>
                <td>{formatPeriod(w.duration)}</td>
                <td>{w.worktype?.name ?? ''}</td>
                <td>{w.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {mayAdd && (
        <form className="row" onSubmit={add}>
          <label className="field inline">
            <span>Spent</span>
            <input
              value={duration}
              onChange={(e) => setDuration(e.target.value)}
              placeholder="1h 30m"
              size={8}
            />
          </label>
          <label className="field inline grow">
            <span>Description</span>
            <input value={description} onChange={(e) => setDescription(e.target.value)} />
          </label>
          <button type="submit">Add work</button>
        </form>
      )}
      <ErrorText error={error} />
    </Section>
  );
}

/** What an activity entry says after who and when. */
function ActivityText({ entry }: { entry: Activity }) {
  switch (entry.kind) {
    case 'change':
      return (
        <>
          {entry.fields.map((f) => (
            <span key={f.name} className="change">
              {f.name}: <del>{f.oldValues.join(', ') || '—'}</del> →{' '}
              <ins>{f.newValues.join(', ') || '—'}</ins>
            </span>
          ))}
        </>
      );
    case 'comment':
      return <>commented: “{excerpt(entry.text)}”</>;
    case 'attachment':
      return <>attached {entry.name}</>;
    case 'link-added':
    case 'link-removed':
      return (
        <>
          {entry.kind === 'link-added' ? 'linked' : 'removed the link'}: {entry.phrase}{' '}
          <Link href={`/issue/${entry.issue.id}`}>{entry.issue.id}</Link> {entry.issue.summary}
        </>
      );
    case 'tag-added':
    case 'tag-removed':
      return (
        <>
          {entry.kind === 'tag-added' ? 'tagged' : 'untagged'} <span className="tag">{entry.tag}</span>
        </>
      );
  }
}

type Activity = RouterOutputs['issues']['activity'][number];

/**
 * The issue's history, oldest first: field changes, comments, attachments, links and tags, each
 * with who did it (full name) and when (`issues.activity`).
 */
export function History({ issue }: { issue: IssueView }) {
  const activity = useQuery({
    queryKey: [...keys.issueExtras(issue.id), 'activity'],
    queryFn: () => trackline.issues.activity.query({ issue: issue.id }),
  });
  const list = activity.data ?? [];
  return (
    <Section title="History" count={list.length}>
      {list.length === 0 ? (
        <p className="muted">No recorded changes.</p>
      ) : (
        <ol className="history">
          {list.map((entry, i) => (
            <li key={i}>
              <span className="muted">
                {entry.by.fullName}, {formatTime(entry.at)}:
              </span>{' '}
              <ActivityText entry={entry} />
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}
