import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { trackline } from '../../api';
import { Link } from '../../lib/router';
import { CreateForm, Field, Panel, RowAction, TableHead, useAction, useForm } from './common';

const USERS = ['admin-users'] as const;

/** Accounts the server keeps for itself: never offered for deletion. */
export const BUILT_IN = new Set(['root', 'guest', 'system_user', 'deleted_user']);

/** What deleting a user does, for the confirmation. */
export const deleteUserRequest = (login: string, fullName: string) => ({
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
