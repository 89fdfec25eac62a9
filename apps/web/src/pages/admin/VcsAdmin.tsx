import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { trackline } from '../../api';
import { CreateForm, Disclosure, Field, Panel, RowAction, useAction, useForm } from './common';

type Host = 'github' | 'gitlab' | 'bitbucket';

/** VCS integrations: list, create (shows the hook URL once), delete, and each one's delivery log. */
export function VcsAdmin() {
  const key = ['admin-vcs'] as const;
  const list = useQuery({ queryKey: [...key, 'list'], queryFn: () => trackline.vcs.list.query({}) });
  const { run, ask, feedback } = useAction(key);
  const { form, bind, reset } = useForm({
    name: '',
    host: 'github' as Host,
    repository: '',
    projects: '',
    committersRole: 'Developer',
    secret: '',
  });
  const [hook, setHook] = useState<{ url: string; name: string } | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const deliveries = useQuery({
    queryKey: [...key, 'deliveries', open],
    queryFn: () => trackline.vcs.deliveries.query({ name: open as string, max: 50 }),
    enabled: open !== null,
  });
  const create = async (event: FormEvent) => {
    event.preventDefault();
    let created: { hookUrl: string; name: string } | null = null;
    const ok = await run(async () => {
      created = await trackline.vcs.create.mutate({
        name: form.name,
        host: form.host,
        repository: form.repository,
        projects: form.projects.split(/[\s,]+/).filter(Boolean),
        committersRole: form.committersRole,
        ...(form.secret ? { secret: form.secret } : {}),
      });
    }, `Created ${form.name}.`);
    if (ok && created) {
      const { hookUrl, name } = created;
      setHook({ url: hookUrl, name });
      reset();
    }
  };
  return (
    <>
      <h1>VCS integrations</h1>
      <Panel title="Integrations">
        {(list.data ?? []).length === 0 && <p className="muted">None yet.</p>}
        <ul className="plain">
          {(list.data ?? []).map((v) => (
            <li key={v.name}>
              <Disclosure open={open === v.name} onToggle={() => setOpen(open === v.name ? null : v.name)}>
                {v.name}
              </Disclosure>{' '}
              <span className="muted">
                {v.host} {v.repository} → {v.projects.map((p) => p.shortName).join(', ')} (committers:{' '}
                {v.committersRole ?? 'any'})
              </span>{' '}
              <RowAction
                label={`Delete integration ${v.name}`}
                onClick={() =>
                  void ask(
                    {
                      title: `Delete the integration ${v.name}?`,
                      body: (
                        <p>
                          Pushes to {v.repository} stop reaching Trackline and its delivery log goes with it.
                          This cannot be undone (a new integration gets a new hook URL).
                        </p>
                      ),
                      action: 'Delete integration',
                    },
                    () => trackline.vcs.delete.mutate({ name: v.name }),
                    `Deleted ${v.name}.`,
                  )
                }
              >
                Delete
              </RowAction>
              {open === v.name && (
                <table className="table nested">
                  <caption>Deliveries of {v.name} (newest first)</caption>
                  <thead>
                    <tr>
                      <th scope="col">Received</th>
                      <th scope="col">Event</th>
                      <th scope="col">Commits</th>
                      <th scope="col">Status</th>
                      <th scope="col">Attempts</th>
                      <th scope="col">Error</th>
                    </tr>
                  </thead>
                  <tbody>
                    {(deliveries.data ?? []).map((d) => (
                      <tr key={d.id}>
                        <td>{new Date(d.receivedAt).toLocaleString()}</td>
                        <td>{d.event}</td>
                        <td>{d.commitCount}</td>
                        <td className={`status-${d.status}`}>{d.status}</td>
                        <td>{d.attempts}</td>
                        <td>{d.error ?? ''}</td>
                      </tr>
                    ))}
                    {deliveries.data?.length === 0 && (
                      <tr>
                        <td colSpan={6} className="muted">
                          No delivery yet.
                        </td>
                      </tr>
                    )}
                  </tbody>
                </table>
              )}
            </li>
          ))}
        </ul>
      </Panel>
      {hook && (
        <div className="banner" role="status">
          Point the repository's push webhook of <strong>{hook.name}</strong> at <code>{hook.url}</code>{' '}
          (shown once).
        </div>
      )}
      <CreateForm title="New integration" button="Create integration" onSubmit={create}>
        <Field label="Name">
          <input {...bind('name')} required />
        </Field>
        <Field label="Host">
          <select {...bind('host', (text) => text as Host)}>
            <option value="github">GitHub</option>
            <option value="gitlab">GitLab</option>
            <option value="bitbucket">Bitbucket</option>
          </select>
        </Field>
        <Field label="Repository">
          <input {...bind('repository')} required placeholder="owner/repo" />
        </Field>
        <Field label="Projects">
          <input {...bind('projects')} required placeholder="DEMO, OPS" />
        </Field>
        <Field label="Committers' role">
          <input {...bind('committersRole')} required />
        </Field>
        <Field label="Secret">
          <input type="password" {...bind('secret')} autoComplete="off" />
        </Field>
      </CreateForm>
      {feedback}
    </>
  );
}
