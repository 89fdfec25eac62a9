import { useQuery } from '@tanstack/react-query';
import type { Me } from '@trackline/client';
import { type FormEvent, useState } from 'react';
import { trackline } from '../../api';
import { formatTime } from '../../components/IssueRow';
import { Link } from '../../lib/router';
import { BundleEditor, bundleTypeOf } from './BundleEditor';
import { Panel, useAction } from './common';

const PROJECTS = ['admin-projects'] as const;

/** Projects: the list, create, move to the trash; the trash with restore and purge. */
export function ProjectsAdmin({ me }: { me: Me }) {
  const projects = useQuery({
    queryKey: [...PROJECTS, 'all'],
    queryFn: () => trackline.projects.all.query({}),
  });
  const trash = useQuery({
    queryKey: [...PROJECTS, 'trash'],
    queryFn: () => trackline.projects.trash.query({}),
    retry: false,
  });
  const { run, feedback } = useAction(PROJECTS);
  const [form, setForm] = useState({ project: '', projectName: '', description: '', lead: me.login });
  const create = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await run(
      () =>
        trackline.projects.create.mutate({
          project: form.project,
          projectName: form.projectName,
          description: form.description,
          projectLeadLogin: form.lead,
        }),
      `Created ${form.project}.`,
    );
    if (ok) setForm({ project: '', projectName: '', description: '', lead: me.login });
  };
  return (
    <>
      <h1>Projects</h1>
      <Panel title="All projects">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Short name</th>
              <th scope="col">Name</th>
              <th scope="col">Description</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(projects.data ?? []).map((p) => (
              <tr key={p.shortName}>
                <td>
                  <Link href={`/admin/projects/${p.shortName}`}>{p.shortName}</Link>
                </td>
                <td>{p.name}</td>
                <td>{p.description}</td>
                <td>
                  <button
                    type="button"
                    className="link-button danger"
                    aria-label={`Move to trash: ${p.shortName}`}
                    onClick={() =>
                      void run(
                        () => trackline.projects.delete.mutate({ project: p.shortName }),
                        `${p.shortName} is in the trash.`,
                      )
                    }
                  >
                    Move to trash
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Panel>
      <Panel title="New project">
        <form className="form grid" onSubmit={create}>
          <label className="field">
            <span>Short name</span>
            <input
              value={form.project}
              onChange={(e) => setForm({ ...form, project: e.target.value.toUpperCase() })}
              required
              pattern="[A-Za-z][A-Za-z0-9_]*"
              title="Letters, digits and _, starting with a letter"
            />
          </label>
          <label className="field">
            <span>Name</span>
            <input
              value={form.projectName}
              onChange={(e) => setForm({ ...form, projectName: e.target.value })}
              required
            />
          </label>
          <label className="field">
            <span>Lead (login)</span>
            <input value={form.lead} onChange={(e) => setForm({ ...form, lead: e.target.value })} required />
          </label>
          <label className="field wide">
            <span>Description</span>
            <input
              value={form.description}
              onChange={(e) => setForm({ ...form, description: e.target.value })}
            />
          </label>
          <div className="actions">
            <button type="submit" className="primary">
              Create project
            </button>
          </div>
        </form>
      </Panel>
      {feedback}
      {trash.data && (
        <Panel title="Trash">
          {trash.data.length === 0 ? (
            <p className="muted">The trash is empty.</p>
          ) : (
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Project</th>
                  <th scope="col">Issues</th>
                  <th scope="col">Deleted</th>
                  <th scope="col">Purged after</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {trash.data.map((p) => (
                  <tr key={p.id}>
                    <td>
                      {p.name} ({p.id})
                    </td>
                    <td>{p.issues}</td>
                    <td>{formatTime(p.deleted)}</td>
                    <td>{formatTime(p.purgeAfter)}</td>
                    <td>
                      <button
                        type="button"
                        onClick={() =>
                          void run(
                            () => trackline.projects.restore.mutate({ project: p.id }),
                            `Restored ${p.id}.`,
                          )
                        }
                        aria-label={`Restore ${p.id}`}
                      >
                        Restore
                      </button>{' '}
                      <button
                        type="button"
                        className="danger"
                        onClick={() =>
                          void run(
                            () => trackline.projects.purge.mutate({ project: p.id }),
                            `Purged ${p.id}.`,
                          )
                        }
                        aria-label={`Purge ${p.id} for good`}
                      >
                        Purge
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Panel>
      )}
    </>
  );
}

/** One project: its fields with their bundles' values (and colours), assignees, roles granted in it. */
export function ProjectAdmin({ project }: { project: string }) {
  const key = ['admin-project', project] as const;
  const fields = useQuery({
    queryKey: [...key, 'fields'],
    queryFn: async () => {
      const names = await trackline.customFields.listProjectFields.query({ project });
      return Promise.all(
        names.map((f) => trackline.customFields.getProjectField.query({ project, name: f.name })),
      );
    },
  });
  const assignees = useQuery({
    queryKey: [...key, 'assignees'],
    queryFn: () => trackline.projectBundles.assignees.query({ project }),
  });
  const users = useQuery({
    queryKey: [...key, 'users'],
    queryFn: () => trackline.users.list.query({ project }),
    retry: false,
  });
  const roles = useQuery({
    queryKey: ['roles'],
    queryFn: () => trackline.roles.list.query({}),
    retry: false,
  });
  const { run, feedback } = useAction(key);
  const [assignee, setAssignee] = useState('');
  const [grant, setGrant] = useState({ who: 'user' as 'user' | 'group', name: '', role: 'Developer' });
  const grantRole = (event: FormEvent) => {
    event.preventDefault();
    void run(
      () =>
        grant.who === 'user'
          ? trackline.users.grantRole.mutate({ login: grant.name, role: grant.role, project })
          : trackline.groups.grantRole.mutate({ group: grant.name, role: grant.role, project }),
      `Granted ${grant.role} in ${project} to ${grant.name}.`,
    );
  };
  return (
    <>
      <p className="breadcrumbs">
        <Link href="/admin">Projects</Link> › {project}
      </p>
      <h1>Project {project}</h1>
      <Panel title="Fields">
        {(fields.data ?? []).map((f) => {
          const bundle = f.param.find((p) => p.name === 'bundle')?.value;
          const type = bundleTypeOf(f.type);
          return (
            <details key={f.name} className="field-details">
              <summary>
                {f.name} <span className="muted">{f.type}</span>
                {f.emptyText && <span className="muted"> · empty: {f.emptyText}</span>}
              </summary>
              {bundle && type ? (
                <BundleEditor bundleType={type} bundle={bundle} />
              ) : (
                <p className="muted">A simple field: no values to manage.</p>
              )}
            </details>
          );
        })}
      </Panel>
      <Panel title="Assignees">
        <ul className="plain">
          {(assignees.data ?? []).map((a) => (
            <li key={a.login}>
              {a.fullName} ({a.login}){a.isFromGroup && <span className="muted"> from a group</span>}{' '}
              {!a.isFromGroup && (
                <button
                  type="button"
                  className="link-button danger"
                  aria-label={`Remove ${a.login} from the assignees`}
                  onClick={() =>
                    void run(() =>
                      trackline.projectBundles.removeAssignee.mutate({ project, login: a.login }),
                    )
                  }
                >
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            void run(
              () => trackline.projectBundles.addAssignee.mutate({ project, login: assignee }),
              `${assignee} is an assignee.`,
            ).then((ok) => ok && setAssignee(''));
          }}
        >
          <label className="field inline">
            <span>Add assignee (login)</span>
            <input value={assignee} onChange={(e) => setAssignee(e.target.value)} required />
          </label>
          <button type="submit">Add</button>
        </form>
      </Panel>
      <Panel title="Roles in this project">
        {users.data && (
          <p>
            Users with access: {users.data.map((u) => u.login).join(', ') || 'none'}
            {users.data.length === 10 && ' (first page)'}
          </p>
        )}
        <form className="row" onSubmit={grantRole}>
          <label className="field inline">
            <span>Grant to</span>
            <select
              value={grant.who}
              onChange={(e) => setGrant({ ...grant, who: e.target.value as 'user' | 'group' })}
            >
              <option value="user">User</option>
              <option value="group">Group</option>
            </select>
          </label>
          <label className="field inline">
            <span>{grant.who === 'user' ? 'Login' : 'Group name'}</span>
            <input
              value={grant.name}
              onChange={(e) => setGrant({ ...grant, name: e.target.value })}
              required
            />
          </label>
          <label className="field inline">
            <span>Role</span>
            <select value={grant.role} onChange={(e) => setGrant({ ...grant, role: e.target.value })}>
              {(roles.data ?? [{ name: 'Developer' }]).map((r) => (
                <option key={r.name} value={r.name}>
                  {r.name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">Grant</button>
        </form>
      </Panel>
      {feedback}
    </>
  );
}
