import type { IssueView, Me } from '@trackline/client';
import { type FormEvent, memo, useCallback, useId, useRef, useState } from 'react';
import { messageOf, trackline } from '../api';
import { AssistInput } from './AssistInput';
import { Dialog } from './Dialog';
import { GroupSelect } from './GroupSelect';

/** What the command applies to: one issue or a selection, or every issue a query matches. */
export type CommandTarget =
  | { kind: 'issues'; ids: string[] }
  | { kind: 'query'; query: string; total: number };

type Preview = { desc: string; error: boolean };

/** The most issues one command may change (the server's limit: commands.execute refuses more). */
export const COMMAND_LIMIT = 500;

export function describeTarget(target: CommandTarget): string {
  if (target.kind === 'query')
    return `${target.total} issue${target.total === 1 ? '' : 's'} matching “${target.query || 'everything'}”`;
  if (target.ids.length === 1) return target.ids[0] as string;
  return `${target.ids.length} selected issues`;
}

/**
 * The command dialog (YouTrack's, Linear's palette, GitLab's quick actions): the command is
 * underlined as the server parses it for the target issues, completed from the keyboard, and
 * previewed ("Set Priority to Critical") before it is applied, with an optional comment (visible
 * to one group), silently, or as another user for administrators. Ctrl+Enter applies; the
 * changed issues come back in the answer and are shown at once by the caller.
 */
export function CommandBox(props: {
  target: CommandTarget;
  me: Me;
  onClose(): void;
  /** The changed issues as they are now, and the ids of those the command deleted. */
  onApplied(issues: IssueView[], deleted: string[]): void;
  initialCommand?: string;
}) {
  const { target } = props;
  const [command, setCommand] = useState(props.initialCommand ?? '');
  const [comment, setComment] = useState('');
  const [group, setGroup] = useState('');
  const [silent, setSilent] = useState(false);
  const [runAs, setRunAs] = useState('');
  const [previews, setPreviews] = useState<{ text: string; list: Preview[] }>({ text: '', list: [] });
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const latest = useRef(command);
  const previewId = useId();
  const mayRunAs = props.me.permissions.includes('LOW_LEVEL_ADMIN');

  const contextInput =
    target.kind === 'issues' ? { issueIds: target.ids.join(',') } : { query: target.query };
  const contextKey = JSON.stringify(contextInput);
  const assist = useCallback(
    async (text: string, caret: number, signal: AbortSignal) => {
      latest.current = text;
      const answer = await trackline.commands.underlineAndSuggestAndCommands.query(
        { ...contextInput, command: text, caret, optionsLimit: 12 },
        { signal },
      );
      if (latest.current === text) setPreviews({ text, list: answer.commands.command });
      return { ranges: answer.underline.ranges, items: answer.suggest.items };
    },
    [contextKey],
  );

  // Checked before Apply, in the preview: a query matching more issues than one command may change.
  const overLimit =
    target.kind === 'query' && target.total > COMMAND_LIMIT
      ? `This query matches ${target.total} issues; one command changes at most ${COMMAND_LIMIT}. Narrow the query or select issues.`
      : '';
  const apply = async (event?: FormEvent) => {
    event?.preventDefault();
    if (busy || overLimit) return;
    if (!command.trim() && !comment.trim()) {
      setError('Type a command or a comment.');
      return;
    }
    setBusy(true);
    setError('');
    try {
      const { issues, deleted } = await trackline.commands.execute.mutate({
        ...(target.kind === 'issues' ? { issues: target.ids } : { query: target.query }),
        ...(command.trim() ? { command } : {}),
        ...(comment.trim() ? { comment } : {}),
        ...(group ? { group } : {}),
        ...(runAs.trim() ? { runAs: runAs.trim() } : {}),
        ...(silent ? { disableNotifications: true } : {}),
      });
      props.onClose();
      props.onApplied(issues, deleted);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  const shownPreviews = previews.text === command ? previews.list : [];
  return (
    <Dialog title={`Command for ${describeTarget(target)}`} onClose={props.onClose} wide>
      <form
        className="command-box"
        onSubmit={apply}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void apply(e);
        }}
      >
        <AssistInput
          label="Command"
          value={command}
          onChange={setCommand}
          assist={assist}
          autoFocus
          placeholder="e.g. Priority Critical for me tag regression"
          describedBy={previewId}
          className="command-input"
        />
        <section className="previews" aria-label="What the command will do">
          <ul id={previewId}>
            {overLimit && (
              <li className="preview preview-error">
                <span aria-hidden="true">⚠</span> {overLimit}
              </li>
            )}
            {shownPreviews.length === 0 && command.trim() === '' && !overLimit && (
              <li className="muted">Type a command: a field and a value, a tag, a link, “for me”…</li>
            )}
            {shownPreviews.map((p, i) => (
              <li key={i} className={p.error ? 'preview preview-error' : 'preview'}>
                <span aria-hidden="true">{p.error ? '⚠' : '✓'}</span> {p.desc}
              </li>
            ))}
          </ul>
        </section>
        <CommandOptions
          comment={comment}
          onComment={setComment}
          group={group}
          onGroup={setGroup}
          silent={silent}
          onSilent={setSilent}
          runAs={mayRunAs ? runAs : null}
          onRunAs={setRunAs}
        />
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="primary" disabled={busy || overLimit !== ''}>
            {busy ? 'Applying…' : 'Apply'} <kbd>Ctrl+Enter</kbd>
          </button>
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * The comment, its visibility, "Apply silently" and "Run as": memoised, so a key typed in the
 * command (which renders the field, its completions and the previews) leaves them alone.
 */
const CommandOptions = memo(function CommandOptions(props: {
  comment: string;
  onComment(comment: string): void;
  group: string;
  onGroup(group: string): void;
  silent: boolean;
  onSilent(silent: boolean): void;
  /** Null when the caller may not run commands as another user. */
  runAs: string | null;
  onRunAs(login: string): void;
}) {
  return (
    <>
      <label className="field">
        <span>Comment</span>
        <textarea value={props.comment} onChange={(e) => props.onComment(e.target.value)} rows={3} />
      </label>
      <div className="row">
        <GroupSelect label="Comment visible to" value={props.group} onChange={props.onGroup} />
        <label className="checkbox">
          <input type="checkbox" checked={props.silent} onChange={(e) => props.onSilent(e.target.checked)} />{' '}
          Apply silently
        </label>
        {props.runAs !== null && (
          <label className="field inline">
            <span>Run as</span>
            <input
              type="text"
              value={props.runAs}
              onChange={(e) => props.onRunAs(e.target.value)}
              placeholder="login"
              autoComplete="off"
              size={12}
            />
          </label>
        )}
      </div>
    </>
  );
});
