import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, type FormEvent, type ReactNode, useState } from 'react';
import { messageOf, trackline } from '../../api';
import { type ConfirmRequest, useConfirm } from '../../components/Confirm';

/**
 * Runs a change, shows its error, and refreshes the queries under `refresh` afterwards. `ask`
 * runs it only after a confirmation (every delete: it names what goes and whether it comes back).
 */
export function useAction(refresh: readonly unknown[]) {
  const client = useQueryClient();
  const [error, setError] = useState('');
  const [done, setDone] = useState('');
  const { confirm, dialog } = useConfirm();
  const run = async (work: () => Promise<unknown>, message = '') => {
    setError('');
    setDone('');
    try {
      await work();
      await client.invalidateQueries({ queryKey: refresh });
      setDone(message);
      return true;
    } catch (e) {
      setError(messageOf(e));
      return false;
    }
  };
  const ask = async (request: ConfirmRequest, work: () => Promise<unknown>, message = '') =>
    (await confirm(request)) ? run(work, message) : false;
  const feedback = (
    <>
      {dialog}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <p className="done" role="status">
        {done}
      </p>
    </>
  );
  return { run, ask, feedback };
}

export function Panel({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  const headingId = id ?? `panel-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}

/** A labelled control: the label's text, then the field (`inline`: beside it; `wide`: a whole grid row). */
export function Field(props: { label: ReactNode; inline?: boolean; wide?: boolean; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is `children`, inside the label
    <label className={`field${props.inline ? ' inline' : ''}${props.wide ? ' wide' : ''}`}>
      <span>{props.label}</span>
      {props.children}
    </label>
  );
}

type TextKeys<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T];

/**
 * The state of a form of text fields: `bind('name')` is a text input's (or select's) value and
 * change handler (`as` rewrites what is typed, e.g. to upper case); `reset` empties the form.
 */
export function useForm<T extends object>(empty: T) {
  const [form, setForm] = useState(empty);
  const bind = (name: TextKeys<T>, as: (text: string) => string = (text) => text) => ({
    value: form[name] as string,
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
      setForm((f) => ({ ...f, [name]: as(e.target.value) })),
  });
  return { form, setForm, bind, reset: () => setForm(empty) };
}

/** A panel with a form creating something: its fields (`children`), then the submit button. */
export function CreateForm(props: {
  title: string;
  button: string;
  onSubmit(event: FormEvent): void;
  children: ReactNode;
}) {
  return (
    <Panel title={props.title}>
      <form className="form grid" onSubmit={props.onSubmit}>
        {props.children}
        <div className="actions">
          <button type="submit" className="primary">
            {props.button}
          </button>
        </div>
      </form>
    </Panel>
  );
}

/** A small action on one row of a list or table (Delete, Remove, Revoke): a link-styled button. */
export function RowAction(props: { label: string; onClick(): void; danger?: boolean; children: ReactNode }) {
  return (
    <button
      type="button"
      className={props.danger === false ? 'link-button' : 'link-button danger'}
      aria-label={props.label}
      onClick={props.onClick}
    >
      {props.children}
    </button>
  );
}

/** A name that opens and closes what is nested under it (a group's roles, an integration's log). */
export function Disclosure(props: { open: boolean; onToggle(): void; children: ReactNode }) {
  return (
    <button type="button" className="link-button" aria-expanded={props.open} onClick={props.onToggle}>
      {props.children}
    </button>
  );
}

/** A table's head: its columns (false: not shown), then an Actions column named for screen readers. */
export function TableHead({ columns }: { columns: readonly (string | false)[] }) {
  return (
    <thead>
      <tr>
        {columns.map(
          (c) =>
            c && (
              <th key={c} scope="col">
                {c}
              </th>
            ),
        )}
        <th scope="col">
          <span className="visually-hidden">Actions</span>
        </th>
      </tr>
    </thead>
  );
}

/**
 * One text field and its button (a new group or role, an assignee, a group to join): `submit`
 * answers whether the change was made, and the field is emptied when it was.
 */
export function OneFieldForm(props: {
  label: string;
  button: string;
  primary?: boolean;
  submit(value: string): Promise<boolean>;
}) {
  const [value, setValue] = useState('');
  return (
    <form
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        void props.submit(value).then((ok) => ok && setValue(''));
      }}
    >
      <Field label={props.label} inline>
        <input value={value} onChange={(e) => setValue(e.target.value)} required />
      </Field>
      <button type="submit" className={props.primary ? 'primary' : undefined}>
        {props.button}
      </button>
    </form>
  );
}

/** A role picked from the roles the caller may list (Developer alone when they may not). */
export function RoleSelect(props: { value: string; onChange(role: string): void }) {
  const roles = useQuery({
    queryKey: ['roles'],
    queryFn: () => trackline.roles.list.query({}),
    retry: false,
  });
  return (
    <select value={props.value} onChange={(e) => props.onChange(e.target.value)}>
      {(roles.data ?? [{ name: 'Developer' }]).map((r) => (
        <option key={r.name} value={r.name}>
          {r.name}
        </option>
      ))}
    </select>
  );
}

/**
 * The roles a user or a group holds (everywhere, or in the projects named), each revocable, and
 * a form granting one, everywhere or in one project.
 */
export function RoleGrants(props: {
  holder: string;
  held: readonly { name: string; projects: readonly { id: string }[] }[];
  revoke(role: string): void;
  grant(role: string, project: string): void;
}) {
  const [grant, setGrant] = useState({ role: 'Developer', project: '' });
  return (
    <>
      <ul className="plain">
        {props.held.map((r) => (
          <li key={r.name}>
            {r.name}: {r.projects.length === 0 ? 'everywhere' : r.projects.map((p) => p.id).join(', ')}{' '}
            <RowAction label={`Revoke ${r.name} from ${props.holder}`} onClick={() => props.revoke(r.name)}>
              Revoke
            </RowAction>
          </li>
        ))}
      </ul>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          props.grant(grant.role, grant.project);
        }}
      >
        <Field label="Role" inline>
          <RoleSelect value={grant.role} onChange={(role) => setGrant({ ...grant, role })} />
        </Field>
        <Field label="In project (empty: everywhere)" inline>
          <input
            value={grant.project}
            onChange={(e) => setGrant({ ...grant, project: e.target.value })}
            size={8}
          />
        </Field>
        <button type="submit">Grant</button>
      </form>
    </>
  );
}

/** The original's colour indices (0: none) as the server paints them. */
export const PALETTE = [
  { bg: '#ffffff', fg: '#444444', name: 'No colour' },
  { bg: '#8d5100', fg: '#ffffff', name: 'Brown' },
  { bg: '#ce6700', fg: '#ffffff', name: 'Orange' },
  { bg: '#409600', fg: '#ffffff', name: 'Green' },
  { bg: '#0070e4', fg: '#ffffff', name: 'Blue' },
  { bg: '#900052', fg: '#ffffff', name: 'Plum' },
  { bg: '#0050a1', fg: '#ffffff', name: 'Navy' },
  { bg: '#2f9890', fg: '#ffffff', name: 'Teal' },
  { bg: '#8e1600', fg: '#ffffff', name: 'Red' },
  { bg: '#dc0083', fg: '#ffffff', name: 'Magenta' },
  { bg: '#7dbd36', fg: '#ffffff', name: 'Lime' },
  { bg: '#ff7123', fg: '#ffffff', name: 'Tangerine' },
];
