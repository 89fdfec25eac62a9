import { useQuery } from '@tanstack/react-query';
import type { FieldOptions, IssueFieldView, IssueView } from '@trackline/client';
import { type FormEvent, useState } from 'react';
import { messageOf, trackline } from '../api';
import { keys } from '../lib/queries';
import { quoteValue } from '../lib/segments';
import { Chip } from './Chip';

type Options = FieldOptions[number];

/** The id of a field's name in the panel (ids may not hold spaces: `Due date`). */
const labelId = (field: { name: string }) => `field-${field.name.replace(/[^A-Za-z0-9_-]+/g, '-')}`;

/** `YYYY-MM-DD` of a date field's value (milliseconds, UTC as the server stores dates). */
const isoDay = (ms: string) => {
  const n = Number(ms);
  return ms !== '' && Number.isFinite(n) ? new Date(n).toISOString().slice(0, 10) : '';
};

/** The command that sets (or for multi-value fields adds/removes) one value. */
const setCommand = (field: IssueFieldView, value: string) => `${field.name} ${quoteValue(value)}`;

/**
 * The issue's fields, each with its value as a coloured chip and a picker of the values its
 * project's bundle offers (users by full name), or a text box for simple fields. A change is the
 * command `<Field> <value>` applied to this issue: one writer of field values, the same checks.
 */
export function FieldsPanel({
  issue,
  onChanged,
  readOnly,
}: {
  issue: IssueView;
  onChanged(issues: IssueView[]): void;
  /** Why the caller may not change fields (the pickers are disabled and point at it); null: they may. */
  readOnly: string | null;
}) {
  const options = useQuery({
    queryKey: keys.fieldOptions(issue.project.shortName),
    queryFn: () => trackline.projects.fieldOptions.query({ project: issue.project.shortName }),
    staleTime: 60_000,
  });
  const [error, setError] = useState('');
  const run = async (command: string) => {
    setError('');
    try {
      const { issues } = await trackline.commands.execute.mutate({ issues: [issue.id], command });
      onChanged(issues);
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <aside className="fields-panel" aria-label="Fields" id="fields" tabIndex={-1}>
      <h2 className="visually-hidden">Fields</h2>
      {readOnly && (
        <p className="muted small" id="fields-read-only">
          {readOnly}
        </p>
      )}
      <dl>
        {issue.fields.map((field) => {
          const opts = options.data?.find((o) => o.name === field.name);
          return (
            <div key={field.name} className="field-row">
              <dt id={labelId(field)}>{field.name}</dt>
              <dd>
                <FieldEditor field={field} options={opts} run={run} disabled={readOnly !== null} />
              </dd>
            </div>
          );
        })}
      </dl>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </aside>
  );
}

/** What a disabled picker points at: the panel's read-only reason. */
const READ_ONLY = { disabled: true, 'aria-describedby': 'fields-read-only' } as const;

function FieldEditor({
  field,
  options,
  run,
  disabled,
}: {
  field: IssueFieldView;
  options: Options | undefined;
  run(command: string): Promise<void>;
  disabled: boolean;
}) {
  const lock = disabled ? READ_ONLY : {};
  const simple = ['string', 'text', 'integer', 'float', 'date', 'period'].includes(field.kind);
  if (simple) return <SimpleFieldEditor field={field} run={run} lock={lock} />;
  const values = (options?.values ?? []).filter(
    (v) => !v.archived || field.values.some((fv) => fv.name === v.name),
  );
  const label = (v: Options['values'][number]) => (v.fullName ? `${v.fullName} (${v.name})` : v.name);
  if (field.multi) {
    const held = new Set(field.values.map((v) => v.name));
    return (
      <div className="multi-field">
        {field.values.length === 0 && <Chip empty={field.emptyText} />}
        {field.values.map((v) => (
          <span key={v.name} className="multi-value">
            <Chip value={v} />
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove ${v.name} from ${field.name}`}
              {...lock}
              onClick={() => void run(`remove ${setCommand(field, v.name)}`)}
            >
              ×
            </button>
          </span>
        ))}
        <select
          aria-label={`Add to ${field.name}`}
          {...lock}
          value=""
          onChange={(e) => {
            if (e.target.value) void run(`add ${setCommand(field, e.target.value)}`);
          }}
        >
          <option value="">Add…</option>
          {values
            .filter((v) => !held.has(v.name))
            .map((v) => (
              <option key={v.name} value={v.name}>
                {label(v)}
              </option>
            ))}
        </select>
      </div>
    );
  }
  const current = field.values[0];
  const empty = field.emptyText ?? '';
  return (
    <div className="single-field">
      <Chip value={current} empty={field.emptyText} />
      <select
        aria-labelledby={labelId(field)}
        {...lock}
        value={current?.name ?? ''}
        onChange={(e) => void run(setCommand(field, e.target.value || empty))}
      >
        {(!current || field.emptyText !== null) && <option value="">{field.emptyText ?? '—'}</option>}
        {values.map((v) => (
          <option key={v.name} value={v.name}>
            {label(v)}
          </option>
        ))}
      </select>
    </div>
  );
}

function SimpleFieldEditor({
  field,
  run,
  lock,
}: {
  field: IssueFieldView;
  run(command: string): Promise<void>;
  lock: typeof READ_ONLY | Record<string, never>;
}) {
  const date = field.kind === 'date';
  const current = date ? isoDay(field.values[0]?.name ?? '') : (field.values[0]?.name ?? '');
  const [text, setText] = useState(current);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(setCommand(field, text.trim() || (field.emptyText ?? '')));
  };
  return (
    <form className="simple-field" onSubmit={submit}>
      <input
        aria-labelledby={labelId(field)}
        {...lock}
        type={date ? 'date' : 'text'}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={field.emptyText ?? ''}
        size={10}
      />
      {text !== current && (
        <button type="submit" className="small-button" aria-label={`Set ${field.name}`}>
          Set
        </button>
      )}
    </form>
  );
}
