import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { trackline } from '../../api';
import { Link, navigate } from '../../lib/router';
import { Panel, useAction } from './common';

const USERS = ['admin-users'] as const;

/** Users: search (pages of 10), create with a password, delete. */
export function UsersAdmin() {
  const [q, setQ] = useState('');
  const [start, setStart] = useState(0);
  const users = useQuery({
    queryKey: [...USERS, q, start],
    queryFn: () => trackline.users.list.query({ q, start }),
  });
  const { run, feedback } = useAction(USERS);
  const [form, setForm] = useState({ login: '', fullName: '', email: '', password: '' });
  const create = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await run(
      () =>
        trackline.users.create.mutate({
          login: form.login,
          fullName: form.fullName || form.login,
          ...(form.email ? { email: form.email } : {}),
          ...(form.password ? { password: form.password } : {}),
        }),
      `Created ${form.login}.`,
    );
    if (ok) setForm({ login: '', fullName: '', email: '', password: '' });
  };
  return (
    <>
      <h1>Users</h1>
      <Panel title="All users">
        <label className="field inline">
          <span>Find</span>
          <input
            type="search"
            value={q}
            onChange={(e) => {
              setQ(e.target.value);
              setStart(0);
            }}
            placeholder="login, name or e-mail"
          />
        </label>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Login</th>
              <th scope="col">Full name</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(users.data ?? []).map((u) => (
              <tr key={u.login}>
                <td>
                  <Link href={`/admin/users/${encodeURIComponent(u.login)}`}>{u.login}</Link>
                </td>
                <td>{u.fullName}</td>
                <td>
                  <button
                    type="button"
                    className="link-button danger"
                    aria-label={`Delete user ${u.login}`}
                    onClick={() =>
                      void run(() => trackline.users.delete.mutate({ login: u.login }), `Deleted ${u.login}.`)
                    }
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="pager">
          <button type="button" disabled={start === 0} onClick={() => setStart(Math.max(0, start - 10))}>
            ← Previous
          </button>
          <button
            type="button"
            disabled={(users.data ?? []).length < 10}
            onClick={() => setStart(start + 10)}
          >
            Next →
          </button>
        </div>
      </Panel>
      <Panel title="New user">
        <form className="form grid" onSubmit={create}>
          <label className="field">
            <span>Login</span>
            <input
              value={form.login}
              onChange={(e) => setForm({ ...form, login: e.target.value })}
              required
              autoComplete="off"
            />
          </label>
          <label className="field">
            <span>Full name</span>
            <input value={form.fullName} onChange={(e) => setForm({ ...form, fullName: e.target.value })} />
          </label>
          <label className="field">
            <span>E-mail</span>
            <input
              type="email"
              value={form.email}
              onChange={(e) => setForm({ ...form, email: e.target.value })}
            />
          </label>
          <label className="field">
            <span>Password</span>
            <input
              type="password"
              value={form.password}
              onChange={(e) => setForm({ ...form, password: e.target.value })}
              minLength={8}
              autoComplete="new-password"
            />
          </label>
          <div className="actions">
            <button type="submit" className="primary">
              Create user
            </button>
          </div>
        </form>
      </Panel>
      {feedback}
    </>
  );
}

/** One user: name and e-mail, groups, roles (global or per project). */
export function UserAdmin({ login }: { login: string }) {
  const key = ['admin-user', login] as const;
  const user = useQuery({ queryKey: [...key, 'user'], queryFn: () => trackline.users.get.query({ login }) });
  const groups = useQuery({
    queryKey: [...key, 'groups'],
    queryFn: () => trackline.groups.ofUser.query({ login }),
  });
  const roles = useQuery({
    queryKey: [...key, 'roles'],
    queryFn: () => trackline.users.roles.query({ login }),
  });
  const allRoles = useQuery({
    queryKey: ['roles'],
    queryFn: () => trackline.roles.list.query({}),
    retry: false,
  });
  const { run, feedback } = useAction(key);
  const [group, setGroup] = useState('');
  const [grant, setGrant] = useState({ role: 'Developer', project: '' });
  if (user.error) {
    return (
      <p className="error" role="alert">
        No user {login}. <Link href="/admin/users">All users</Link>
      </p>
    );
  }
  return (
    <>
      <p className="breadcrumbs">
        <Link href="/admin/users">Users</Link> › {login}
      </p>
      <h1>{user.data?.fullName ?? login}</h1>
      <p className="muted">
        {login} · {user.data?.email || 'no e-mail'} · {user.data?.type}
      </p>
      <Panel title="Groups">
        <ul className="plain">
          {(groups.data ?? []).map((g) => (
            <li key={g.name}>
              {g.name}{' '}
              <button
                type="button"
                className="link-button danger"
                aria-label={`Remove ${login} from ${g.name}`}
                onClick={() => void run(() => trackline.groups.removeUser.mutate({ login, group: g.name }))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            void run(() => trackline.groups.addUser.mutate({ login, group }), `${login} joined ${group}.`);
          }}
        >
          <label className="field inline">
            <span>Add to group</span>
            <input value={group} onChange={(e) => setGroup(e.target.value)} required />
          </label>
          <button type="submit">Add</button>
        </form>
      </Panel>
      <Panel title="Roles">
        <ul className="plain">
          {(roles.data ?? []).map((r) => (
            <li key={r.name}>
              {r.name}: {r.projects.length === 0 ? 'everywhere' : r.projects.map((p) => p.id).join(', ')}{' '}
              <button
                type="button"
                className="link-button danger"
                aria-label={`Revoke ${r.name} from ${login}`}
                onClick={() => void run(() => trackline.users.revokeRole.mutate({ login, role: r.name }))}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            void run(
              () =>
                trackline.users.grantRole.mutate({
                  login,
                  role: grant.role,
                  ...(grant.project ? { project: grant.project } : {}),
                }),
              `Granted ${grant.role}.`,
            );
          }}
        >
          <label className="field inline">
            <span>Role</span>
            <select value={grant.role} onChange={(e) => setGrant({ ...grant, role: e.target.value })}>
              {(allRoles.data ?? [{ name: 'Developer' }]).map((r) => (
                <option key={r.name} value={r.name}>
                  {r.name}
                </option>
              ))}
            </select>
          </label>
          <label className="field inline">
            <span>In project (empty: everywhere)</span>
            <input
              value={grant.project}
              onChange={(e) => setGrant({ ...grant, project: e.target.value })}
              size={8}
            />
          </label>
          <button type="submit">Grant</button>
        </form>
      </Panel>
      {feedback}
      <button
        type="button"
        className="danger"
        onClick={() =>
          void run(() => trackline.users.delete.mutate({ login })).then(
            (ok) => ok && navigate('/admin/users'),
          )
        }
      >
        Delete {login}
      </button>
    </>
  );
}
