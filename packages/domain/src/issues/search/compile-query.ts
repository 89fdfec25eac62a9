import { type Actor, can, projectsWith } from '../../auth/actor.js';
import { DomainError } from '../../errors.js';
import type { Em } from '../../orm/em.js';
import { containsPattern, placeholders } from '../../orm/sql-fragments.js';
import { readRows } from '../../read-models/statements.js';
import { type FieldKind, isBundleKind, type SimpleKind } from '../fields/field.entity.js';
import { parseSimpleValue, type SimpleValue } from '../fields/simple-values.js';
import { parseIssueId } from '../issue-id.js';
import { parseSearchQuery, type QueryTerm, type QueryValue, SORT_ATTRIBUTES } from './parse-query.js';

export type SqlCondition = { sql: string; params: unknown[] };
export type SortKey = { sql: string; direction: 'asc' | 'desc' };
export type CompiledQuery = { where: SqlCondition[]; orderBy: SortKey[] };
/** The projects whose issues the actor may read (`'all'` or ids; never empty here). */
export type ReadScope = 'all' | number[];

const PROJECT = ['project'];
const ASSIGNEE = ['for', 'assigned to'];
const REPORTER = ['reported by', 'reporter', 'created by', 'submitted by'];
const TAG = ['tag'];
const ISSUE = ['issue id', 'issue'];
const TEXT_COLUMNS: Record<string, string> = { summary: 'i.summary', description: 'i.description' };
const BUILTINS = [
  ...PROJECT,
  ...ASSIGNEE,
  ...REPORTER,
  ...TAG,
  ...ISSUE,
  ...Object.keys(TEXT_COLUMNS),
  ...SORT_ATTRIBUTES,
];

const SORTS: Record<string, { sql: string; direction: 'asc' | 'desc' }> = {
  created: { sql: 'i.created_at', direction: 'desc' },
  updated: { sql: 'i.updated_at', direction: 'desc' },
  'resolved date': { sql: 'i.resolved_at', direction: 'desc' },
  resolved: { sql: 'i.resolved_at', direction: 'desc' },
  votes: { sql: '(select count(*) from issue_votes sv where sv.issue_id = i.id)', direction: 'desc' },
  summary: { sql: 'i.summary', direction: 'asc' },
  'issue id': { sql: 'i.id', direction: 'asc' },
};

const bad = (message: string) => DomainError.invalid('query', message);
const anyOf = (conditions: SqlCondition[]): SqlCondition =>
  conditions.length === 1
    ? (conditions[0] as SqlCondition)
    : { sql: `(${conditions.map((c) => c.sql).join(' or ')})`, params: conditions.flatMap((c) => c.params) };
const inList = (column: string, ids: readonly unknown[]): SqlCondition => ({
  sql: `${column} in (${placeholders(ids)})`,
  params: [...ids],
});
const textCondition = (text: string, columns = ['i.summary', 'i.description']): SqlCondition =>
  anyOf(columns.map((c) => ({ sql: `lower(${c}) like ? escape '!'`, params: [containsPattern(text)] })));
/**
 * `and <alias>.field_id not in (…)`: leaves out the stored values of the private fields the
 * actor may not read (ids of project fields; empty: nothing is hidden). Every condition on
 * stored values carries it, so a private value never decides whether an issue matches.
 */
const notHidden = (alias: string, hidden: readonly number[]): SqlCondition =>
  hidden.length
    ? { sql: ` and ${alias}.field_id not in (${placeholders(hidden)})`, params: [...hidden] }
    : { sql: '', params: [] };
