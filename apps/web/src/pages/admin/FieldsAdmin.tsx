import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { trackline } from '../../api';
import { BundleEditor, type BundleType } from './BundleEditor';
import { CreateForm, Field, Panel, TableHead, useAction, useForm } from './common';

const TYPES: { type: BundleType; title: string }[] = [
  { type: 'bundle', title: 'Enumerations' },
  { type: 'stateBundle', title: 'States' },
  { type: 'versionBundle', title: 'Versions' },
  { type: 'ownedFieldBundle', title: 'Owned fields (subsystems)' },
  { type: 'buildBundle', title: 'Builds' },
];

/** The field types a new field may have (the original's names: `[1]` one value, `[*]` several). */
export const FIELD_TYPES: { type: string; title: string }[] = [
  { type: 'enum[1]', title: 'Enumeration, one value' },
  { type: 'enum[*]', title: 'Enumeration, several values' },
  { type: 'state[1]', title: 'State' },
  { type: 'user[1]', title: 'User, one' },
  { type: 'user[*]', title: 'Users, several' },
  { type: 'version[1]', title: 'Version, one' },
  { type: 'version[*]', title: 'Versions, several' },
  { type: 'build[1]', title: 'Build' },
  { type: 'ownedField[1]', title: 'Owned field (subsystem)' },
  { type: 'string', title: 'Text, one line' },
  { type: 'text', title: 'Text, several lines' },
  { type: 'integer', title: 'Whole number' },
  { type: 'float', title: 'Number' },
  { type: 'date', title: 'Date' },
  { type: 'period', title: 'Period (1w 2d 3h)' },
];

const FIELDS = ['admin-fields'] as const;

/** Fields: create one, attach one to a project, and every bundle by type with its values. */
export function FieldsAdmin() {
  const prototypes = useQuery({
    queryKey: [...FIELDS, 'prototypes'],
    queryFn: async () => {
      const list = await trackline.customFields.listPrototypes.query({});
      // One call per field, batched into one request: the list names them, each answers its type.
      return Promise.all(list.map((p) => trackline.customFields.getPrototype.query({ name: p.name })));
    },
  });
  const projects = useQuery({
    queryKey: ['admin-projects', 'all'],
    queryFn: () => trackline.projects.all.query({}),
  });
  const [type, setType] = useState<BundleType>('bundle');
  const bundles = useQuery({
    queryKey: [...FIELDS, 'bundles', type],
    queryFn: () => trackline.bundles.list.query({ bundleType: type }),
  });
  const { run, feedback } = useAction(FIELDS);
  const { form, bind, reset } = useForm({ name: '', type: 'enum[1]', emptyFieldText: '' });
  const [attach, setAttach] = useState({ field: '', project: '' });
  const create = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await run(
      () =>
        trackline.customFields.createPrototype.mutate({
          name: form.name,
          type: form.type,
          ...(form.emptyFieldText ? { emptyFieldText: form.emptyFieldText } : {}),
        }),
      `Created the field ${form.name}.`,
    );
    if (ok) {
      setAttach((a) => ({ ...a, field: form.name }));
      reset();
    }
  };
  const field = attach.field || prototypes.data?.[0]?.name || '';
  const project = attach.project || projects.data?.[0]?.shortName || '';
  return (
    <>
      <h1>Fields</h1>
      <Panel title="All fields">
        <table className="table">
          <caption className="visually-hidden">Fields and their types</caption>
          <TableHead columns={['Field', 'Type']} />
          <tbody>
            {(prototypes.data ?? []).map((p) => (
              <tr key={p.name}>
                <td>{p.name}</td>
                <td>{p.type}</td>
                <td />
              </tr>
            ))}
          </tbody>
        </table>
      </Panel>
      <CreateForm title="New field" button="Create field" onSubmit={create}>
        <Field label="Name">
          <input {...bind('name')} required maxLength={100} />
        </Field>
        <Field label="Type">
          <select {...bind('type')}>
            {FIELD_TYPES.map((t) => (
              <option key={t.type} value={t.type}>
                {t.title} ({t.type})
              </option>
            ))}
          </select>
        </Field>
        <Field label="Text when empty (optional)">
          <input {...bind('emptyFieldText')} placeholder="No value" maxLength={100} />
        </Field>
      </CreateForm>
      <Panel title="Attach a field to a project">
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            void run(
              () => trackline.customFields.attachProjectField.mutate({ project, name: field }),
              `Attached ${field} to ${project}.`,
            );
          }}
        >
          <Field label="Field" inline>
            <select value={field} onChange={(e) => setAttach({ ...attach, field: e.target.value })}>
              {(prototypes.data ?? []).map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Project" inline>
            <select value={project} onChange={(e) => setAttach({ ...attach, project: e.target.value })}>
              {(projects.data ?? []).map((p) => (
                <option key={p.shortName} value={p.shortName}>
                  {p.name} ({p.shortName})
                </option>
              ))}
            </select>
          </Field>
          <button type="submit" className="primary" disabled={!field || !project}>
            Attach
          </button>
        </form>
      </Panel>
      {feedback}
      <Panel title="Bundles and values">
        <Field label="Kind" inline>
          <select value={type} onChange={(e) => setType(e.target.value as BundleType)}>
            {TYPES.map((t) => (
              <option key={t.type} value={t.type}>
                {t.title}
              </option>
            ))}
          </select>
        </Field>
        {(bundles.data ?? []).map((b) => (
          <details key={b.name} className="field-details">
            <summary>{b.name}</summary>
            <BundleEditor bundleType={type} bundle={b.name} />
          </details>
        ))}
      </Panel>
    </>
  );
}
