import { can } from '../../../auth/actor.js';
import { groupNameKey } from '../../../groups/group-names.js';
import { placeholders } from '../../../orm/sql-fragments.js';
import { readRows } from '../../../orm/statements.js';
import { at, normalize, type QueryValue } from '../../../query/query-parser.js';
import { parseIssueId } from '../../issue-id.js';
import { type Condition, leaf } from '../search-plan.js';
import type { SearchField } from '../search-vocabulary.js';
import { bad, type CompileScope, NOBODY } from './scope.js';

/**
 * The names a query resolves (projects, issues, users, tags, saved searches, groups, bundle
 * values), each read within what the caller may know: projects and fields come from the caller's
 * vocabulary, tags and saved searches are the caller's own or shared.
 */

/** Projects named by short name or full name, among those the caller reads. */
export async function projectIds(scope: CompileScope, text: string): Promise<number[]> {
  const projects = scope.vocabulary.projects;
  if (projects !== 'all' && projects.length === 0) return [];
  const scoped = projects === 'all' ? '' : ` and id in (${placeholders(projects)})`;
  const rows = await readRows<{ id: number }>(
    scope.em,
    `select id from projects where (short_name_key = ? or name_key = ?)${scoped}`,
    [text.trim().toUpperCase(), normalize(text), ...(projects === 'all' ? [] : projects)],
  );
  return rows.map((r) => Number(r.id));
}

/** `PRJ-12` in a readable project; null when there is no such project. */
export async function issueById(scope: CompileScope, text: string): Promise<Condition | null> {
  const parsed = parseIssueId(text);
  if (!parsed) return null;
  const [projectId] = await projectIds(scope, parsed.shortNameKey);
  if (projectId === undefined) return null;
  return leaf({
    sql: '(i.project_id = ? and i.number_in_project = ?)',
    params: [projectId, parsed.number],
  });
}

/**
 * The user a value names (`me`, a login). An unknown login is an error only for a caller who
 * may see every user (READ_USER); for anyone else it matches nothing, like a user none of whose
 * issues the caller reads, so search does not tell which logins exist.
 */
export async function userIds(scope: CompileScope, value: QueryValue): Promise<number[]> {
  const key = normalize(value.text);
  if (key === 'me') return [scope.actor.userId];
  const id = await userIdByLogin(scope, key);
  if (id !== undefined) return [id];
  if (can(scope.actor, 'READ_USER')) throw bad(`Unknown user ${at(value.text, value)}`, value);
  return [NOBODY];
}

/** The id of the user with this login key, if any. */
export async function userIdByLogin(scope: CompileScope, key: string): Promise<number | undefined> {
  const [user] = await readRows<{ id: number }>(scope.em, 'select id from users where login_key = ?', [key]);
  return user ? Number(user.id) : undefined;
}

/** The caller's own and shared tags of this name. */
export async function tagIds(scope: CompileScope, name: string): Promise<number[]> {
  const rows = await readRows<{ id: number }>(
    scope.em,
    'select id from tags where name_key = ? and (owner_id = ? or shared = ?)',
    [normalize(name), scope.actor.userId, true],
  );
  return rows.map((r) => Number(r.id));
}

/** The query of the caller's own saved search of this name, else of a shared one. */
export async function savedSearchQuery(scope: CompileScope, name: string): Promise<string | undefined> {
  const [saved] = await readRows<{ query: string }>(
    scope.em,
    'select query from saved_searches where name_key = ? and (owner_id = ? or shared = ?) order by owner_id = ? desc',
    [normalize(name), scope.actor.userId, true, scope.actor.userId],
  );
  return saved?.query;
}

/** The id of the group of this name, if any. */
export async function groupIdByName(scope: CompileScope, name: string): Promise<number | undefined> {
  const [group] = await readRows<{ id: number }>(scope.em, 'select id from user_groups where name_key = ?', [
    groupNameKey(name),
  ]);
  return group ? Number(group.id) : undefined;
}

/** The fields (their name keys) of the caller's projects that have a bundle value of this key. */
export async function fieldsWithValue(scope: CompileScope, key: string): Promise<string[]> {
  const projects = scope.vocabulary.projects;
  const scoped =
    projects === 'all'
      ? ''
      : projects.length
        ? ` and pf.project_id in (${placeholders(projects)})`
        : ' and 1 = 0';
  const rows = await readRows<{ name_key: string }>(
    scope.em,
    `select distinct pf.name_key from field_values fv join project_fields pf on pf.bundle_id = fv.bundle_id where fv.name_key = ?${scoped}`,
    [key, ...(projects === 'all' ? [] : projects)],
  );
  return rows.map((r) => r.name_key);
}

/** The first position of a value (by key) in the field's bundles, or null when none holds it. */
export async function bundleOrdinal(
  scope: CompileScope,
  field: SearchField,
  key: string,
): Promise<number | null> {
  const [row] = await readRows<{ ordinal: number | null }>(
    scope.em,
    `select min(ordinal) as ordinal from field_values where bundle_id in (${placeholders(field.bundleIds)}) and name_key = ?`,
    [...field.bundleIds, key],
  );
  return row?.ordinal === null || row?.ordinal === undefined ? null : Number(row.ordinal);
}

/** The keys of the field's bundle values whose positions lie between `from` and `to`. */
export async function bundleKeysBetween(
  scope: CompileScope,
  field: SearchField,
  from: number,
  to: number,
): Promise<string[]> {
  const rows = await readRows<{ name_key: string }>(
    scope.em,
    `select distinct name_key from field_values where bundle_id in (${placeholders(field.bundleIds)}) and ordinal between ? and ?`,
    [...field.bundleIds, from, to],
  );
  return rows.map((r) => r.name_key);
}

/**
 * Each value key of the field's bundles with its first position, first position first, up to
 * `limit` rows (the caller asks one more than it can use to know there are too many).
 */
export async function bundlePositions(
  scope: CompileScope,
  field: SearchField,
  limit: number,
): Promise<{ key: string; ordinal: number }[]> {
  const rows = await readRows<{ name_key: string; ordinal: number }>(
    scope.em,
    `select name_key, min(ordinal) as ordinal from field_values where bundle_id in (${placeholders(field.bundleIds)}) group by name_key order by 2, 1 limit ${limit}`,
    field.bundleIds,
  );
  return rows.map((r) => ({ key: r.name_key, ordinal: Math.trunc(Number(r.ordinal)) }));
}
