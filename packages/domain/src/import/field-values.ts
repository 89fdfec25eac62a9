import { DomainError } from '../errors.js';
import { addFieldValueRow, type FieldDef, fieldDefOf, type SlotValue } from '../issues/command-state.js';
import { resolveValueText } from '../issues/fields/resolve-value-text.js';
import type { ImportProblem } from '../issues/import-report.js';
import { tables } from '../model/database.js';
import { bulkInsert } from '../orm/bulk-insert.js';
import type { Em } from '../orm/em.js';
import { placeholders } from '../orm/sql-fragments.js';
import { runStatement } from '../orm/statements.js';
import { type Param, prepareRead, readQuery } from '../orm/typed-query.js';

/*
 * Issue field values for the import, on the data-driven field model (project fields with
 * bundles, simple typed values). A value's text is parsed by the same function commands use
 * (`resolveValueText`: bundle values by name, simple types by their syntax), so an import and a
 * command agree on what a text means; the writes are batched per request (no per-issue queries).
 * User fields differ on purpose: an unknown login becomes a placeholder and joins the field's
 * bundle (the original's "assignees are auto-imported") instead of being refused.
 */

type CatalogueField = FieldDef & {
  defaultKey: string | null;
  bundleId: number | null;
  /** The search keys of its rows (migration 0020): the field's prototype, its values' name keys. */
  fieldKey: number;
  valueKeys: Map<number, string>;
};

/** The fields of one project with their values, loaded once per import request. */
export type FieldCatalogue = Map<string, CatalogueField>;

const catalogueQuery = prepareRead((param: Param<{ projectId: number }>) =>
  tables
    .selectFrom('project_fields as pf')
    .leftJoin('field_values as fv', 'fv.bundle_id', 'pf.bundle_id')
    .select([
      'pf.id',
      'pf.custom_field_id',
      'pf.name',
      'pf.name_key',
      'pf.kind',
      'pf.multi',
      'pf.can_be_empty',
      'pf.empty_text',
      'pf.default_value',
      'pf.bundle_id',
      'fv.id as value_id',
      'fv.name as value_name',
      'fv.name_key as value_key',
      'fv.resolved',
    ])
    .where('pf.project_id', '=', param('projectId')),
);

export async function loadFieldCatalogue(tx: Em, projectId: number): Promise<FieldCatalogue> {
  const rows = await catalogueQuery.all(tx, { projectId });
  const fields: FieldCatalogue = new Map();
  for (const row of rows) {
    let field = fields.get(row.name_key);
    if (!field) {
      field = {
        ...fieldDefOf(row, projectId),
        defaultKey: row.default_value?.toLowerCase() ?? null,
        bundleId: row.bundle_id === null ? null : Number(row.bundle_id),
        fieldKey: Number(row.custom_field_id),
        valueKeys: new Map(),
      };
      fields.set(row.name_key, field);
    }
    addFieldValueRow(field, row);
    if (row.value_id !== null && row.value_key !== null)
      field.valueKeys.set(Number(row.value_id), row.value_key);
  }
  return fields;
}

/** What one issue's field says: slots already resolved, users by login (ids at write time). */
export type FieldAssignment = {
  fieldId: number;
  multi: boolean;
  /** A state field: its value decides whether the issue is resolved. */
  state: boolean;
  bundleId: number | null;
  values: { slot: number; content: SlotValue; resolved: boolean }[];
  logins: string[];
};

const NO_USERS = { userId: async () => null, allowed: undefined };

type Resolved = FieldAssignment | ImportProblem;
/**
 * What `resolveField` answered within one request: the outcome depends only on the field name,
 * the texts and the catalogue, and a request's issues repeat a handful of values. One text: by
 * name, then text (no key to build); several (a multi-value field): by their JSON. The answers
 * are shared between issues, so nobody may change them.
 */
export type FieldResolutions = { one: Map<string, Map<string, Resolved>>; several: Map<string, Resolved> };
export const newFieldResolutions = (): FieldResolutions => ({ one: new Map(), several: new Map() });

/**
 * Resolves one `<field name><value>…` of an import; unknown field or value → a problem. What
 * `resolutions` already holds is answered at once, without a promise (a request's issues repeat
 * a handful of values: no turn of the event loop per field value).
 */
