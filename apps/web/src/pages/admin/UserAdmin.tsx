import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { trackline } from '../../api';
import { Link, navigate } from '../../lib/router';
import { Field, OneFieldForm, Panel, RoleGrants, RowAction, useAction } from './common';
import { BUILT_IN, deleteUserRequest } from './UsersAdmin';

/** One user: name, e-mail and password, ban, groups, roles (global or per project), delete. */
export function UserAdmin({ login }: { login: string }) {
  const key = ['admin-user', login] as const;
  const user = useQuery({
    queryKey: [...key, 'account'],
    queryFn: () => trackline.users.account.query({ login }),
  });
  const groups = useQuery({
    queryKey: [...key, 'groups'],
    queryFn: () => trackline.groups.ofUser.query({ login }),
  });
  const roles = useQuery({
    queryKey: [...key, 'roles'],
    queryFn: () => trackline.users.roles.query({ login }),
  });
  const { run, ask, feedback } = useAction(key);
  const [account, setAccount] = useState({ fullName: '', email: '' });
  const [password, setPassword] = useState('');
  useEffect(() => {
    if (user.data) setAccount({ fullName: user.data.fullName, email: user.data.email ?? '' });
  }, [user.data]);
  if (user.error) {
    return (
      <p className="error" role="alert">
        No user {login}. <Link href="/admin/users">All users</Link>
      </p>
    );
  }
  const ordinary = user.data?.type === 'user' && !BUILT_IN.has(login);
  const save = (event: FormEvent) => {
    event.preventDefault();
    void run(
      () => trackline.users.update.mutate({ login, fullName: account.fullName, email: account.email }),
      `Saved ${login}.`,
    );
  };
  const setNewPassword = async (event: FormEvent) => {
    event.preventDefault();
    if (
      await run(
        () => trackline.users.update.mutate({ login, password }),
        `Set a new password for ${login}; their sessions ended.`,
      )
    )
      setPassword('');
  };
  const ban = (banned: boolean) =>
    banned
      ? void ask(
          {
            title: `Ban ${login}?`,
            body: (
              <p>
                {user.data?.fullName} ({login}) cannot log in, and their sessions end now; their tokens are
                refused while the ban lasts. Their issues, comments and roles stay. The ban can be lifted
                here.
              </p>
            ),
            action: 'Ban',
          },
          () => trackline.users.setBanned.mutate({ login, banned: true }),
          `Banned ${login}.`,
        )
      : void run(
          () => trackline.users.setBanned.mutate({ login, banned: false }),
          `Lifted the ban on ${login}.`,
        );
  return (
    <>
      <p className="breadcrumbs">
        <Link href="/admin/users">Users</Link> › {login}
      </p>
      <h1>{user.data?.fullName ?? login}</h1>
      <p className="muted">
        {login} · {user.data?.email || 'no e-mail'} · {user.data?.type}
        {user.data?.banned && <span className="badge badge-danger">Banned</span>}
      </p>
      <Panel title="Account">
        <form className="form grid" onSubmit={save}>
          <Field label="Full name">
            <input
              value={account.fullName}
              onChange={(e) => setAccount({ ...account, fullName: e.target.value })}
              required
              maxLength={200}
            />
          </Field>
          <Field label="E-mail">
            <input
              type="email"
              value={account.email}
              onChange={(e) => setAccount({ ...account, email: e.target.value })}
              maxLength={200}
            />
          </Field>
          <div className="actions">
            <button type="submit" className="primary">
              Save
            </button>
          </div>
        </form>
      </Panel>
      {ordinary && (
        <Panel title="Password">
          <form className="row" onSubmit={(e) => void setNewPassword(e)}>
            <Field label="New password" inline>
              <input
                type="password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                minLength={8}
                required
                autoComplete="new-password"
              />
            </Field>
            <button type="submit">Set password</button>
          </form>
          <p className="muted small">Their sessions end; they log in with the new password.</p>
        </Panel>
      )}
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
      {user.data && ordinary && (
        <div className="actions">
          <button type="button" className="danger" onClick={() => ban(!user.data.banned)}>
            {user.data.banned ? `Lift the ban on ${login}` : `Ban ${login}`}
          </button>
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
        </div>
      )}
    </>
  );
}
