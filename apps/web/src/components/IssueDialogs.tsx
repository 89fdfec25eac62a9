import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Me } from '@trackline/client';
import { type FormEvent, useState } from 'react';
import { messageOf, trackline } from '../api';
import { keys } from '../lib/queries';
import { navigate } from '../lib/router';
import { quoteValue } from '../lib/segments';
import { Dialog } from './Dialog';
import { FormActions } from './FormActions';
import { MarkdownEditor } from './Markdown';

const SIMPLE_KINDS: string[] = ['string', 'text', 'integer', 'float', 'date', 'period'];

/**
 * A new issue: in the project in view when there is one (the list's `project:`), else the first,
 * with the project's fields to choose (set by one command after the issue is created).
 */
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
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const client = useQueryClient();
  const options = useQuery({
    queryKey: keys.fieldOptions(project),
    queryFn: () => trackline.projects.fieldOptions.query({ project }),
    enabled: project !== '',
    staleTime: 60_000,
  });
  // The project's fields with values to choose (bundle and user fields); simple ones are set on the issue page.
  const pickable = (options.data ?? []).filter((f) => f.values.length > 0 && !SIMPLE_KINDS.includes(f.kind));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const created = await trackline.issues.create.mutate({ project, summary, description });
      // The chosen fields, as one command (the project's defaults stay for the others).
      const command = pickable
        .filter((f) => values[f.name])
        .map((f) => `${f.name} ${quoteValue(values[f.name] as string)}`)
        .join(' ');
      if (command) await trackline.commands.execute.mutate({ issues: [created.id], command });
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
          <select
            value={project}
            onChange={(e) => {
              setProject(e.target.value);
              setValues({});
            }}
          >
            {projects.map((p) => (
              <option key={p.shortName} value={p.shortName}>
                {p.name} ({p.shortName})
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Summary</span>
          <input value={summary} onChange={(e) => setSummary(e.target.value)} required data-autofocus />
        </label>
        <MarkdownEditor label="Description" value={description} onChange={setDescription} rows={5} />
        {pickable.length > 0 && (
          <fieldset className="new-issue-fields">
            <legend>Fields</legend>
            {pickable.map((f) => (
              <label key={f.name} className="field">
                <span>{f.name}</span>
                <select
                  value={values[f.name] ?? ''}
                  onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
                >
                  <option value="">{f.emptyText ? `${f.emptyText} (default)` : 'Default value'}</option>
                  {f.values
                    .filter((v) => !v.archived)
                    .map((v) => (
                      <option key={v.name} value={v.name}>
                        {v.fullName ? `${v.fullName} (${v.name})` : v.name}
                      </option>
                    ))}
                </select>
              </label>
            ))}
          </fieldset>
        )}
        <FormActions submit="Create" onCancel={onClose} error={error} />
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
        <FormActions submit="Save" onCancel={onClose} error={error} />
      </form>
    </Dialog>
  );
}
