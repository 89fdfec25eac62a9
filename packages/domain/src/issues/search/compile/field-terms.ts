import { isBundleKind, type SimpleKind } from '../../../model/field.entity.js';
import { placeholders } from '../../../orm/sql-fragments.js';
import { type AttributeFilter, at, type Bound, normalize } from '../../../query/query-parser.js';
import { parseSimpleValue } from '../../../values/simple-values.js';
import type { Sql } from '../readable-issues.js';
import { dateInterval } from '../search-dates.js';
import { type Condition, leaf } from '../search-plan.js';
import type { SearchField } from '../search-vocabulary.js';
import { bundleKeysBetween, bundleOrdinal, userIds } from './lookups.js';
import { bad, type CompileScope, NOBODY } from './scope.js';

/**
 * Custom fields: values, ranges, empty values, `has: Field`, `#value`. The read rule of the
 * family is `fieldIn`: a private field's values are matched only in the projects where the
 * caller reads private fields (`hiddenProjectIds` are the others); every condition on a field's
 * value rows goes through it.
 */

/**
 * The value rows (alias) of the field, inside a sub-query of the issue `i`; for a private field
 * the caller reads in some projects only, not those of the other projects' issues.
 */
export function fieldIn(field: SearchField, alias: string): Sql {
  const keys = { sql: `${alias}.field_key in (${placeholders(field.fieldKeys)})`, params: field.fieldKeys };
  if (field.hiddenProjectIds.length === 0) return keys;
  return {
    sql: `${keys.sql} and i.project_id not in (${placeholders(field.hiddenProjectIds)})`,
    params: [...keys.params, ...field.hiddenProjectIds],
  };
}

/** The field holds a value matching `where` (a condition on the value row `x`). */
export function holds(field: SearchField, where: Sql, driverWhere?: Sql): Condition {
  const f = fieldIn(field, 'x');
  const probe = {
    sql: `exists (select 1 from issue_field_values x where x.issue_id = i.id and ${f.sql} and ${where.sql})`,
    params: [...f.params, ...where.params],
  };
  if (!driverWhere || field.fieldKeys.length !== 1 || field.hiddenProjectIds.length > 0) return leaf(probe);
  return leaf(probe, {
    from: 'issue_field_values d',
    id: 'd.issue_id',
    where: {
      sql: `d.field_key = ? and ${driverWhere.sql}`,
      params: [field.fieldKeys[0], ...driverWhere.params],
    },
    ordered: true,
    // One value per issue: the ranges of two values never share an issue.
    ...(field.singleValued ? { disjointBy: `field ${field.fieldKeys[0]}: ${driverWhere.sql}` } : {}),
  });
}

/**
 * The field holds some value (`has: Field`). Its rows are listed in issue order by the index
 * (field_key, issue_id) of rows without a user (migration 0051; every value but a user's), once
 * per value: a range that only combined counts may use (`duplicates`).
 */
export function present(field: SearchField): Condition {
  const f = fieldIn(field, 'x');
  const users = field.kinds.has('user');
  const probe = {
    // A field without users has no row with one: `user_id is null` changes no answer and lets
    // PostgreSQL read the field's rows from the index that lists them in issue order.
    sql: `exists (select 1 from issue_field_values x where x.issue_id = i.id and ${f.sql}${users ? '' : ' and x.user_id is null'})`,
    params: f.params,
  };
  if (field.fieldKeys.length !== 1 || field.hiddenProjectIds.length > 0 || users) return leaf(probe);
  return leaf(probe, {
    from: 'issue_field_values d',
    id: 'd.issue_id',
    where: { sql: 'd.field_key = ? and d.user_id is null', params: [field.fieldKeys[0]] },
    ordered: true,
    duplicates: true,
  });
}

/** The field has no value (`{No subsystem}`, `Unassigned`). */
export function empty(field: SearchField): Condition {
  const f = fieldIn(field, 'x');
  return leaf({
    sql: `not exists (select 1 from issue_field_values x where x.issue_id = i.id and ${f.sql})`,
    params: f.params,
  });
}

/** `#Resolved` / `#Unresolved`, and a state field's `Resolved` / `Unresolved`. */
export function resolvedCondition(resolved: boolean): Condition {
  const where = (alias: string) => ({
    sql: `${alias}.resolved_at is ${resolved ? 'not ' : ''}null`,
    params: [],
  });
  return leaf(
    where('i'),
    resolved
      ? { from: 'issues d', id: 'd.id', where: where('d'), ordered: false }
      : { from: 'issues d', id: 'd.id', where: where('d'), ordered: true },
  );
}