const fieldEmpty = (nameKey: string, hidden: readonly number[]): SqlCondition => {
  const h = notHidden('efv', hidden);
  return {
    sql:
      'not exists (select 1 from issue_field_values efv join project_fields epf on epf.id = efv.field_id ' +
      `where efv.issue_id = i.id and epf.name_key = ?${h.sql})`,
    params: [nameKey, ...h.params],
  };
};
const hasValues = (valueIds: number[], hidden: readonly number[]): SqlCondition => {
  const h = notHidden('vfv', hidden);
  return {
    sql: `exists (select 1 from issue_field_values vfv where vfv.issue_id = i.id and vfv.value_id in (${placeholders(valueIds)})${h.sql})`,
    params: [...valueIds, ...h.params],
  };
};
const hasUsers = (nameKey: string, userIds: number[], hidden: readonly number[]): SqlCondition => {
  const h = notHidden('ufv', hidden);
  return {
    sql:
      'exists (select 1 from issue_field_values ufv join project_fields upf on upf.id = ufv.field_id ' +
      `where ufv.issue_id = i.id and upf.name_key = ? and ufv.user_id in (${placeholders(userIds)})${h.sql})`,
    params: [nameKey, ...userIds, ...h.params],
  };
};
/** A simple field (`Build number: 7`, `Notes: {a b}`) holding the typed value. */
const hasSimple = (nameKey: string, value: SimpleValue, hidden: readonly number[]): SqlCondition => {
  const h = notHidden('sfv', hidden);
  return {
    sql:
      'exists (select 1 from issue_field_values sfv join project_fields spf on spf.id = sfv.field_id ' +
      `where sfv.issue_id = i.id and spf.name_key = ? and ${value.text !== null ? 'lower(sfv.text) = ?' : 'sfv.number = ?'}${h.sql})`,
    params: [nameKey, value.text !== null ? value.text.toLowerCase() : value.number, ...h.params],
  };
};
/** A user id no row has (ids start at 1): a condition on it matches nothing. */
const NOBODY = 0;
const RESOLVED: SqlCondition = { sql: 'i.resolved_at is not null', params: [] };
const UNRESOLVED: SqlCondition = { sql: 'i.resolved_at is null', params: [] };

/** Resolves query terms against the database (names → ids) and turns them into SQL conditions on `i` (issues). */
class Compiler {
  constructor(
    private readonly em: Em,
    private readonly actor: Actor,
    private readonly scope: ReadScope,
    /** Project fields the actor may not read (private, without PRIVATE_READ_ISSUE in their project). */
    private readonly hidden: readonly number[],
  ) {}

  /**
   * `and <column> in (readable projects)`, for lookups that must not reveal other projects;
   * with `fieldId`, also `and <fieldId> not in (hidden fields)`.
   */
  private scoped(column: string, fieldId?: string): SqlCondition {
    const projects: SqlCondition =
      this.scope === 'all'
        ? { sql: '', params: [] }
        : { sql: ` and ${column} in (${placeholders(this.scope)})`, params: this.scope };
    if (fieldId === undefined || this.hidden.length === 0) return projects;
    return {
      sql: `${projects.sql} and ${fieldId} not in (${placeholders(this.hidden)})`,
      params: [...projects.params, ...this.hidden],
    };
  }

  async attributes(): Promise<Set<string>> {
    const s = this.scoped('project_id', 'id');
    const rows = await readRows<{ name_key: string }>(
      this.em,
      `select distinct name_key from project_fields where 1 = 1${s.sql}`,
      s.params,
    );
    return new Set([...BUILTINS, ...rows.map((r) => r.name_key)]);
  }

  private async projectIds(value: string): Promise<number[]> {
    const s = this.scoped('id');
    const rows = await readRows<{ id: number }>(
      this.em,
      `select id from projects where (short_name_key = ? or name_key = ?)${s.sql}`,
      [value.trim().toUpperCase(), value.trim().toLowerCase(), ...s.params],
    );
    return rows.map((r) => Number(r.id));
  }

  /**
   * The user a search term names. An unknown login is an error only for a caller who may see
   * every user (READ_USER, as reading another user's profile needs); for anyone else it simply
   * matches nothing, exactly like an existing user none of whose issues the caller can read, so
   * search does not tell which logins exist.
   */
  private async userId(term: QueryTerm, login: string): Promise<number> {
    if (login.trim().toLowerCase() === 'me') return this.actor.userId;
    const rows = await readRows<{ id: number }>(this.em, 'select id from users where login_key = ?', [
      login.trim().toLowerCase(),
    ]);
    if (rows[0]) return Number(rows[0].id);
    if (can(this.actor, 'READ_USER')) throw bad(`unknown user [ ${login} ] in [ ${term.source} ]`);
    return NOBODY;
  }

  private async tagIds(name: string): Promise<number[]> {
    const rows = await readRows<{ id: number }>(
      this.em,
      'select id from tags where name_key = ? and (owner_id = ? or shared = true)',
      [name.trim().toLowerCase(), this.actor.userId],
    );
    return rows.map((r) => Number(r.id));
  }

  private async project(term: QueryTerm, values: QueryValue[]): Promise<SqlCondition> {
    const ids: number[] = [];
    for (const v of values) {
      const found = await this.projectIds(v.text);
      if (found.length === 0) throw bad(`unknown project [ ${v.text} ] in [ ${term.source} ]`);
      ids.push(...found);
    }
    return inList('i.project_id', ids);
  }

