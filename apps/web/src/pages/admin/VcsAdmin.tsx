import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { trackline } from '../../api';
import { Panel, useAction } from './common';

type Host = 'github' | 'gitlab' | 'bitbucket';

/** VCS integrations: list, create (shows the hook URL once), delete, and each one's delivery log. */
export function VcsAdmin() {
  const key = ['admin-vcs'] as const;
  const list = useQuery({ queryKey: [...key, 'list'], queryFn: () => trackline.vcs.list.query({}) });
  const { run, feedback } = useAction(key);
  const empty = {
    name: '',
    host: 'github' as Host,
    repository: '',
    projects: '',
    committersRole: 'Developer',
    secret: '',
  };
  const [form, setForm] = useState(empty);
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
      setForm(empty);
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
              <button
                type="button"
                className="link-button"
                aria-expanded={open === v.name}
                onClick={() => setOpen(open === v.name ? null : v.name)}
              >
                {v.name}
              </button>{' '}
              <span className="muted">
                {v.host} {v.repository} → {v.projects.map((p) => p.shortName).join(', ')} (committers:{' '}
                {v.committersRole ?? 'any'})
              </span>{' '}
              <button
                type="button"
                className="link-button danger"
                aria-label={`Delete integration ${v.name}`}
                onClick={() =>
                  void run(() => trackline.vcs.delete.mutate({ name: v.name }), `Deleted ${v.name}.`)
                }
              >
                Delete
              </button>
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
      <Panel title="New integration">
        <form className="form grid" onSubmit={create}>
          <label className="field">
            <span>Name</span>
            <input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} required />
          </label>
          <label className="field">
            <span>Host</span>
            <select value={form.host} onChange={(e) => setForm({ ...form, host: e.target.value as Host })}>
              <option value="github">GitHub</option>
              <option value="gitlab">GitLab</option>
              <option value="bitbucket">Bitbucket</option>
            </select>
          </label>
          <label className="field">
            <span>Repository</span>
            <input
              value={form.repository}
              onChange={(e) => setForm({ ...form, repository: e.target.value })}
              required
              placeholder="owner/repo"
            />
          </label>
          <label className="field">
            <span>Projects</span>
            <input
              value={form.projects}
              onChange={(e) => setForm({ ...form, projects: e.target.value })}
              required
              placeholder="DEMO, OPS"
            />
          </label>
          <label className="field">
            <span>Committers' role</span>
            <input
              value={form.committersRole}
              onChange={(e) => setForm({ ...form, committersRole: e.target.value })}
              required
            />
          </label>
          <label className="field">
            <span>Secret</span>
            <input
              type="password"
              value={form.secret}
              onChange={(e) => setForm({ ...form, secret: e.target.value })}
              autoComplete="off"
            />
          </label>
          <div className="actions">
            <button type="submit" className="primary">
              Create integration
            </button>
          </div>
        </form>
      </Panel>
      {feedback}
    </>
  );
}
