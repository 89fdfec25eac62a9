import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { trackline } from '../../api';
import { Disclosure, OneFieldForm, Panel, RoleGrants, RowAction, useAction } from './common';

/** Groups: create, delete, and the roles each holds (globally or per project). */
export function GroupsAdmin() {
  const key = ['admin-groups'] as const;
  const groups = useQuery({ queryKey: [...key, 'list'], queryFn: () => trackline.groups.list.query({}) });
  const { run, ask, feedback } = useAction(key);
  const [open, setOpen] = useState<string | null>(null);
  const groupRoles = useQuery({
    queryKey: [...key, 'roles', open],
    queryFn: () => trackline.groups.roles.query({ group: open as string }),
    enabled: open !== null,
  });
  const members = useQuery({
    queryKey: [...key, 'members', open],
    queryFn: () => trackline.users.list.query({ group: open as string }),
    enabled: open !== null,
  });
  return (
    <>
      <h1>Groups</h1>
      <Panel title="All groups">
        <ul className="plain">
          {(groups.data ?? []).map((g) => (
            <li key={g.name}>
              <Disclosure open={open === g.name} onToggle={() => setOpen(open === g.name ? null : g.name)}>
                {g.name}
              </Disclosure>{' '}
              <RowAction
                label={`Delete group ${g.name}`}
                onClick={() =>
                  void ask(
                    {
                      title: `Delete the group ${g.name}?`,
                      body: (
                        <p>
                          Its members stay, but lose the roles the group gave them. This cannot be undone.
                        </p>
                      ),
                      action: 'Delete group',
                    },
                    () => trackline.groups.delete.mutate({ group: g.name }),
                    `Deleted ${g.name}.`,
                  )
                }
              >
                Delete
              </RowAction>
              {open === g.name && (
                <div className="nested">
                  <h3 className="nested-title">Members</h3>
                  <ul className="plain" aria-label={`Members of ${g.name}`}>
                    {(members.data ?? []).map((u) => (
                      <li key={u.login}>
                        {u.fullName} ({u.login}){' '}
                        <RowAction
                          label={`Remove ${u.login} from ${g.name}`}
                          onClick={() =>
                            void run(
                              () => trackline.groups.removeUser.mutate({ login: u.login, group: g.name }),
                              `${u.login} left ${g.name}.`,
                            )
                          }
                        >
                          Remove
                        </RowAction>
                      </li>
                    ))}
                    {members.data?.length === 0 && <li className="muted">No members.</li>}
                  </ul>
                  {members.data?.length === 10 && <p className="muted small">The first ten members.</p>}
                  <OneFieldForm
                    label="Add member (login)"
                    button="Add member"
                    submit={(login) =>
                      run(
                        () => trackline.groups.addUser.mutate({ login, group: g.name }),
                        `${login} joined ${g.name}.`,
                      )
                    }
                  />
                  <h3 className="nested-title">Roles</h3>
                  <RoleGrants
                    holder={g.name}
                    held={groupRoles.data ?? []}
                    revoke={(role) =>
                      void run(() => trackline.groups.revokeRole.mutate({ group: g.name, role }))
                    }
                    grant={(role, project) =>
                      void run(
                        () =>
                          trackline.groups.grantRole.mutate({
                            group: g.name,
                            role,
                            ...(project ? { project } : {}),
                          }),
                        `Granted ${role} to ${g.name}.`,
                      )
                    }
                  />
                </div>
              )}
            </li>
          ))}
        </ul>
      </Panel>
      <Panel title="New group">
        <OneFieldForm
          label="Name"
          button="Create group"
          primary
          submit={(name) => run(() => trackline.groups.create.mutate({ group: name }), `Created ${name}.`)}
        />
      </Panel>
      {feedback}
    </>
  );
}

/** Roles and their permissions (add and remove), and new roles. */
export function RolesAdmin() {
  const key = ['roles'] as const;
  const roles = useQuery({ queryKey: key, queryFn: () => trackline.roles.list.query({}) });
  const permissions = useQuery({
    queryKey: [...key, 'all-permissions'],
    queryFn: () => trackline.roles.allPermissions.query({}),
  });
  const [open, setOpen] = useState<string | null>(null);
  const held = useQuery({
    queryKey: [...key, 'permissions', open],
    queryFn: () => trackline.roles.permissions.query({ role: open as string }),
    enabled: open !== null,
  });
  const { run, feedback } = useAction(key);
  const heldNames = new Set((held.data ?? []).map((p) => p.name));
  return (
    <>
      <h1>Roles</h1>
      <Panel title="All roles">
        <ul className="plain">
          {(roles.data ?? []).map((r) => (
            <li key={r.name}>
              <Disclosure open={open === r.name} onToggle={() => setOpen(open === r.name ? null : r.name)}>
                {r.name}
              </Disclosure>
              {open === r.name && (
                <fieldset className="permissions">
                  <legend>Permissions of {r.name}</legend>
                  {(permissions.data ?? []).map((p) => (
                    <label key={p.name} className="checkbox">
                      <input
                        type="checkbox"
                        checked={heldNames.has(p.name)}
                        onChange={(e) =>
                          void run(() =>
                            e.target.checked
                              ? trackline.roles.addPermission.mutate({ role: r.name, permission: p.name })
                              : trackline.roles.removePermission.mutate({ role: r.name, permission: p.name }),
                          )
                        }
                      />{' '}
                      {p.description}
                    </label>
                  ))}
                </fieldset>
              )}
            </li>
          ))}
        </ul>
      </Panel>
      <Panel title="New role">
        <OneFieldForm
          label="Name"
          button="Create role"
          primary
          submit={(name) => run(() => trackline.roles.create.mutate({ role: name }), `Created ${name}.`)}
        />
      </Panel>
      {feedback}
    </>
  );
}
