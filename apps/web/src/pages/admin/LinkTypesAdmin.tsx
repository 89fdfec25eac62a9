import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { trackline } from '../../api';
import { Panel, useAction } from './common';

/** Link types: their phrases in both directions, create and delete. */
export function LinkTypesAdmin() {
  const key = ['admin-link-types'] as const;
  const types = useQuery({ queryKey: key, queryFn: () => trackline.linkTypes.list.query({}) });
  const { run, feedback } = useAction(key);
  const empty = { name: '', outwardName: '', inwardName: '', directed: true };
  const [form, setForm] = useState(empty);
  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (
      await run(
        () => trackline.linkTypes.create.mutate({ ...form, inwardName: form.inwardName || form.outwardName }),
        `Created ${form.name}.`,
      )
    )
      setForm(empty);
  };
  return (
    <>
      <h1>Link types</h1>
      <Panel title="All link types">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Outward</th>
              <th scope="col">Inward</th>
              <th scope="col">Directed</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(types.data ?? []).map((t) => (
              <tr key={t.name}>
                <td>{t.name}</td>
                <td>{t.outwardName}</td>
                <td>{t.inwardName}</td>
                <td>{t.directed ? 'yes' : 'no'}</td>
                <td>
                  <button
                    type="button"
                    className="link-button danger"
                    aria-label={`Delete link type ${t.name}`}
                    onClick={() =>
                      void run(
                        () => trackline.linkTypes.delete.mutate({ name: t.name }),
                        `Deleted ${t.name}.`,
                      )
                    }
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Panel>
      <Panel title="New link type">
        <form className="form grid" onSubmit={create}>
          <label className="field">
            <span>Name</span>
            <input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} required />
          </label>
          <label className="field">
            <span>Outward phrase</span>
            <input
              value={form.outwardName}
              onChange={(e) => setForm({ ...form, outwardName: e.target.value })}
              required
              placeholder="blocks"
            />
          </label>
          <label className="field">
            <span>Inward phrase</span>
            <input
              value={form.inwardName}
              onChange={(e) => setForm({ ...form, inwardName: e.target.value })}
              placeholder="is blocked by"
            />
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={form.directed}
              onChange={(e) => setForm({ ...form, directed: e.target.checked })}
            />{' '}
            Directed
          </label>
          <div className="actions">
            <button type="submit" className="primary">
              Create link type
            </button>
          </div>
        </form>
      </Panel>
      {feedback}
    </>
  );
}
