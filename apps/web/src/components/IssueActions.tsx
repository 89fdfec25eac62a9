import { useQuery } from '@tanstack/react-query';
import type { IssueView, Me } from '@trackline/client';
import { type FormEvent, useId, useState } from 'react';
import { messageOf, trackline } from '../api';
import { quoteValue } from '../lib/segments';

type Changed = (issues: IssueView[], deleted?: string[]) => void;

/** Runs a command on one issue and shows the answer; the error, if any, for the caller to show. */
async function runOn(issue: string, command: string, changed: Changed): Promise<string> {
  try {
    const { issues, deleted } = await trackline.commands.execute.mutate({ issues: [issue], command });
    changed(issues, deleted);
    return '';
  } catch (e) {
    return messageOf(e);
  }
}

/** One click each: star (a personal mark) and vote, with their counts (`star`/`vote` commands). */
export function StarAndVote({ issue, changed }: { issue: IssueView; changed: Changed }) {
  const [error, setError] = useState('');
  const run = async (command: string) => setError(await runOn(issue.id, command, changed));
  return (
    <>
      <button
        type="button"
        aria-pressed={issue.starredByMe}
        onClick={() => void run(issue.starredByMe ? 'unstar' : 'star')}
        title={issue.starredByMe ? 'Starred: click to unstar' : 'Star this issue'}
      >
        <span aria-hidden="true">{issue.starredByMe ? '★' : '☆'}</span> Star{' '}
        <span className="count-pill">{issue.stars}</span>
      </button>
      <button
        type="button"
        aria-pressed={issue.votedByMe}
        onClick={() => void run(issue.votedByMe ? 'unvote' : 'vote')}
        title={issue.votedByMe ? 'Voted: click to take the vote back' : 'Vote for this issue'}
      >
        <span aria-hidden="true">▲</span> Vote <span className="count-pill">{issue.votes}</span>
      </button>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

/**
 * The issue's tags (the caller's own and shared ones), each removable, and "Add tag" with the
 * caller's tags as completions. The star is the Star button, not a tag here.
 */
export function Tags({ issue, me, changed }: { issue: IssueView; me: Me; changed: Changed }) {
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const listId = useId();
  const known = useQuery({
    queryKey: ['tags.mine'],
    queryFn: () => trackline.folders.tags.query({}),
    enabled: adding,
    staleTime: 30_000,
  });
  const shown = issue.tags.filter((t) => !(t.name === 'Star' && t.owner === me.login));
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    const failed = await runOn(issue.id, `tag ${quoteValue(name.trim())}`, changed);
    setError(failed);
    if (!failed) {
      setName('');
      setAdding(false);
    }
  };
  return (
    <div className="tags-bar">
      {shown.length > 0 && (
        <ul className="tags" aria-label="Tags">
          {shown.map((t) => (
            <li key={`${t.owner}/${t.name}`} className="tag">
              {t.name}
              <button
                type="button"
                className="icon-button tag-remove"
                aria-label={`Remove tag ${t.name}`}
                onClick={() => void runOn(issue.id, `untag ${quoteValue(t.name)}`, changed).then(setError)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {adding ? (
        <form className="inline-form" onSubmit={add}>
          <label className="field inline">
            <span>Tag</span>
            <input
              list={listId}
              value={name}
              onChange={(e) => setName(e.target.value)}
              autoComplete="off"
              size={14}
              // biome-ignore lint/a11y/noAutofocus: the form opens to type a tag
              autoFocus
            />
          </label>
          <datalist id={listId}>
            {(known.data ?? []).map((t) => (
              <option key={t.name} value={t.name} />
            ))}
          </datalist>
          <button type="submit" className="small-button">
            Add
          </button>
          <button type="button" className="small-button" onClick={() => setAdding(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" className="small-button" onClick={() => setAdding(true)}>
          Add tag
        </button>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Adds a link from the issue page: a link phrase of the link types, and the other issue completed
 * from a search of what is typed (id or words of its summary).
 */
export function AddLinkForm({
  issue,
  changed,
  onDone,
}: {
  issue: IssueView;
  changed: Changed;
  onDone(): void;
}) {
  const types = useQuery({ queryKey: ['linkTypes'], queryFn: () => trackline.linkTypes.list.query({}) });
  const phrases = [
    ...new Set(
      (types.data ?? []).flatMap((t) =>
        t.directed && t.inwardName !== t.outwardName ? [t.outwardName, t.inwardName] : [t.outwardName],
      ),
    ),
  ];
  const [phrase, setPhrase] = useState('relates to');
  const [other, setOther] = useState('');
  const [error, setError] = useState('');
  const listId = useId();
  const typed = other.trim();
  const candidates = useQuery({
    queryKey: ['link-candidates', typed],
    queryFn: ({ signal }) => trackline.issues.list.query({ filter: typed, max: 20 }, { signal }),
    enabled: typed.length >= 2,
    staleTime: 10_000,
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const id = typed.split(/\s/)[0] ?? '';
    if (!id) return;
    const failed = await runOn(issue.id, `${phrase} ${id}`, changed);
    setError(failed);
    if (!failed) onDone();
  };
  return (
    <form className="row inline-form" onSubmit={submit}>
      <label className="field inline">
        <span>Link type</span>
        <select value={phrase} onChange={(e) => setPhrase(e.target.value)}>
          {(phrases.length ? phrases : ['relates to']).map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </label>
      <label className="field inline grow">
        <span>Issue to link</span>
        <input
          list={listId}
          value={other}
          onChange={(e) => setOther(e.target.value)}
          placeholder="DEMO-12 or words of its summary"
          autoComplete="off"
          // biome-ignore lint/a11y/noAutofocus: the form opens to name the other issue
          autoFocus
        />
      </label>
      <datalist id={listId}>
        {(candidates.data?.issues ?? [])
          .filter((i) => i.id !== issue.id)
          .map((i) => (
            <option key={i.id} value={i.id} label={`${i.id} ${i.summary}`} />
          ))}
      </datalist>
      <button type="submit">Link</button>
      <button type="button" onClick={onDone}>
        Cancel
      </button>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
