import { isBundleKind } from '../../../model/field.entity.js';
import { placeholders } from '../../../orm/sql-fragments.js';
import { at, type SortField } from '../../../query/query-parser.js';
import type { Sql } from '../readable-issues.js';
import type { Condition, SortKey } from '../search-plan.js';
import { type SearchField, SORT_BUILTINS } from '../search-vocabulary.js';
import { fieldIn, holds } from './field-terms.js';
import { bundlePositions } from './lookups.js';
import { visibleComments } from './mark-terms.js';
import { bad, type CompileScope, fieldNamed } from './scope.js';

/**
 * `sort by:` keys. The read rules of the family: a field's key reads its values through
 * `fieldIn` (private fields), and counted things count what the caller can see (comments:
 * `visibleComments`; votes are public).
 */

/** Sort keys that are a column of `issues` listed in order by an index of its own (with ties by id). */
const BUILTIN_COLUMNS: Record<string, 'created_at' | 'updated_at'> = {
  created: 'created_at',
  updated: 'updated_at',
};

/** Bundles of up to this many values sort by a spelled-out position of each value's key. */
const MAX_SPELLED_ORDINALS = 200;

export async function sortKey(scope: CompileScope, field: SortField): Promise<SortKey> {
  const builtin = SORT_BUILTINS[field.key];
  const known = fieldNamed(scope, field.key);
  if (builtin && !known) {
    const column = BUILTIN_COLUMNS[builtin.kind];
    return {
      sql: builtinSort(scope, builtin.kind),
      direction: field.direction ?? builtin.direction,
      ...(column ? { column } : {}),
    };
  }
  if (!known) throw bad(`Cannot sort by ${at(field.name, field)}`, field);
  const f = fieldIn(known, 'x');
  const kind = [...known.kinds][0];
  const value = (expression: string | Sql, join = ''): Sql => {
    const e = typeof expression === 'string' ? { sql: expression, params: [] } : expression;
    return {
      sql: `(select min(${e.sql}) from issue_field_values x${join} where x.issue_id = i.id and ${f.sql})`,
      params: [...e.params, ...f.params],
    };
  };
  if (kind === 'user')
    return {
      sql: value('u.full_name', ' join users u on u.id = x.user_id'),
      direction: field.direction ?? 'asc',
    };
  if (kind && isBundleKind(kind)) {
    const ordinals = await bundleOrdinals(scope, known);
    if (!ordinals)
      return {
        sql: value('v.ordinal', ' join field_values v on v.id = x.value_id'),
        direction: field.direction ?? 'asc',
      };
    return {
      sql: value({
        // The positions are integers read from the database, written as literals: a parameter
        // would make PostgreSQL type the expression as text (and sort 10 before 2).
        sql: `case x.value_key ${ordinals.map((r) => `when ? then ${r.ordinal}`).join(' ')} end`,
        params: ordinals.map((r) => r.key),
      }),
      direction: field.direction ?? 'asc',
      ...(known.singleValued ? { positions: positions(known, ordinals) } : {}),
    };
  }
  if (kind === 'string' || kind === 'text')
    return { sql: value('lower(x.text)'), direction: field.direction ?? 'asc' };
  return { sql: value('x.number'), direction: field.direction ?? 'asc' };
}

/**
 * A bundle field's sort key as the position of its values' keys (`issue_field_values.value_key`,
 * in the index that lists an issue's values): sorting a page of `project: X #Unresolved sort by:
 * Priority` reads each matching issue's key from that index instead of its value row and the
 * value's own row (25,000 issues at a million; two lookups less each). A value named alike in
 * several bundles takes its first position. Undefined for a bundle too large to spell out as
 * one expression (the value rows' ordinals are joined then).
 */
async function bundleOrdinals(
  scope: CompileScope,
  field: SearchField,
): Promise<{ key: string; ordinal: number }[] | undefined> {
  if (field.bundleIds.length === 0) return undefined;
  const rows = await bundlePositions(scope, field, MAX_SPELLED_ORDINALS + 1);
  if (rows.length === 0 || rows.length > MAX_SPELLED_ORDINALS) return undefined;
  return rows;
}

/**
 * The sort key of a single-valued bundle field as conditions, one per position (values named
 * alike in several bundles share their first position), first position first. An issue with no
 * value, or a value of no listed position, holds none of them: its key is null (sorted last).
 */
function positions(field: SearchField, ordinals: { key: string; ordinal: number }[]): Condition[] {
  const keysAt = new Map<number, string[]>();
  for (const { key, ordinal } of ordinals) keysAt.set(ordinal, [...(keysAt.get(ordinal) ?? []), key]);
  return [...keysAt.values()].map((keys) =>
    keys.length === 1
      ? holds(field, { sql: 'x.value_key = ?', params: keys }, { sql: 'd.value_key = ?', params: keys })
      : holds(field, { sql: `x.value_key in (${placeholders(keys)})`, params: keys }),
  );
}

function builtinSort(scope: CompileScope, kind: string): Sql {
  const sql = (s: string): Sql => ({ sql: s, params: [] });
  switch (kind) {
    case 'created':
      return sql('i.created_at');
    case 'updated':
      return sql('i.updated_at');
    case 'resolved':
      return sql('i.resolved_at');
    case 'votes':
      return sql('(select count(*) from issue_votes v where v.issue_id = i.id)');
    case 'comments': {
      // The comments the caller can see: a group's restricted comments count for its members only.
      const visible = visibleComments(scope);
      return {
        sql: `(select count(*) from issue_comments c where c.issue_id = i.id and ${visible.sql})`,
        params: visible.params,
      };
    }
    case 'project':
      return sql('(select p.name_key from projects p where p.id = i.project_id)');
    case 'reporter':
      return sql('(select u.full_name from users u where u.id = i.reporter_id)');
    case 'summary':
      return sql('lower(i.summary)');
    default:
      return sql('i.id');
  }
}
