import { IssueFieldValue, ProjectAssignee } from '../issues/fields/field.entity.js';
import { bulkInsert } from '../orm/bulk-insert.js';
import type { Em } from '../orm/em.js';
import { toBool } from '../orm/row-values.js';
import { placeholders } from '../orm/sql-fragments.js';
import type { ImportProblem } from './import-report.js';

/*
 * Issue field values for the import, on today's field model (ProjectField, FieldValue,
 * ProjectAssignee, IssueFieldValue). The one place that turns a field's value texts into rows
 * and writes them: when the data-driven fields land, only this file changes.
 */

type FieldDef = {
  id: number;
  name: string;
  kind: string;
  multi: boolean;
  emptyKey: string | null;
  defaultKey: string | null;
  values: Map<string, { id: number; resolved: boolean }>;
};

/** The fields of one project with their values, loaded once per import request. */
export type FieldCatalogue = Map<string, FieldDef>;

export async function loadFieldCatalogue(tx: Em, projectId: number): Promise<FieldCatalogue> {
  const rows = await tx.execute<
    {
      id: number;
      name: string;
      name_key: string;
      kind: string;
      multi: unknown;
      empty_text: string | null;
      default_value: string | null;
      value_id: number | null;
      value_key: string | null;
      resolved: unknown;
    }[]
  >(
    'select pf.id, pf.name, pf.name_key, pf.kind, pf.multi, pf.empty_text, pf.default_value, ' +
      'fv.id as value_id, fv.name_key as value_key, fv.resolved ' +
      'from project_fields pf left join field_values fv on fv.field_id = pf.id where pf.project_id = ?',
    [projectId],
  );
  const fields: FieldCatalogue = new Map();
  for (const row of rows) {
    let field = fields.get(row.name_key);
    if (!field) {
      field = {
        id: Number(row.id),
        name: row.name,
        kind: row.kind,
        multi: toBool(row.multi),
        emptyKey: row.empty_text?.toLowerCase() ?? null,
        defaultKey: row.default_value?.toLowerCase() ?? null,
        values: new Map(),
      };
      fields.set(row.name_key, field);
    }
    if (row.value_id !== null && row.value_key !== null)
      field.values.set(row.value_key, { id: Number(row.value_id), resolved: toBool(row.resolved) });
  }
  return fields;
}

/** What one issue's field says: values by id, users by login (resolved to ids at write time). */
export type FieldAssignment = {
  fieldId: number;
  multi: boolean;
  /** A state field: its value decides whether the issue is resolved. */
  state: boolean;
  values: { id: number; resolved: boolean }[];
  logins: string[];
};

/** Resolves one `<field name><value>…` of an import; unknown field or value → a problem. */
export function resolveField(
  catalogue: FieldCatalogue,
  name: string,
  texts: string[],
): FieldAssignment | ImportProblem {
  const field = catalogue.get(name.trim().toLowerCase());
  if (!field) return { message: `unknown field [ ${name} ] in this project`, fieldName: name };
  // The original takes the first value of a single-value field.
  const given = texts.map((t) => t.trim()).filter((t) => t && t.toLowerCase() !== field.emptyKey);
  const chosen = field.multi ? [...new Set(given)] : given.slice(0, 1);
  const assignment: FieldAssignment = {
    fieldId: field.id,
    multi: field.multi,
    state: field.kind === 'state',
    values: [],
    logins: [],
  };
  for (const text of chosen) {
    if (field.kind === 'user') {
      assignment.logins.push(text);
      continue;
    }
    const value = field.values.get(text.toLowerCase());
    if (!value)
      return {
        message: `unknown value [ ${text} ] of field [ ${field.name} ]`,
        fieldName: field.name,
        value: text,
      };
    assignment.values.push(value);
  }
  return assignment;
}

