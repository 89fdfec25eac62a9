import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { IssueView, Me } from '@trackline/client';
import { type FormEvent, useEffect, useState } from 'react';
import { isUnauthenticated, messageOf, trackline } from '../api';
import { CommandBox, type CommandTarget } from '../components/CommandBox';
import { useConfirm } from '../components/Confirm';
import { FieldsPanel } from '../components/FieldsPanel';
import { FormActions } from '../components/FormActions';
import { StarAndVote, Tags } from '../components/IssueActions';
import { formatTime } from '../components/IssueRow';
import { MarkdownEditor, MarkdownText } from '../components/Markdown';
import { isPageKey } from '../lib/keys';
import { showNotice } from '../lib/notice';
import { mayIn } from '../lib/permissions';
import { keys, showChangedIssues } from '../lib/queries';
import { Link, lastListUrl, navigate } from '../lib/router';
import { useTitle } from '../lib/title';
import { Attachments, Comments, History, Links, WorkItems } from './IssueSections';

/**
 * One issue: summary and description edited in place, the fields panel (value pickers from the
 * project's bundles), comments, links, attachments, work items and history. Ctrl+K opens the
 * command box for this issue; what a command changes shows at once.
 */
export function IssuePage({ id, me }: { id: string; me: Me }) {
  const client = useQueryClient();
  const issue = useQuery({
    queryKey: keys.issue(id),
    queryFn: () => trackline.issues.view.query({ issue: id }),
  });
  const [command, setCommand] = useState<{ target: CommandTarget; initial?: string } | null>(null);
  const { confirm, dialog } = useConfirm();
  useTitle(issue.data ? `${issue.data.id} ${issue.data.summary}` : id);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || !isPageKey(event)) return;
      const k = event.key.toLowerCase();
      if ((k === 'k' && (event.ctrlKey || event.metaKey)) || (k === 'j' && event.ctrlKey && event.altKey)) {
        event.preventDefault();
        setCommand({ target: { kind: 'issues', ids: [id] } });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [id]);

  if (issue.isPending) return <p className="loading">Loading {id}…</p>;
  if (issue.error) {
    if (isUnauthenticated(issue.error)) return null;
    return (
      <section className="issue-page">
        <h1>{id}</h1>
        <p className="error" role="alert">
          {messageOf(issue.error)}
        </p>
        <Link href="/">Back to the issues</Link>
      </section>
    );
  }
  const view = issue.data;
  const changed = (issues: IssueView[], deleted: string[] = []) => {
    showChangedIssues(client, issues, deleted);
    if (deleted.includes(view.id)) wentAway(view.id);
  };
  const deleteIssue = async () => {
    const yes = await confirm({
      title: `Delete ${view.id}?`,
      body: (
        <p>
          {view.id} “{view.summary}” goes with its comments, links, attachments and work items. This cannot be
          undone.
        </p>
      ),
      action: `Delete ${view.id}`,
    });
    if (!yes) return;
    try {
      await trackline.issues.delete.mutate({ issue: view.id });
      changed([], [view.id]);
    } catch (e) {
      showNotice(`${view.id} was not deleted: ${messageOf(e)}`);
    }
  };
  const openCommand = (initial?: string) =>
    setCommand({ target: { kind: 'issues', ids: [view.id] }, ...(initial ? { initial } : {}) });

  return (
    <article className="issue-page" aria-labelledby="issue-title">
      <div className="issue-head">
        <p className="breadcrumbs">
          <Link href={`/?q=${encodeURIComponent(`project: ${view.project.shortName}`)}`}>
            {view.project.name}
          </Link>{' '}
          › {view.id}
        </p>
        <Summary issue={view} mayEdit={mayIn(me, view.project.shortName, 'UPDATE_ISSUE')} />
        <p className="muted small">
          Reported by {view.reporter.fullName} on {formatTime(view.created)} · updated by{' '}
          {view.updater.fullName} on {formatTime(view.updated)}
          {view.resolved !== null && ` · resolved on ${formatTime(view.resolved)}`}
          {view.permittedGroup && <span className="visibility">visible to {view.permittedGroup}</span>}
        </p>
        <div className="toolbar">
          <button type="button" className="primary" onClick={() => openCommand()} title="Ctrl+K">
            Command…
          </button>
          <StarAndVote issue={view} changed={changed} />
          {mayIn(me, view.project.shortName, 'DELETE_ISSUE') && (
            <button type="button" className="danger" onClick={() => void deleteIssue()}>
              Delete issue
            </button>
          )}
        </div>
        <Tags issue={view} me={me} changed={changed} />
      </div>
      <FieldsPanel
        issue={view}
        onChanged={changed}
        readOnly={
          mayIn(me, view.project.shortName, 'UPDATE_ISSUE')
            ? null
            : `Read only: changing fields needs the permission Update issue in ${view.project.shortName}.`
        }
      />
      <div className="issue-body">
        <Comments issue={view} me={me} onChanged={changed} />
        <Links issue={view} me={me} onChanged={changed} />
        <Attachments
          issue={view}
          me={me}
          onChanged={() => void client.invalidateQueries({ queryKey: keys.issue(view.id) })}
        />
        <WorkItems issue={view} me={me} />
        <History issue={view} />
      </div>
      {dialog}
      {command && (
        <CommandBox
          target={command.target}
          me={me}
          initialCommand={command.initial ?? ''}
          onClose={() => setCommand(null)}
          onApplied={changed}
        />
      )}
    </article>
  );
}

/** After the issue was deleted: back to the list it came from, with a notice that says so. */
function wentAway(id: string) {
  showNotice(`Deleted ${id}.`);
  navigate(lastListUrl());
}

/** The summary (the page's heading) and description, edited in place. */
function Summary({ issue, mayEdit }: { issue: IssueView; mayEdit: boolean }) {
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [summary, setSummary] = useState(issue.summary);
  const [description, setDescription] = useState(issue.description);
  const [error, setError] = useState('');
  const start = () => {
    setSummary(issue.summary);
    setDescription(issue.description);
    setEditing(true);
  };
  const save = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await trackline.issues.update.mutate({ issue: issue.id, summary, description });
      client.setQueryData<IssueView>(keys.issue(issue.id), (old) =>
        old ? { ...old, summary, description } : old,
      );
      await client.invalidateQueries({ queryKey: keys.issue(issue.id) });
      void client.invalidateQueries({ queryKey: keys.issueExtras(issue.id) });
      void client.invalidateQueries({ queryKey: ['issues.list'] });
      setEditing(false);
      setError('');
    } catch (e) {
      setError(messageOf(e));
    }
  };
  if (!editing) {
    return (
      <header className="summary">
        <h1 id="issue-title">
          <span className="issue-id">{issue.id}</span> {issue.summary}
        </h1>
        {mayEdit && (
          <button type="button" onClick={start} aria-label="Edit summary and description">
            Edit
          </button>
        )}
        {issue.description ? (
          <MarkdownText text={issue.description} className="description" />
        ) : (
          <p className="muted">No description.</p>
        )}
      </header>
    );
  }
  return (
    <form className="summary form" onSubmit={save} aria-labelledby="issue-title">
      <h1 id="issue-title" className="visually-hidden">
        Edit {issue.id}
      </h1>
      <label className="field">
        <span>Summary</span>
        {/* biome-ignore lint/a11y/noAutofocus: editing starts here */}
        <input value={summary} onChange={(e) => setSummary(e.target.value)} required autoFocus />
      </label>
      <MarkdownEditor label="Description" value={description} onChange={setDescription} rows={8} />
      <FormActions submit="Save" onCancel={() => setEditing(false)} error={error} />
    </form>
  );
}