/** `Field: value`, `Field: a .. b`, `Field: -value` (the caller negates). */
export async function fieldCondition(
  scope: CompileScope,
  field: SearchField,
  filter: AttributeFilter,
): Promise<Condition> {
  if (filter.kind === 'query') throw bad(`${field.name} takes values, not a (query)`);
  const kinds = [...field.kinds];
  if (filter.kind === 'value') {
    const key = normalize(filter.value.text);
    if (field.emptyTexts.has(key) || (key === 'unassigned' && field.kinds.has('user'))) return empty(field);
    if (field.kinds.has('state') && (key === 'resolved' || key === 'unresolved'))
      return resolvedCondition(key === 'resolved');
  }
  const simple = kinds.find((k): k is SimpleKind => !isBundleKind(k));
  if (simple) return simpleField(scope, field, simple, filter);
  if (field.kinds.has('user')) {
    if (filter.kind !== 'value') throw bad(`${field.name} takes no range ${at(field.name, filter)}`, filter);
    const [id = NOBODY] = await userIds(scope, filter.value);
    return holds(field, { sql: 'x.user_id = ?', params: [id] }, { sql: 'd.user_id = ?', params: [id] });
  }
  const keys = await bundleValueKeys(scope, field, filter);
  if (keys.length === 1) {
    return holds(field, { sql: 'x.value_key = ?', params: keys }, { sql: 'd.value_key = ?', params: keys });
  }
  return holds(field, { sql: `x.value_key in (${placeholders(keys)})`, params: keys });
}

/** A value of a bundle field, or the values between two of them in bundle order. */
async function bundleValueKeys(
  scope: CompileScope,
  field: SearchField,
  filter: AttributeFilter & { kind: 'value' | 'range' },
): Promise<string[]> {
  if (field.bundleIds.length === 0) throw bad(`${field.name} has no values`);
  const ordinal = async (bound: Bound): Promise<number | null> => {
    if ('open' in bound) return null;
    const found = await bundleOrdinal(scope, field, normalize(bound.text));
    if (found === null) throw bad(`Unknown value ${at(bound.text, bound)} of field [ ${field.name} ]`, bound);
    return found;
  };
  if (filter.kind === 'value') {
    await ordinal(filter.value);
    return [normalize(filter.value.text)];
  }
  const from = (await ordinal(filter.from)) ?? Number.MIN_SAFE_INTEGER;
  const to = (await ordinal(filter.to)) ?? Number.MAX_SAFE_INTEGER;
  const keys = await bundleKeysBetween(scope, field, from, to);
  return keys.length ? keys : ['\u0000'];
}

/** A field of a simple kind: string and text by their whole value, numbers and dates by ranges. */
function simpleField(
  scope: CompileScope,
  field: SearchField,
  kind: SimpleKind,
  filter: AttributeFilter & { kind: 'value' | 'range' },
): Condition {
  if (kind === 'string' || kind === 'text') {
    if (filter.kind !== 'value') throw bad(`${field.name} takes no range`);
    return holds(field, {
      sql: 'lower(x.text) = ?',
      params: [filter.value.text.trim().toLowerCase()],
    });
  }
  const bound = (b: Bound, end: 'from' | 'to'): number | null => {
    if ('open' in b) return null;
    if (kind === 'date') {
      const interval = dateInterval(b.text, scope.context.now, scope.context.timeZone);
      if (!interval) throw bad(`${field.name}: not a date ${at(b.text, b)}`, b);
      return end === 'from' ? interval.from : interval.to - 1;
    }
    const parsed = parseSimpleValue(kind, b.text);
    if ('error' in parsed) throw bad(`${field.name}: ${parsed.error} ${at(b.text, b)}`, b);
    return parsed.number;
  };
  const from = filter.kind === 'value' ? bound(filter.value, 'from') : bound(filter.from, 'from');
  const to = filter.kind === 'value' ? bound(filter.value, 'to') : bound(filter.to, 'to');
  const parts: Sql[] = [];
  if (from !== null) parts.push({ sql: 'x.number >= ?', params: [from] });
  if (to !== null) parts.push({ sql: 'x.number <= ?', params: [to] });
  if (parts.length === 0) parts.push({ sql: 'x.number is not null', params: [] });
  return holds(field, {
    sql: parts.map((p) => p.sql).join(' and '),
    params: parts.flatMap((p) => p.params),
  });
}
