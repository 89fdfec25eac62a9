import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { trackline } from '../../api';
import { Link, navigate } from '../../lib/router';
import {
  CreateForm,
  Field,
  OneFieldForm,
  Panel,
  RoleGrants,
  RowAction,
  TableHead,
  useAction,
  useForm,
} from './common';

const USERS = ['admin-users'] as const;

/** Accounts the server keeps for itself: never offered for deletion. */
const BUILT_IN = new Set(['root', 'guest', 'system_user', 'deleted_user']);

/** What deleting a user does, for the confirmation. */
const deleteUserRequest = (login: string, fullName: string) => ({
  title: `Delete the user ${login}?`,
  body: (
    <p>
      {fullName} ({login}) goes with their sessions, tokens, roles, group memberships, stars, votes, own tags
      and saved searches; the issues, comments and changes they wrote stay, shown as by deleted_user. This
      cannot be undone.
    </p>
  ),
  action: 'Delete user',
});

/** Users: search (pages of 10), create with a password, delete. */
export function UsersAdmin() {
  const [q, setQ] = useState('');
  const [start, setStart] = useState(0);
  const users = useQuery({
    queryKey: [...USERS, q, start],
    queryFn: () => trackline.users.list.query({ q, start }),
  });
  const { run, ask, feedback } = useAction(USERS);
  const { form, bind, reset } = useForm({ login: '', fullName: '', email: '', password: '' });
  const system = useQuery({
    queryKey: [...USERS, 'system'],
    queryFn: () => trackline.users.systemUsers.query({}),
    retry: false,
  });
  const builtIn = new Set([...BUILT_IN, ...(system.data ?? []).map((u) => u.login)]);
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
    if (ok) reset();
  };
  return (
    <>
      <h1>Users</h1>
      <Panel title="All users">
        <Field label="Find" inline>
          <input
            type="search"
            value={q}
            onChange={(e) => {
              setQ(e.target.value);
              setStart(0);
            }}
            placeholder="login, name or e-mail"
          />
        </Field>
        <table className="table">
          <TableHead columns={['Login', 'Full name']} />
          <tbody>
            {(users.data ?? []).map((u) => (
              <tr key={u.login}>
                <td>
                  <Link href={`/admin/users/${encodeURIComponent(u.login)}`}>{u.login}</Link>
                </td>
                <td>{u.fullName}</td>
                <td>
                  {builtIn.has(u.login) ? (
                    <span className="muted small">built-in</span>
                  ) : (
                    <RowAction
                      label={`Delete user ${u.login}`}
                      onClick={() =>
                        void ask(
                          deleteUserRequest(u.login, u.fullName),
                          () => trackline.users.delete.mutate({ login: u.login }),
                          `Deleted ${u.login}.`,
                        )
                      }
                    >
                      Delete
                    </RowAction>
                  )}
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
      <CreateForm title="New user" button="Create user" onSubmit={create}>
        <Field label="Login">
          <input {...bind('login')} required autoComplete="off" />
        </Field>
        <Field label="Full name">
          <input {...bind('fullName')} />
        </Field>
        <Field label="E-mail">
          <input type="email" {...bind('email')} />
        </Field>
        <Field label="Password">
          <input type="password" {...bind('password')} minLength={8} autoComplete="new-password" />
        </Field>
      </CreateForm>
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
  const { run, ask, feedback } = useAction(key);
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
              <RowAction
                label={`Remove ${login} from ${g.name}`}
                onClick={() => void run(() => trackline.groups.removeUser.mutate({ login, group: g.name }))}
              >
                Remove
              </RowAction>
            </li>
          ))}
        </ul>
        <OneFieldForm
          label="Add to group"
          button="Add"
          submit={(group) =>
            run(() => trackline.groups.addUser.mutate({ login, group }), `${login} joined ${group}.`)
          }
        />
      </Panel>
      <Panel title="Roles">
        <RoleGrants
          holder={login}
          held={roles.data ?? []}
          revoke={(role) => void run(() => trackline.users.revokeRole.mutate({ login, role }))}
          grant={(role, project) =>
            void run(
              () => trackline.users.grantRole.mutate({ login, role, ...(project ? { project } : {}) }),
              `Granted ${role}.`,
            )
          }
        />
      </Panel>
      {feedback}
      {user.data && user.data.type === 'user' && !BUILT_IN.has(login) && (
        <button
          type="button"
          className="danger"
          onClick={() =>
            void ask(deleteUserRequest(login, user.data.fullName), () =>
              trackline.users.delete.mutate({ login }),
            ).then((ok) => ok && navigate('/admin/users'))
          }
        >
          Delete {login}
        </button>
      )}
    </>
  );
}
