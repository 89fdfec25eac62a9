import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { trackline } from '../../api';
import { Panel, useAction } from './common';

/** Groups: create, delete, and the roles each holds (globally or per project). */
export function GroupsAdmin() {
  const key = ['admin-groups'] as const;
  const groups = useQuery({ queryKey: [...key, 'list'], queryFn: () => trackline.groups.list.query({}) });
  const roles = useQuery({
    queryKey: ['roles'],
    queryFn: () => trackline.roles.list.query({}),
    retry: false,
  });
  const { run, feedback } = useAction(key);
  const [name, setName] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const [grant, setGrant] = useState({ role: 'Developer', project: '' });
  const groupRoles = useQuery({
    queryKey: [...key, 'roles', open],
    queryFn: () => trackline.groups.roles.query({ group: open as string }),
    enabled: open !== null,
  });
  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (await run(() => trackline.groups.create.mutate({ group: name }), `Created ${name}.`)) setName('');
  };
  return (
    <>
      <h1>Groups</h1>
      <Panel title="All groups">
        <ul className="plain">
          {(groups.data ?? []).map((g) => (
            <li key={g.name}>
              <button
                type="button"
                className="link-button"
                aria-expanded={open === g.name}
                onClick={() => setOpen(open === g.name ? null : g.name)}
              >
                {g.name}
              </button>{' '}
              <button
                type="button"
                className="link-button danger"
                aria-label={`Delete group ${g.name}`}
                onClick={() =>
                  void run(() => trackline.groups.delete.mutate({ group: g.name }), `Deleted ${g.name}.`)
                }
              >
                Delete
              </button>
              {open === g.name && (
                <div className="nested">
                  <ul className="plain">
                    {(groupRoles.data ?? []).map((r) => (
                      <li key={r.name}>
                        {r.name}:{' '}
                        {r.projects.length === 0 ? 'everywhere' : r.projects.map((p) => p.id).join(', ')}{' '}
                        <button
                          type="button"
                          className="link-button danger"
                          aria-label={`Revoke ${r.name} from ${g.name}`}
                          onClick={() =>
                            void run(() =>
                              trackline.groups.revokeRole.mutate({ group: g.name, role: r.name }),
                            )
                          }
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
                          trackline.groups.grantRole.mutate({
                            group: g.name,
                            role: grant.role,
                            ...(grant.project ? { project: grant.project } : {}),
                          }),
                        `Granted ${grant.role} to ${g.name}.`,
                      );
                    }}
                  >
                    <label className="field inline">
                      <span>Role</span>
                      <select
                        value={grant.role}
                        onChange={(e) => setGrant({ ...grant, role: e.target.value })}
                      >
                        {(roles.data ?? [{ name: 'Developer' }]).map((r) => (
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
                </div>
              )}
            </li>
          ))}
        </ul>
      </Panel>
      <Panel title="New group">
        <form className="row" onSubmit={create}>
          <label className="field inline">
            <span>Name</span>
            <input value={name} onChange={(e) => setName(e.target.value)} required />
          </label>
          <button type="submit" className="primary">
            Create group
          </button>
        </form>
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
  const [name, setName] = useState('');
  const heldNames = new Set((held.data ?? []).map((p) => p.name));
  return (
    <>
      <h1>Roles</h1>
      <Panel title="All roles">
        <ul className="plain">
          {(roles.data ?? []).map((r) => (
            <li key={r.name}>
              <button
                type="button"
                className="link-button"
                aria-expanded={open === r.name}
                onClick={() => setOpen(open === r.name ? null : r.name)}
              >
                {r.name}
              </button>
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
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            void run(() => trackline.roles.create.mutate({ role: name }), `Created ${name}.`).then(
              (ok) => ok && setName(''),
            );
          }}
        >
          <label className="field inline">
            <span>Name</span>
            <input value={name} onChange={(e) => setName(e.target.value)} required />
          </label>
          <button type="submit" className="primary">
            Create role
          </button>
        </form>
      </Panel>
      {feedback}
    </>
  );
}
