import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { trackline } from '../../api';
import { Link } from '../../lib/router';
import { BundleEditor, bundleTypeOf } from './BundleEditor';
import { Field, OneFieldForm, Panel, RoleSelect, RowAction, TableHead, useAction } from './common';

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
  const { run, ask, feedback } = useAction(key);
  const grants = useQuery({
    queryKey: [...key, 'grants'],
    queryFn: () => trackline.projects.grants.query({ project }),
    retry: false,
  });
  const prototypes = useQuery({
    queryKey: ['admin-fields', 'prototype-names'],
    queryFn: () => trackline.customFields.listPrototypes.query({}),
    retry: false,
  });
  const tracking = useQuery({
    queryKey: [...key, 'time-tracking'],
    queryFn: () => trackline.timeTracking.projectSettings.query({ project }),
    retry: false,
  });
  const attached = new Set((fields.data ?? []).map((f) => f.name));
  const addable = (prototypes.data ?? []).filter((p) => !attached.has(p.name));
  const [adding, setAdding] = useState('');
  const [trackTime, setTrackTime] = useState<boolean | null>(null);
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
              <RowAction
                label={`Remove ${f.name} from ${project}`}
                onClick={() =>
                  void ask(
                    {
                      title: `Remove ${f.name} from ${project}?`,
                      body: (
                        <p>
                          The issues of {project} lose their {f.name} values. The field stays for other
                          projects and can be attached again, empty. This cannot be undone.
                        </p>
                      ),
                      action: 'Remove field',
                    },
                    () => trackline.customFields.detachProjectField.mutate({ project, name: f.name }),
                    `Removed ${f.name} from ${project}.`,
                  )
                }
              >
                Remove {f.name} from {project}
              </RowAction>
            </details>
          );
        })}
      </Panel>
      {addable.length > 0 && (
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            const name = adding || (addable[0]?.name ?? '');
            void run(
              () => trackline.customFields.attachProjectField.mutate({ project, name }),
              `Attached ${name} to ${project}.`,
            ).then((ok) => ok && setAdding(''));
          }}
        >
          <Field label="Add a field" inline>
            <select value={adding || (addable[0]?.name ?? '')} onChange={(e) => setAdding(e.target.value)}>
              {addable.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name}
                </option>
              ))}
            </select>
          </Field>
          <button type="submit">Add field</button>
        </form>
      )}
      <Panel title="Assignees">
        <ul className="plain">
          {(assignees.data ?? []).map((a) => (
            <li key={a.login}>
              {a.fullName} ({a.login}){a.isFromGroup && <span className="muted"> from a group</span>}{' '}
              {!a.isFromGroup && (
                <RowAction
                  label={`Remove ${a.login} from the assignees`}
                  onClick={() =>
                    void run(() =>
                      trackline.projectBundles.removeAssignee.mutate({ project, login: a.login }),
                    )
                  }
                >
                  Remove
                </RowAction>
              )}
            </li>
          ))}
        </ul>
        <OneFieldForm
          label="Add assignee (login)"
          button="Add"
          submit={(login) =>
            run(
              () => trackline.projectBundles.addAssignee.mutate({ project, login }),
              `${login} is an assignee.`,
            )
          }
        />
      </Panel>
      <Panel title="Roles in this project">
        {grants.data && (
          <table className="table">
            <caption>Roles held in {project}</caption>
            <TableHead columns={['Who', 'Role', 'Where']} />
            <tbody>
              {grants.data.map((g) => (
                <tr key={`${g.holder.kind}|${g.holder.name}|${g.role}|${g.scope}`}>
                  <td>
                    {g.holder.kind === 'group'
                      ? `Group ${g.holder.name}`
                      : `${g.holder.fullName} (${g.holder.name})`}
                  </td>
                  <td>{g.role}</td>
                  <td>{g.scope === 'project' ? `in ${project}` : 'everywhere'}</td>
                  <td>
                    {g.scope === 'project' && (
                      <RowAction
                        label={`Revoke ${g.role} in ${project} from ${g.holder.name}`}
                        onClick={() =>
                          void ask(
                            {
                              title: `Revoke ${g.role} in ${project} from ${g.holder.name}?`,
                              body: (
                                <p>
                                  {g.holder.kind === 'group' ? 'The members of the group' : g.holder.fullName}{' '}
                                  lose what the role gave them in {project}. It can be granted again.
                                </p>
                              ),
                              action: 'Revoke',
                            },
                            () =>
                              g.holder.kind === 'user'
                                ? trackline.users.revokeRole.mutate({
                                    login: g.holder.name,
                                    role: g.role,
                                    project,
                                  })
                                : trackline.groups.revokeRole.mutate({
                                    group: g.holder.name,
                                    role: g.role,
                                    project,
                                  }),
                            `Revoked ${g.role} in ${project} from ${g.holder.name}.`,
                          )
                        }
                      >
                        Revoke
                      </RowAction>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {users.data && (
          <p className="muted small">
            Users with access: {users.data.map((u) => u.login).join(', ') || 'none'}
            {users.data.length === 10 && ' (first page)'}
          </p>
        )}
        <form className="row" onSubmit={grantRole}>
          <Field label="Grant to" inline>
            <select
              value={grant.who}
              onChange={(e) => setGrant({ ...grant, who: e.target.value as 'user' | 'group' })}
            >
              <option value="user">User</option>
              <option value="group">Group</option>
            </select>
          </Field>
          <Field label={grant.who === 'user' ? 'Login' : 'Group name'} inline>
            <input
              value={grant.name}
              onChange={(e) => setGrant({ ...grant, name: e.target.value })}
              required
            />
          </Field>
          <Field label="Role" inline>
            <RoleSelect value={grant.role} onChange={(role) => setGrant({ ...grant, role })} />
          </Field>
          <button type="submit">Grant</button>
        </form>
      </Panel>
      {tracking.data && (
        <Panel title="Time tracking">
          <label className="checkbox">
            <input
              type="checkbox"
              // Shown as chosen at once; the server's answer follows (and a refusal puts it back).
              checked={trackTime ?? tracking.data.enabled}
              onChange={(e) => {
                const enabled = e.target.checked;
                setTrackTime(enabled);
                void run(
                  () => trackline.timeTracking.setProjectSettings.mutate({ project, enabled }),
                  enabled ? `Time is tracked in ${project}.` : `Time tracking is off in ${project}.`,
                ).then(() => setTrackTime(null));
              }}
            />{' '}
            Track time in {project}
          </label>
          <p className="muted small">Work items (spent time) can be added to its issues while this is on.</p>
        </Panel>
      )}
      {feedback}
    </>
  );
}