export function resolveField(
  catalogue: FieldCatalogue,
  name: string,
  texts: string[],
  resolutions?: FieldResolutions,
): Resolved | Promise<Resolved> {
  if (!resolutions) return resolveFieldOnce(catalogue, name, texts);
  let memo: Map<string, Resolved>;
  let key: string;
  if (texts.length === 1) {
    key = texts[0] as string;
    let byText = resolutions.one.get(name);
    if (byText === undefined) {
      byText = new Map();
      resolutions.one.set(name, byText);
    }
    memo = byText;
  } else {
    key = JSON.stringify([name, texts]);
    memo = resolutions.several;
  }
  const known = memo.get(key);
  if (known) return known;
  return resolveFieldOnce(catalogue, name, texts).then((resolved) => {
    memo.set(key, resolved);
    return resolved;
  });
}

async function resolveFieldOnce(
  catalogue: FieldCatalogue,
  name: string,
  texts: string[],
): Promise<FieldAssignment | ImportProblem> {
  const field = catalogue.get(name.trim().toLowerCase());
  if (!field) return { message: `unknown field [ ${name} ] in this project`, fieldName: name };
  const empty = field.emptyText?.toLowerCase();
  const given = texts.filter((t) => t.trim() && t.trim().toLowerCase() !== empty);
  // The original takes the first value of a single-value field.
  const chosen = field.multi ? [...new Set(given)] : given.slice(0, 1);
  const assignment: FieldAssignment = {
    fieldId: field.id,
    multi: field.multi,
    state: field.kind === 'state',
    bundleId: field.bundleId,
    values: [],
    logins: [],
  };
  for (const text of chosen) {
    if (field.kind === 'user') {
      assignment.logins.push(text.trim());
      continue;
    }
    try {
      const resolved = await resolveValueText(field, text, NO_USERS);
      if (!resolved) continue;
      const value =
        resolved.content.value === null ? undefined : field.valuesById.get(resolved.content.value);
      assignment.values.push({ ...resolved, resolved: value?.resolved ?? false });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const message = error.issues?.[0]?.message ?? error.message;
      return {
        message: /not a value of the field/.test(message)
          ? `unknown value [ ${text.trim()} ] of field [ ${field.name} ]`
          : `${field.name}: ${message}`,
        fieldName: field.name,
        value: text,
      };
    }
  }
  return assignment;
}

/**
 * The project's default values for the fields an imported issue does not name. `defaults` (from
 * `projectDefaults`, once per request) are shared between issues: nobody may change them.
 */
export function defaultAssignments(
  defaults: readonly FieldAssignment[],
  named: ReadonlySet<number>,
): FieldAssignment[] {
  return defaults.filter((d) => !named.has(d.fieldId));
}

/** Each field's default value as an assignment (fields without one are left out). */
export function projectDefaults(catalogue: FieldCatalogue): FieldAssignment[] {
  const out: FieldAssignment[] = [];
  for (const field of catalogue.values()) {
    if (field.defaultKey === null) continue;
    const value = field.values.get(field.defaultKey);
    if (!value) continue;
    out.push({
      fieldId: field.id,
      multi: field.multi,
      state: field.kind === 'state',
      bundleId: field.bundleId,
      values: [
        {
          slot: field.multi ? value.id : 0,
          content: { value: value.id, user: null, text: null, number: null },
          resolved: value.resolved,
        },
      ],
      logins: [],
    });
  }
  return out;
}

type Row = { issue: number; field: number; slot: number } & SlotValue;
const rowKey = (r: Row) => `${r.slot}:${r.value ?? '-'}:${r.user ?? '-'}:${r.text ?? '-'}:${r.number ?? '-'}`;

/**
 * Writes the given fields of the given issues. On the issues in `replacing` (they existed), a
 * named field whose stored values differ is replaced, one that already holds exactly these
 * values is left alone (a re-run changes nothing), and an absent field keeps what it had. User
 * values must already be ids (`userIds`); those users join the field's bundle.
 */