  private async reporter(term: QueryTerm, values: QueryValue[]): Promise<SqlCondition> {
    const ids: number[] = [];
    for (const v of values) ids.push(await this.userId(term, v.text));
    return inList('i.reporter_id', ids);
  }

  private async tag(term: QueryTerm, values: QueryValue[]): Promise<SqlCondition> {
    const ids: number[] = [];
    for (const v of values) {
      const found = await this.tagIds(v.text);
      if (found.length === 0) throw bad(`unknown tag [ ${v.text} ] in [ ${term.source} ]`);
      ids.push(...found);
    }
    return {
      sql: `exists (select 1 from issue_tags t where t.issue_id = i.id and t.tag_id in (${placeholders(ids)}))`,
      params: ids,
    };
  }

  private async issueIds(term: QueryTerm, values: QueryValue[]): Promise<SqlCondition> {
    return anyOf(
      await Promise.all(
        values.map(async (v) => {
          const id = await this.issueId(v.text);
          if (!id) throw bad(`malformed issue id [ ${v.text} ] in [ ${term.source} ]`);
          return id;
        }),
      ),
    );
  }

  /** `PRJ-12` in a readable project; null when there is no such project (then it is just text). */
  async issueId(text: string): Promise<SqlCondition | null> {
    const parsed = parseIssueId(text);
    if (!parsed) return null;
    const [projectId] = await this.projectIds(parsed.shortNameKey);
    if (projectId === undefined) return null;
    return { sql: '(i.project_id = ? and i.number_in_project = ?)', params: [projectId, parsed.number] };
  }

  /** `<Field>: v1, v2` (also `for:`): values, the field's empty text, `me`, `Resolved`/`Unresolved` for states. */
  private async field(term: QueryTerm, nameKey: string, values: QueryValue[]): Promise<SqlCondition> {
    const s = this.scoped('project_id', 'id');
    const fields = await readRows<{ name: string; kind: FieldKind; empty_text: string | null }>(
      this.em,
      `select name, kind, empty_text from project_fields where name_key = ?${s.sql}`,
      [nameKey, ...s.params],
    );
    const kinds = new Set(fields.map((f) => f.kind));
    const fieldName = fields[0]?.name ?? nameKey;
    const emptyTexts = new Set(fields.flatMap((f) => (f.empty_text ? [f.empty_text.toLowerCase()] : [])));
    if (nameKey === 'assignee' || kinds.has('user')) emptyTexts.add('unassigned');
    const conditions: SqlCondition[] = [];
    for (const v of values) {
      const key = v.text.trim().toLowerCase();
      if (emptyTexts.has(key)) {
        conditions.push(fieldEmpty(nameKey, this.hidden));
        continue;
      }
      if (kinds.has('state') && (key === 'resolved' || key === 'unresolved')) {
        conditions.push(key === 'resolved' ? RESOLVED : UNRESOLVED);
        continue;
      }
      if (kinds.has('user') || nameKey === 'assignee') {
        conditions.push(hasUsers(nameKey, [await this.userId(term, v.text)], this.hidden));
        continue;
      }
      const simple = [...kinds].find((k): k is SimpleKind => !isBundleKind(k));
      if (simple) {
        const parsed = parseSimpleValue(simple, v.text);
        if ('error' in parsed) throw bad(`${fieldName}: ${parsed.error} in [ ${term.source} ]`);
        conditions.push(hasSimple(nameKey, parsed, this.hidden));
        continue;
      }
      const fs = this.scoped('pf.project_id', 'pf.id');
      const rows = await readRows<{ id: number }>(
        this.em,
        'select fv.id from field_values fv join project_fields pf on pf.bundle_id = fv.bundle_id ' +
          `where pf.name_key = ? and fv.name_key = ?${fs.sql}`,
        [nameKey, key, ...fs.params],
      );
      if (rows.length === 0)
        throw bad(`unknown value [ ${v.text} ] of field [ ${fieldName} ] in [ ${term.source} ]`);
      conditions.push(
        hasValues(
          rows.map((r) => Number(r.id)),
          this.hidden,
        ),
      );
    }
    return anyOf(conditions);
  }

