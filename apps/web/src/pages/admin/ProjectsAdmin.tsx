import { useQuery } from '@tanstack/react-query';
import type { Me } from '@trackline/client';
import type { FormEvent } from 'react';
import { trackline } from '../../api';
import { formatTime } from '../../components/IssueRow';
import { Link } from '../../lib/router';
import { CreateForm, Field, Panel, RowAction, TableHead, useAction, useForm } from './common';

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
  const { run, ask, feedback } = useAction(PROJECTS);
  const { form, bind, reset } = useForm({ project: '', projectName: '', description: '', lead: me.login });
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
    if (ok) reset();
  };
  return (
    <>
      <h1>Projects</h1>
      <Panel title="All projects">
        <table className="table">
          <TableHead columns={['Short name', 'Name', 'Description']} />
          <tbody>
            {(projects.data ?? []).map((p) => (
              <tr key={p.shortName}>
                <td>
                  <Link href={`/admin/projects/${p.shortName}`}>{p.shortName}</Link>
                </td>
                <td>{p.name}</td>
                <td>{p.description}</td>
                <td>
                  <RowAction
                    label={`Move to trash: ${p.shortName}`}
                    onClick={() =>
                      void ask(
                        {
                          title: `Move ${p.shortName} to the trash?`,
                          body: (
                            <p>
                              {p.name} ({p.shortName}) and its issues leave every list and search. It can be
                              restored from the trash below until it is purged.
                            </p>
                          ),
                          action: 'Move to trash',
                        },
                        () => trackline.projects.delete.mutate({ project: p.shortName }),
                        `${p.shortName} is in the trash.`,
                      )
                    }
                  >
                    Move to trash
                  </RowAction>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Panel>
      <CreateForm title="New project" button="Create project" onSubmit={create}>
        <Field label="Short name">
          <input
            {...bind('project', (text) => text.toUpperCase())}
            required
            pattern="[A-Za-z][A-Za-z0-9_]*"
            title="Letters, digits and _, starting with a letter"
          />
        </Field>
        <Field label="Name">
          <input {...bind('projectName')} required />
        </Field>
        <Field label="Lead (login)">
          <input {...bind('lead')} required />
        </Field>
        <Field label="Description" wide>
          <input {...bind('description')} />
        </Field>
      </CreateForm>
      {feedback}
      {trash.data && (
        <Panel title="Trash">
          {trash.data.length === 0 ? (
            <p className="muted">The trash is empty.</p>
          ) : (
            <table className="table">
              <TableHead columns={['Project', 'Issues', 'Deleted', 'Purged after']} />
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
                          void ask(
                            {
                              title: `Purge ${p.id} for good?`,
                              body: (
                                <p>
                                  {p.name} ({p.id}) and its {p.issues} issues are deleted with their comments,
                                  attachments and history. This cannot be undone.
                                </p>
                              ),
                              action: 'Purge',
                            },
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