export async function writeFieldValues(
  tx: Em,
  catalogue: FieldCatalogue,
  byIssue: Map<number, FieldAssignment[]>,
  userIds: Map<string, number>,
  replacing: number[],
): Promise<void> {
  const byId = new Map<number, CatalogueField>();
  for (const field of catalogue.values()) byId.set(field.id, field);
  // An issue's rows as inserted: with their search keys, so the key triggers (migration 0026)
  // find nothing to fix. Fresh issues' rows go straight here; an existing issue's are compared
  // with what it holds first (`wanted`).
  const insert: unknown[][] = [];
  const asInserted = (r: Row) => {
    const field = byId.get(r.field);
    return [
      r.issue,
      r.field,
      r.slot,
      r.value,
      r.user,
      r.text,
      r.number,
      field?.fieldKey ?? null,
      r.value === null ? null : (field?.valueKeys.get(r.value) ?? null),
    ];
  };
  const replaced = new Set(replacing);
  const wanted = new Map<string, Row[]>();
  const bundleUsers = new Map<string, { bundle: number; user: number }>();
  // Indexed loops and forEach: no iterator objects per step in code not yet optimised (these
  // run once per request, over every field value of its issues).
  byIssue.forEach((assignments, issue) => {
    const compared = replaced.has(issue);
    for (let k = 0; k < assignments.length; k++) {
      const a = assignments[k] as FieldAssignment;
      const rows: Row[] = [];
      for (let j = 0; j < a.values.length; j++) {
        const v = a.values[j] as FieldAssignment['values'][number];
        rows.push({ issue, field: a.fieldId, slot: v.slot, ...v.content });
      }
      for (let j = 0; j < a.logins.length; j++) {
        const login = a.logins[j] as string;
        const user = userIds.get(login.toLowerCase());
        if (user === undefined) continue;
        if (a.bundleId !== null) bundleUsers.set(`${a.bundleId}:${user}`, { bundle: a.bundleId, user });
        rows.push({
          issue,
          field: a.fieldId,
          slot: a.multi ? user : 0,
          value: null,
          user,
          text: null,
          number: null,
        });
      }
      if (compared) wanted.set(`${issue}:${a.fieldId}`, rows);
      else for (let j = 0; j < rows.length; j++) insert.push(asInserted(rows[j] as Row));
    }
  });
  if (replacing.length) {
    const stored = new Map<string, Set<string>>();
    const rows = await readQuery(
      tx,
      tables
        .selectFrom('issue_field_values')
        .select(['issue_id', 'field_id', 'slot', 'value_id', 'user_id', 'text', 'number'])
        .where('issue_id', 'in', replacing),
    );
    const num = (v: string | number | null) => (v === null ? null : Number(v));
    for (const r of rows) {
      const key = `${r.issue_id}:${r.field_id}`;
      const row: Row = {
        issue: Number(r.issue_id),
        field: Number(r.field_id),
        slot: Number(r.slot),
        value: num(r.value_id),
        user: num(r.user_id),
        text: r.text,
        number: num(r.number),
      };
      stored.set(key, (stored.get(key) ?? new Set()).add(rowKey(row)));
    }
    // One statement per field (a long OR of pairs would hit SQLite's expression depth limit).
    const staleByField = new Map<number, number[]>();
    for (const [key, rows] of wanted) {
      const [issue, field] = key.split(':').map(Number) as [number, number];
      const old = stored.get(key) ?? new Set<string>();
      if (old.size === rows.length && rows.every((r) => old.has(rowKey(r)))) continue;
      if (old.size) staleByField.set(field, [...(staleByField.get(field) ?? []), issue]);
      for (const r of rows) insert.push(asInserted(r));
    }
    for (const [field, issues] of staleByField)
      await runStatement(
        tx,
        `delete from issue_field_values where field_id = ? and issue_id in (${placeholders(issues)})`,
        [field, ...issues],
      );
  }
  await bulkInsert(
    tx,
    'issue_field_values',
    ['issue_id', 'field_id', 'slot', 'value_id', 'user_id', 'text', 'number', 'field_key', 'value_key'],
    insert,
  );
  await bulkInsert(
    tx,
    'bundle_users',
    ['bundle_id', 'user_id'],
    [...bundleUsers.values()].map((m) => [m.bundle, m.user]),
    { ignoreConflicts: true },
  );
}