/** The project's default values for the fields an imported issue does not name. */
export function defaultAssignments(catalogue: FieldCatalogue, named: Set<number>): FieldAssignment[] {
  const out: FieldAssignment[] = [];
  for (const field of catalogue.values()) {
    if (named.has(field.id) || field.defaultKey === null) continue;
    const value = field.values.get(field.defaultKey);
    if (value)
      out.push({
        fieldId: field.id,
        multi: field.multi,
        state: field.kind === 'state',
        values: [value],
        logins: [],
      });
  }
  return out;
}

type Row = { issue: number; field: number; slot: number; value: number | null; user: number | null };
const rowKey = (r: Row) => `${r.slot}:${r.value ?? '-'}:${r.user ?? '-'}`;

/**
 * Writes the given fields of the given issues. On the issues in `replacing` (they existed), a
 * named field whose stored values differ is replaced, one that already holds exactly these
 * values is left alone (a re-run changes nothing), and an absent field keeps what it had. User
 * values must already be ids (`userIds`); those users become project assignees (the original's
 * "assignees are auto-imported").
 */
export async function writeFieldValues(
  tx: Em,
  projectId: number,
  byIssue: Map<number, FieldAssignment[]>,
  userIds: Map<string, number>,
  replacing: number[],
): Promise<void> {
  const wanted = new Map<string, Row[]>();
  const assignees = new Set<number>();
  for (const [issue, assignments] of byIssue) {
    for (const a of assignments) {
      const rows: Row[] = [];
      for (const v of a.values)
        rows.push({ issue, field: a.fieldId, slot: a.multi ? v.id : 0, value: v.id, user: null });
      for (const login of a.logins) {
        const user = userIds.get(login.toLowerCase());
        if (user === undefined) continue;
        assignees.add(user);
        rows.push({ issue, field: a.fieldId, slot: a.multi ? user : 0, value: null, user });
      }
      wanted.set(`${issue}:${a.fieldId}`, rows);
    }
  }
  if (replacing.length) {
    const stored = new Map<string, Set<string>>();
    const rows = await tx.execute<
      { issue_id: number; field_id: number; slot: number; value_id: number | null; user_id: number | null }[]
    >(
      `select issue_id, field_id, slot, value_id, user_id from issue_field_values where issue_id in (${placeholders(replacing)})`,
      replacing,
    );
    for (const r of rows) {
      const key = `${r.issue_id}:${r.field_id}`;
      const row: Row = {
        issue: Number(r.issue_id),
        field: Number(r.field_id),
        slot: Number(r.slot),
        value: r.value_id === null ? null : Number(r.value_id),
        user: r.user_id === null ? null : Number(r.user_id),
      };
      stored.set(key, (stored.get(key) ?? new Set()).add(rowKey(row)));
    }
    // One statement per field (a long OR of pairs would hit SQLite's expression depth limit).
    const staleByField = new Map<number, number[]>();
    const replaced = new Set(replacing);
    for (const [key, rows] of wanted) {
      const [issue, field] = key.split(':').map(Number) as [number, number];
      if (!replaced.has(issue)) continue;
      const old = stored.get(key) ?? new Set<string>();
      if (old.size === rows.length && rows.every((r) => old.has(rowKey(r)))) wanted.delete(key);
      else if (old.size) staleByField.set(field, [...(staleByField.get(field) ?? []), issue]);
    }
    for (const [field, issues] of staleByField)
      await tx.nativeDelete(IssueFieldValue, { field, issue: { $in: issues } });
  }
  const inserts = [...wanted.values()].flat();
  await bulkInsert(
    tx,
    'issue_field_values',
    ['issue_id', 'field_id', 'slot', 'value_id', 'user_id'],
    inserts.map((r) => [r.issue, r.field, r.slot, r.value, r.user]),
  );
  if (assignees.size) {
    await tx
      .createQueryBuilder(ProjectAssignee)
      .insert([...assignees].map((user) => ({ project: projectId, user })))
      .onConflict(['project', 'user'])
      .ignore()
      .execute();
  }
}