  /** `#value`: a special word, any field's value or empty text, a tag or a project. */
  private async hash(term: QueryTerm & { kind: 'hash' }): Promise<SqlCondition> {
    const key = term.value.trim().toLowerCase();
    if (key === 'unresolved') return UNRESOLVED;
    if (key === 'resolved') return RESOLVED;
    if (key === 'unassigned') return fieldEmpty('assignee', this.hidden);
    if (key === 'me') return hasUsers('assignee', [this.actor.userId], this.hidden);
    const conditions: SqlCondition[] = [];
    const s = this.scoped('pf.project_id', 'pf.id');
    const values = await readRows<{ id: number }>(
      this.em,
      `select fv.id from field_values fv join project_fields pf on pf.bundle_id = fv.bundle_id where fv.name_key = ?${s.sql}`,
      [key, ...s.params],
    );
    if (values.length)
      conditions.push(
        hasValues(
          values.map((r) => Number(r.id)),
          this.hidden,
        ),
      );
    const empties = await readRows<{ name_key: string }>(
      this.em,
      `select distinct pf.name_key from project_fields pf where lower(pf.empty_text) = ?${s.sql}`,
      [key, ...s.params],
    );
    for (const e of empties) conditions.push(fieldEmpty(e.name_key, this.hidden));
    const tags = await this.tagIds(key);
    if (tags.length) {
      conditions.push({
        sql: `exists (select 1 from issue_tags t where t.issue_id = i.id and t.tag_id in (${placeholders(tags)}))`,
        params: tags,
      });
    }
    const projects = await this.projectIds(term.value);
    if (projects.length) conditions.push(inList('i.project_id', projects));
    if (conditions.length === 0) throw bad(`unknown value [ ${term.source} ]`);
    return anyOf(conditions);
  }

  async term(term: QueryTerm): Promise<SqlCondition | null> {
    switch (term.kind) {
      case 'text':
        return textCondition(term.value);
      case 'issueId':
        return (await this.issueId(term.id)) ?? textCondition(term.id);
      case 'hash':
        return this.hash(term);
      case 'sort':
        return null;
      case 'attribute': {
        const name = term.name.toLowerCase();
        if (PROJECT.includes(name)) return this.project(term, term.values);
        if (ASSIGNEE.includes(name)) return this.field(term, 'assignee', term.values);
        if (REPORTER.includes(name)) return this.reporter(term, term.values);
        if (TAG.includes(name)) return this.tag(term, term.values);
        if (ISSUE.includes(name)) return this.issueIds(term, term.values);
        const column = TEXT_COLUMNS[name];
        if (column) return anyOf(term.values.map((v) => textCondition(v.text, [column])));
        return this.field(term, name, term.values);
      }
    }
  }
}

function sortKeys(term: QueryTerm & { kind: 'sort' }): SortKey[] {
  return term.keys.map(({ key, direction }) => {
    const sort = SORTS[key];
    if (!sort) throw bad(`cannot sort by [ ${key} ]; use one of: ${Object.keys(SORTS).join(', ')}`);
    return { sql: sort.sql, direction: direction ?? sort.direction };
  });
}

/** Ids of the project fields whose values the actor may not read: private ones, without PRIVATE_READ_ISSUE there. */
export async function hiddenFieldIds(em: Em, actor: Actor): Promise<number[]> {
  const readers = projectsWith(actor, 'PRIVATE_READ_ISSUE');
  if (readers === 'all') return [];
  const except = readers.length ? ` and pf.project_id not in (${placeholders(readers)})` : '';
  const rows = await readRows<{ id: number }>(
    em,
    `select pf.id from project_fields pf join custom_fields cf on cf.id = pf.custom_field_id where cf.is_private = ?${except}`,
    [true, ...readers],
  );
  return rows.map((r) => Number(r.id));
}

/** Parses and resolves a query into SQL conditions on the `issues` table aliased `i`. */
export async function compileQuery(
  em: Em,
  actor: Actor,
  query: string,
  scope: ReadScope,
): Promise<CompiledQuery> {
  const compiler = new Compiler(em, actor, scope, await hiddenFieldIds(em, actor));
  const attributes = query.includes(':') ? await compiler.attributes() : new Set<string>();
  const terms = parseSearchQuery(query, attributes);
  const where: SqlCondition[] = [];
  const orderBy: SortKey[] = [];
  for (const term of terms) {
    if (term.kind === 'sort') orderBy.push(...sortKeys(term));
    const condition = await compiler.term(term);
    if (condition) where.push(condition);
  }
  return { where, orderBy };
}
