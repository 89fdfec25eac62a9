import { useQueryClient } from '@tanstack/react-query';
import type { Me } from '@trackline/client';
import { type FormEvent, useState } from 'react';
import { messageOf, trackline } from '../api';
import { keys } from '../lib/queries';
import { navigate } from '../lib/router';
import { Dialog } from './Dialog';
import { MarkdownEditor } from './Markdown';

/** A new issue: in the project in view when there is one (the list's `project:`), else the first. */
export function NewIssueDialog({
  me,
  project: inView,
  onClose,
}: {
  me: Me;
  project?: string | undefined;
  onClose(): void;
}) {
  const projects = me.projects.filter((p) => p.permissions.includes('CREATE_ISSUE'));
  const [project, setProject] = useState(
    projects.find((p) => p.shortName === inView)?.shortName ?? projects[0]?.shortName ?? '',
  );
  const [summary, setSummary] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState('');
  const client = useQueryClient();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const created = await trackline.issues.create.mutate({ project, summary, description });
      void client.invalidateQueries({ queryKey: ['issues.list'] });
      void client.invalidateQueries({ queryKey: keys.counts });
      onClose();
      navigate(`/issue/${created.id}`);
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <Dialog title="New issue" onClose={onClose}>
      <form onSubmit={submit} className="form">
        <label className="field">
          <span>Project</span>
          <select value={project} onChange={(e) => setProject(e.target.value)}>
            {projects.map((p) => (
              <option key={p.shortName} value={p.shortName}>
                {p.name} ({p.shortName})
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Summary</span>
          <input value={summary} onChange={(e) => setSummary(e.target.value)} required autoFocus />
        </label>
        <MarkdownEditor label="Description" value={description} onChange={setDescription} rows={5} />
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="primary">
            Create
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}

export function SaveSearchDialog({ query, onClose }: { query: string; onClose(): void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const client = useQueryClient();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await trackline.folders.saveSearch.mutate({ name, query });
      await client.invalidateQueries({ queryKey: keys.folders });
      onClose();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <Dialog title="Save search" onClose={onClose}>
      <form onSubmit={submit} className="form">
        <p>
          Query: <code>{query}</code>
        </p>
        <label className="field">
          <span>Name</span>
          <input value={name} onChange={(e) => setName(e.target.value)} required autoFocus />
        </label>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="primary">
            Save
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
