import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { trackline } from '../../api';
import { CreateForm, Field, Panel, RowAction, TableHead, useAction, useForm } from './common';

/** Link types: their phrases in both directions, create and delete. */
export function LinkTypesAdmin() {
  const key = ['admin-link-types'] as const;
  const types = useQuery({ queryKey: key, queryFn: () => trackline.linkTypes.list.query({}) });
  const { run, ask, feedback } = useAction(key);
  const { form, setForm, bind, reset } = useForm({
    name: '',
    outwardName: '',
    inwardName: '',
    directed: true,
  });
  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (
      await run(
        () => trackline.linkTypes.create.mutate({ ...form, inwardName: form.inwardName || form.outwardName }),
        `Created ${form.name}.`,
      )
    )
      reset();
  };
  return (
    <>
      <h1>Link types</h1>
      <Panel title="All link types">
        <table className="table">
          <TableHead columns={['Name', 'Outward', 'Inward', 'Directed']} />
          <tbody>
            {(types.data ?? []).map((t) => (
              <tr key={t.name}>
                <td>{t.name}</td>
                <td>{t.outwardName}</td>
                <td>{t.inwardName}</td>
                <td>{t.directed ? 'yes' : 'no'}</td>
                <td>
                  <RowAction
                    label={`Delete link type ${t.name}`}
                    onClick={() =>
                      void ask(
                        {
                          title: `Delete the link type ${t.name}?`,
                          body: (
                            <p>
                              Every link of this type (“{t.outwardName}” / “{t.inwardName}”) is removed from
                              the issues. This cannot be undone.
                            </p>
                          ),
                          action: 'Delete link type',
                        },
                        () => trackline.linkTypes.delete.mutate({ name: t.name }),
                        `Deleted ${t.name}.`,
                      )
                    }
                  >
                    Delete
                  </RowAction>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Panel>
      <CreateForm title="New link type" button="Create link type" onSubmit={create}>
        <Field label="Name">
          <input {...bind('name')} required />
        </Field>
        <Field label="Outward phrase">
          <input {...bind('outwardName')} required placeholder="blocks" />
        </Field>
        <Field label="Inward phrase">
          <input {...bind('inwardName')} placeholder="is blocked by" />
        </Field>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={form.directed}
            onChange={(e) => setForm({ ...form, directed: e.target.checked })}
          />{' '}
          Directed
        </label>
      </CreateForm>
      {feedback}
    </>
  );
}
