import { ISSUE_ID_PATTERN } from '@trackline/contracts';
import { type Actor, can } from '../../auth/actor.js';
import { groupNameKey } from '../../groups/group-names.js';
import { isBundleKind, type SimpleKind } from '../../model/field.entity.js';
import type { Em } from '../../orm/em.js';
import type { Dialect } from '../../orm/open-orm.js';
import { placeholders } from '../../orm/sql-fragments.js';
import { readRows } from '../../orm/statements.js';
import {
  type AttributeFilter,
  at,
  type Bound,
  type HasAttribute,
  normalize,
  parseQuery,
  type QueryNode,
  type QueryValue,
  type SortField,
  type Span,
  type TermItem,
} from '../../query/query-parser.js';
import { parseSimpleValue } from '../../values/simple-values.js';
import { visibleAttachmentsSql } from '../attachments/attachment-visibility.js';
import { visibleCommentsSql } from '../comments/comments.js';
import { parseIssueId } from '../issue-id.js';
import { STAR_TAG } from '../tags/tag-lookup.js';
import { queryError } from './query-errors.js';
import { readableIssuesCondition, type Sql } from './readable-issues.js';
import { dateInterval, type Interval } from './search-dates.js';
import {
  and,
  type Condition,
  FALSE,
  leaf,
  not,
  or,
  projectRange,
  render,
  type SortKey,
  TRUE,
} from './search-plan.js';
import { type TextColumn, type TextPart, textLeaf, textPart } from './search-text.js';
import {
  BUILTIN_ATTRIBUTES,
  type BuiltinAttribute,
  type LinkPhrase,
  loadSearchVocabulary,
  type SearchField,
  type SearchVocabulary,
  SORT_BUILTINS,
} from './search-vocabulary.js';

export type SearchContext = { dialect: Dialect; timeZone: string; now: number };
export type CompiledQuery = { condition: Condition; sort: SortKey[] };

const bad = (message: string, span?: Span) => queryError(message, span);
/** A user id no row has: a condition on it matches nothing. */
const NOBODY = 0;
/** Saved searches may name saved searches this deep. */
const MAX_SAVED_DEPTH = 3;
/** Open ends of date ranges: year 1 and 9999, which both databases store. */
const FIRST_STORABLE_MS = Date.parse('0001-01-01T00:00:00Z');
const LAST_STORABLE_MS = Date.parse('9999-12-31T00:00:00Z');

/** Parses and resolves a query into a condition on issues `i` and sort keys; 400 naming the first problem. */
export async function compileQuery(
  em: Em,
  actor: Actor,
  query: string,
  context: SearchContext,
): Promise<CompiledQuery> {
  const vocabulary = await loadSearchVocabulary(em, actor);
  const compiler = new QueryCompiler(em, actor, vocabulary, context);
  return compiler.compileText(query, 0);
}

type Group = { positive: Condition[]; negative: Condition[] };

class QueryCompiler {
  private readonly sort: SortKey[] = [];
  private readonly dialect: Dialect;

  constructor(
    private readonly em: Em,
    private readonly actor: Actor,
    private readonly vocabulary: SearchVocabulary,
    private readonly context: SearchContext,
  ) {
    this.dialect = context.dialect;
  }

  async compileText(query: string, depth: number): Promise<CompiledQuery> {
    const parsed = parseQuery(query, this.vocabulary.lexicon);
    const [first] = parsed.diagnostics;
    if (first) throw bad(first.message, first);
    const condition = await this.node(parsed.root, depth);
    return { condition, sort: this.sort };
  }

  private async node(node: QueryNode, depth: number): Promise<Condition> {
    switch (node.kind) {
      case 'empty':
        return TRUE;
      case 'or':
        return or(await Promise.all(node.operands.map((o) => this.node(o, depth))));
      case 'and':
        return and(await Promise.all(node.operands.map((o) => this.node(o, depth))));
      case 'term':
        return this.term(node.items, depth);
    }
  }

  /**
   * Term ::= TermItem+: filters and `#values` of one attribute are alternatives, exclusions and
   * everything else must all hold; text words are one full-text condition.
   */
  private async term(items: TermItem[], depth: number): Promise<Condition> {
    const groups = new Map<string, Group>();
    const group = (key: string) => {
      let g = groups.get(key);
      if (!g) {
        g = { positive: [], negative: [] };
        groups.set(key, g);
      }
      return g;
    };
    const all: Condition[] = [];
    const text: TextPart[] = [];
    for (const item of items) {
      switch (item.kind) {
        case 'text': {
          const id =
            !item.phrase && !item.negated && ISSUE_ID_PATTERN.test(item.text)
              ? await this.issueById(item.text)
              : null;
          if (id) {
            group('issue id').positive.push(id);
            break;
          }
          const part = textPart(item.text, item.phrase);
          if (!part) break;
          if (item.negated) all.push(not(textLeaf(this.dialect, [part])));
          else text.push(part);
          break;
        }
        case 'single': {
          const found = await this.singleValue(item.value);
          if (item.negated) group(found.key).negative.push(found.condition);
          else group(found.key).positive.push(found.condition);
          break;
        }
        case 'filter': {
          const g = group(this.attributeKey(item.attribute.key));
          for (const filter of item.filters) {
            const condition = await this.filter(item.attribute, filter, depth);
            if (filter.kind !== 'query' && filter.negated) g.negative.push(condition);
            else g.positive.push(condition);
          }
          break;
        }
        case 'has':
          for (const attribute of item.attributes) {
            const condition = await this.has(attribute);
            all.push(attribute.negated ? not(condition) : condition);
          }
          break;
        case 'sort':
          for (const field of item.fields) this.sort.push(await this.sortKey(field));
          break;
      }
    }
    if (text.length) all.push(textLeaf(this.dialect, text));
    for (const g of groups.values()) {
      if (g.positive.length) all.push(or(g.positive));
      for (const n of g.negative) all.push(not(n));
    }
    return and(all);
  }

  /** Aliases group with their attribute: `for: a assigned to: b` are alternatives. */
  private attributeKey(key: string): string {
    const builtin = BUILTIN_ATTRIBUTES[key];
    if (builtin === 'assignee') return 'assignee';
    return builtin && !this.vocabulary.fields.has(key) ? builtin : key;
  }

  private async filter(
    attribute: Span & { name: string; key: string },
    filter: AttributeFilter,
    depth: number,
  ): Promise<Condition> {
    const field = this.fieldNamed(attribute.key);
    const builtin = BUILTIN_ATTRIBUTES[attribute.key];
    const links = this.vocabulary.links.get(attribute.key);
    if (filter.kind === 'query') {
      if (links) return this.linkedTo(links, await this.subquery(filter.query, depth));
      if (builtin === 'links') return this.linkedTo(undefined, await this.subquery(filter.query, depth));
      throw bad(`${at(attribute.name, attribute)} takes values, not a (query)`, attribute);
    }
    if (builtin && builtin !== 'assignee' && (!field || builtin === 'project'))
      return this.builtin(builtin, attribute, filter, depth);
    if (field) return this.field(field, filter);
    if (builtin === 'assignee') {
      const assignee = this.vocabulary.fields.get('assignee');
      if (assignee) return this.field(assignee, filter);
      return FALSE;
    }
    if (links) return this.linkedTo(links, await this.issueValues(attribute, filter));
    throw bad(`Unknown search attribute ${at(attribute.name, attribute)}`, attribute);
  }

  private async subquery(node: QueryNode, depth: number): Promise<Sql> {
    const condition = render(await this.node(node, depth));
    const readable = readableIssuesCondition(this.actor, 'i') ?? { sql: '1 = 0', params: [] };
    // The linked issues' own statement, with its own permission condition (aliases are scoped).
    return {
      sql: `select i.id from issues i where ${condition.sql} and ${readable.sql}`,
      params: [...condition.params, ...readable.params],
    };
  }

  private value(filter: AttributeFilter, attribute: Span & { name: string }): QueryValue {
    if (filter.kind !== 'value') throw bad(`${at(attribute.name, attribute)} takes no range`, attribute);
    return filter.value;
  }

  private async builtin(
    kind: BuiltinAttribute,
    attribute: Span & { name: string },
    filter: AttributeFilter,
    depth: number,
  ): Promise<Condition> {
    switch (kind) {
      case 'project': {
        const value = this.value(filter, attribute);
        const ids = await this.projectIds(value.text);
        if (ids.length === 0) throw bad(`Unknown project ${at(value.text, value)}`, value);
        return leaf(
          { sql: `i.project_id in (${placeholders(ids)})`, params: ids },
          ids.length === 1 ? projectRange(ids) : undefined,
        );
      }
      case 'issueId': {
        const value = this.value(filter, attribute);
        if (!parseIssueId(value.text)) throw bad(`Malformed issue id ${at(value.text, value)}`, value);
        return (await this.issueById(value.text)) ?? FALSE;
      }
      case 'summary':
      case 'description':
      case 'comments':
        return this.textIn(kind, filter, attribute);
      case 'reporter': {
        const ids = await this.userIds(this.value(filter, attribute));
        const id = ids[0] ?? NOBODY;
        return leaf(
          { sql: 'i.reporter_id = ?', params: [id] },
          { from: 'issues d', id: 'd.id', where: { sql: 'd.reporter_id = ?', params: [id] }, ordered: true },
        );
      }
      case 'commenter': {
        const [id = NOBODY] = await this.userIds(this.value(filter, attribute));
        const visible = visibleCommentsSql(this.actor);
        return leaf({
          sql: `exists (select 1 from issue_comments c where c.issue_id = i.id and c.author_id = ? and c.deleted = ? and ${visible.sql})`,
          params: [id, false, ...visible.params],
        });
      }
      case 'created':
      case 'updated':
      case 'resolved': {
        const column = { created: 'created_at', updated: 'updated_at', resolved: 'resolved_at' }[kind];
        const interval = this.interval(filter);
        const time = (ms: number) => (this.dialect === 'sqlite' ? ms : new Date(ms));
        const where = (alias: string) => ({
          sql: `${alias}.${column} >= ? and ${alias}.${column} < ?`,
          params: [time(interval.from), time(interval.to)],
        });
        return leaf(where('i'), { from: 'issues d', id: 'd.id', where: where('d'), ordered: false });
      }
      case 'tag': {
        const value = this.value(filter, attribute);
        const ids = await this.tagIds(value.text);
        // Every user has a Star tag (the star, issues/tags/tag-lookup.ts): unstarred, it tags nothing.
        if (ids.length === 0 && value.text.toLowerCase() !== STAR_TAG.toLowerCase())
          throw bad(`Unknown tag ${at(value.text, value)}`, value);
        return ids.length === 0 ? FALSE : this.tagged(ids);
      }
      case 'savedSearch': {
        const value = this.value(filter, attribute);
        if (depth >= MAX_SAVED_DEPTH)
          throw bad(`Saved searches name each other too deeply ${at(value.text, value)}`, value);
        const [saved] = await readRows<{ query: string }>(
          this.em,
          'select query from saved_searches where name_key = ? and (owner_id = ? or shared = ?) order by owner_id = ? desc',
          [normalize(value.text), this.actor.userId, true, this.actor.userId],
        );
        if (!saved) throw bad(`Unknown saved search ${at(value.text, value)}`, value);
        const inner = new QueryCompiler(this.em, this.actor, this.vocabulary, this.context);
        return (await inner.compileText(saved.query, depth + 1)).condition;
      }
      case 'links':
        return this.linkedTo(undefined, await this.issueValues(attribute, filter));
      case 'votes': {
        const range = this.numberRange(filter, attribute);
        return leaf({
          sql: `(select count(*) from issue_votes v where v.issue_id = i.id) between ? and ?`,
          params: [range.from, range.to],
        });
      }
      case 'visibleTo': {
        // The issue's own visibility group (`permittedGroup`); the caller's readable issues only,
        // as every condition. A group name the caller cannot know matches nothing, never errs.
        const value = this.value(filter, attribute);
        const [group] = await readRows<{ id: number }>(
          this.em,
          'select id from user_groups where name_key = ?',
          [groupNameKey(value.text)],
        );
        if (!group) return FALSE;
        return leaf({ sql: 'i.permitted_group_id = ?', params: [Number(group.id)] });
      }
      case 'assignee':
        return FALSE;
    }
  }

  private textIn(column: TextColumn, filter: AttributeFilter, attribute: Span & { name: string }): Condition {
    const value = this.value(filter, attribute);
    const part = textPart(value.text, value.braced);
    return part ? textLeaf(this.dialect, [part], column) : TRUE;
  }

  private interval(filter: AttributeFilter): Interval {
    const one = (bound: Bound, end: 'from' | 'to'): number => {
      if ('open' in bound) return end === 'from' ? FIRST_STORABLE_MS : LAST_STORABLE_MS;
      const interval = dateInterval(bound.text, this.context.now, this.context.timeZone);
      if (!interval)
        throw bad(`Not a date ${at(bound.text, bound)}: use YYYY-MM-DD, Today, {This week}…`, bound);
      return interval[end];
    };
    if (filter.kind === 'value') return { from: one(filter.value, 'from'), to: one(filter.value, 'to') };
    if (filter.kind === 'range') return { from: one(filter.from, 'from'), to: one(filter.to, 'to') };
    throw bad('a date takes no (query)');
  }

  private numberRange(
    filter: AttributeFilter,
    attribute: Span & { name: string },
  ): { from: number; to: number } {
    const one = (bound: Bound, open: number): number => {
      if ('open' in bound) return open;
      const n = Number(bound.text);
      if (!/^-?\d{1,15}$/.test(bound.text))
        throw bad(`Not a number ${at(bound.text, bound)} for ${attribute.name}`, bound);
      return n;
    };
    if (filter.kind === 'value') {
      const n = one(filter.value, 0);
      return { from: n, to: n };
    }
    if (filter.kind === 'range')
      return { from: one(filter.from, Number.MIN_SAFE_INTEGER), to: one(filter.to, Number.MAX_SAFE_INTEGER) };
    throw bad(`${attribute.name} takes no (query)`);
  }

  // --- fields ---------------------------------------------------------------------------------

  /**
   * The value rows (alias) of the field, inside a sub-query of the issue `i`; for a private field
   * the caller reads in some projects only, not those of the other projects' issues.
   */
  private fieldIn(field: SearchField, alias: string): Sql {
    const keys = { sql: `${alias}.field_key in (${placeholders(field.fieldKeys)})`, params: field.fieldKeys };
    if (field.hiddenProjectIds.length === 0) return keys;
    return {
      sql: `${keys.sql} and i.project_id not in (${placeholders(field.hiddenProjectIds)})`,
      params: [...keys.params, ...field.hiddenProjectIds],
    };
  }

  /** The field holds a value matching `where` (a condition on the value row `x`). */
  private holds(field: SearchField, where: Sql, driverWhere?: Sql): Condition {
    const f = this.fieldIn(field, 'x');
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
  private present(field: SearchField): Condition {
    const f = this.fieldIn(field, 'x');
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

  private empty(field: SearchField): Condition {
    const f = this.fieldIn(field, 'x');
    return leaf({
      sql: `not exists (select 1 from issue_field_values x where x.issue_id = i.id and ${f.sql})`,
      params: f.params,
    });
  }

  private async field(field: SearchField, filter: AttributeFilter): Promise<Condition> {
    if (filter.kind === 'query') throw bad(`${field.name} takes values, not a (query)`);
    const kinds = [...field.kinds];
    if (filter.kind === 'value') {
      const key = normalize(filter.value.text);
      if (field.emptyTexts.has(key) || (key === 'unassigned' && field.kinds.has('user')))
        return this.empty(field);
      if (field.kinds.has('state') && (key === 'resolved' || key === 'unresolved'))
        return resolvedCondition(key === 'resolved');
    }
    const simple = kinds.find((k): k is SimpleKind => !isBundleKind(k));
    if (simple) return this.simpleField(field, simple, filter);
    if (field.kinds.has('user')) {
      if (filter.kind !== 'value')
        throw bad(`${field.name} takes no range ${at(field.name, filter)}`, filter);
      const [id = NOBODY] = await this.userIds(filter.value);
      return this.holds(
        field,
        { sql: 'x.user_id = ?', params: [id] },
        { sql: 'd.user_id = ?', params: [id] },
      );
    }
    const keys = await this.bundleValueKeys(field, filter);
    if (keys.length === 1) {
      return this.holds(
        field,
        { sql: 'x.value_key = ?', params: keys },
        { sql: 'd.value_key = ?', params: keys },
      );
    }
    return this.holds(field, { sql: `x.value_key in (${placeholders(keys)})`, params: keys });
  }

  /** A value of a bundle field, or the values between two of them in bundle order. */
  private async bundleValueKeys(
    field: SearchField,
    filter: AttributeFilter & { kind: 'value' | 'range' },
  ): Promise<string[]> {
    if (field.bundleIds.length === 0) throw bad(`${field.name} has no values`);
    const bundles = placeholders(field.bundleIds);
    const ordinal = async (bound: Bound): Promise<number | null> => {
      if ('open' in bound) return null;
      const [row] = await readRows<{ ordinal: number }>(
        this.em,
        `select min(ordinal) as ordinal from field_values where bundle_id in (${bundles}) and name_key = ?`,
        [...field.bundleIds, normalize(bound.text)],
      );
      if (row?.ordinal === null || row?.ordinal === undefined)
        throw bad(`Unknown value ${at(bound.text, bound)} of field [ ${field.name} ]`, bound);
      return Number(row.ordinal);
    };
    if (filter.kind === 'value') {
      await ordinal(filter.value);
      return [normalize(filter.value.text)];
    }
    const from = (await ordinal(filter.from)) ?? Number.MIN_SAFE_INTEGER;
    const to = (await ordinal(filter.to)) ?? Number.MAX_SAFE_INTEGER;
    const rows = await readRows<{ name_key: string }>(
      this.em,
      `select distinct name_key from field_values where bundle_id in (${bundles}) and ordinal between ? and ?`,
      [...field.bundleIds, from, to],
    );
    return rows.length ? rows.map((r) => r.name_key) : ['\u0000'];
  }

  private simpleField(
    field: SearchField,
    kind: SimpleKind,
    filter: AttributeFilter & { kind: 'value' | 'range' },
  ): Condition {
    if (kind === 'string' || kind === 'text') {
      if (filter.kind !== 'value') throw bad(`${field.name} takes no range`);
      return this.holds(field, {
        sql: 'lower(x.text) = ?',
        params: [filter.value.text.trim().toLowerCase()],
      });
    }
    const bound = (b: Bound, end: 'from' | 'to'): number | null => {
      if ('open' in b) return null;
      if (kind === 'date') {
        const interval = dateInterval(b.text, this.context.now, this.context.timeZone);
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
    return this.holds(field, {
      sql: parts.map((p) => p.sql).join(' and '),
      params: parts.flatMap((p) => p.params),
    });
  }

  // --- lookups --------------------------------------------------------------------------------

  private async projectIds(text: string): Promise<number[]> {
    const projects = this.vocabulary.projects;
    if (projects !== 'all' && projects.length === 0) return [];
    const scoped = projects === 'all' ? '' : ` and id in (${placeholders(projects)})`;
    const rows = await readRows<{ id: number }>(
      this.em,
      `select id from projects where (short_name_key = ? or name_key = ?)${scoped}`,
      [text.trim().toUpperCase(), normalize(text), ...(projects === 'all' ? [] : projects)],
    );
    return rows.map((r) => Number(r.id));
  }

  /** `PRJ-12` in a readable project; null when there is no such project. */
  private async issueById(text: string): Promise<Condition | null> {
    const parsed = parseIssueId(text);
    if (!parsed) return null;
    const [projectId] = await this.projectIds(parsed.shortNameKey);
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
  private async userIds(value: QueryValue): Promise<number[]> {
    const key = normalize(value.text);
    if (key === 'me') return [this.actor.userId];
    const rows = await readRows<{ id: number }>(this.em, 'select id from users where login_key = ?', [key]);
    if (rows[0]) return [Number(rows[0].id)];
    if (can(this.actor, 'READ_USER')) throw bad(`Unknown user ${at(value.text, value)}`, value);
    return [NOBODY];
  }

  private async tagIds(name: string): Promise<number[]> {
    const rows = await readRows<{ id: number }>(
      this.em,
      'select id from tags where name_key = ? and (owner_id = ? or shared = ?)',
      [normalize(name), this.actor.userId, true],
    );
    return rows.map((r) => Number(r.id));
  }

  private tagged(ids: number[]): Condition {
    return leaf(
      {
        sql: `exists (select 1 from issue_tags t where t.issue_id = i.id and t.tag_id in (${placeholders(ids)}))`,
        params: ids,
      },
      ids.length === 1
        ? {
            from: 'issue_tags d',
            id: 'd.issue_id',
            where: { sql: 'd.tag_id = ?', params: ids },
            ordered: true,
          }
        : undefined,
    );
  }

  // --- links ----------------------------------------------------------------------------------

  private async issueValues(attribute: Span & { name: string }, filter: AttributeFilter): Promise<Sql> {
    const value = this.value(filter, attribute);
    const parsed = parseIssueId(value.text);
    if (!parsed)
      throw bad(`${attribute.name} takes an issue id or a (query) ${at(value.text, value)}`, value);
    const [projectId] = await this.projectIds(parsed.shortNameKey);
    if (projectId === undefined) throw bad(`Unknown issue ${at(value.text, value)}`, value);
    return {
      sql: 'select id from issues where project_id = ? and number_in_project = ?',
      params: [projectId, parsed.number],
    };
  }

  /** Linked by one of `phrases` (any link type when undefined) to an issue of `targets`. */
  private linkedTo(phrases: LinkPhrase[] | undefined, targets: Sql): Condition {
    const conditions: Condition[] = [];
    const direction = (typeId: number | null, outward: boolean) => {
      const [self, other] = outward ? ['source_id', 'target_id'] : ['target_id', 'source_id'];
      const type = typeId === null ? '' : ' and l.type_id = ?';
      conditions.push(
        leaf({
          sql: `exists (select 1 from issue_links l where l.${self} = i.id${type} and l.${other} in (${targets.sql}))`,
          params: [...(typeId === null ? [] : [typeId]), ...targets.params],
        }),
      );
    };
    if (!phrases) {
      direction(null, true);
      direction(null, false);
    }
    for (const p of phrases ?? []) {
      direction(p.typeId, p.outward);
      if (p.symmetric) direction(p.typeId, !p.outward);
    }
    return or(conditions);
  }

  // --- #value, has:, sort by: ---------------------------------------------------------------

  /** `#value` / `-value`: a keyword, a value or empty text of a field, a tag, a project, a user. */
  private async singleValue(value: QueryValue): Promise<{ key: string; condition: Condition }> {
    const key = normalize(value.text);
    if (key === 'unresolved' || key === 'resolved')
      return { key: 'resolved', condition: resolvedCondition(key === 'resolved') };
    if (key === 'me') return { key: 'me', condition: await this.userMentioned(this.actor.userId) };
    const found: { key: string; condition: Condition }[] = [];
    for (const field of this.vocabulary.fields.values()) {
      if (field.emptyTexts.has(key)) found.push({ key: field.key, condition: this.empty(field) });
    }
    const projects = this.vocabulary.projects;
    const scoped =
      projects === 'all'
        ? ''
        : projects.length
          ? ` and pf.project_id in (${placeholders(projects)})`
          : ' and 1 = 0';
    const values = await readRows<{ name_key: string }>(
      this.em,
      `select distinct pf.name_key from field_values fv join project_fields pf on pf.bundle_id = fv.bundle_id where fv.name_key = ?${scoped}`,
      [key, ...(projects === 'all' ? [] : projects)],
    );
    for (const v of values) {
      const field = this.vocabulary.fields.get(v.name_key);
      if (field && !field.kinds.has('user'))
        found.push({
          key: field.key,
          condition: await this.field(field, {
            kind: 'value',
            value,
            negated: false,
            start: value.start,
            end: value.end,
          }),
        });
    }
    const tags = await this.tagIds(key);
    if (tags.length) found.push({ key: 'tag', condition: this.tagged(tags) });
    const projectIds = await this.projectIds(value.text);
    if (projectIds.length)
      found.push({
        key: 'project',
        condition: leaf({ sql: `i.project_id in (${placeholders(projectIds)})`, params: projectIds }),
      });
    if (found.length === 0) {
      const [user] = await readRows<{ id: number }>(this.em, 'select id from users where login_key = ?', [
        key,
      ]);
      if (user) found.push({ key: `#${key}`, condition: await this.userMentioned(Number(user.id)) });
    }
    if (found.length === 0) throw bad(`Unknown value ${at(value.text, value)}`, value);
    const keys = new Set(found.map((f) => f.key));
    return {
      key: keys.size === 1 ? (found[0] as { key: string }).key : `#${key}`,
      condition: or(found.map((f) => f.condition)),
    };
  }

  /** `#me`, `#login`: issues the user reported or is assigned to (any user field). */
  private async userMentioned(userId: number): Promise<Condition> {
    const userFields = [...this.vocabulary.fields.values()].filter((f) => f.kinds.has('user'));
    const conditions: Condition[] = [leaf({ sql: 'i.reporter_id = ?', params: [userId] })];
    for (const field of userFields)
      conditions.push(this.holds(field, { sql: 'x.user_id = ?', params: [userId] }));
    return or(conditions);
  }

  private async has(attribute: HasAttribute): Promise<Condition> {
    const visible = visibleCommentsSql(this.actor);
    switch (attribute.key) {
      case 'attachments': {
        const files = visibleAttachmentsSql(this.actor);
        return leaf({
          sql: `exists (select 1 from issue_attachments a where a.issue_id = i.id and ${files.sql})`,
          params: files.params,
        });
      }
      case 'comments':
        return leaf({
          sql: `exists (select 1 from issue_comments c where c.issue_id = i.id and c.deleted = ? and ${visible.sql})`,
          params: [false, ...visible.params],
        });
      case 'description':
        return leaf({ sql: "i.description <> ''", params: [] });
      case 'links':
        return this.linkedTo(undefined, { sql: 'select id from issues', params: [] });
      case 'votes':
        return leaf({ sql: 'exists (select 1 from issue_votes v where v.issue_id = i.id)', params: [] });
      case 'star':
        return leaf({
          sql: 'exists (select 1 from issue_stars s where s.issue_id = i.id and s.user_id = ?)',
          params: [this.actor.userId],
        });
      case 'tags':
      case 'tag':
        return leaf({
          sql: 'exists (select 1 from issue_tags t join tags g on g.id = t.tag_id where t.issue_id = i.id and (g.owner_id = ? or g.shared = ?))',
          params: [this.actor.userId, true],
        });
    }
    const field = this.fieldNamed(attribute.key);
    if (field) return this.present(field);
    const links = this.vocabulary.links.get(attribute.key);
    if (links) return this.linkedTo(links, { sql: 'select id from issues', params: [] });
    throw bad(`Unknown attribute of has: ${at(attribute.name, attribute)}`, attribute);
  }

  /** A field by its name or one of its prototype's aliases. */
  private fieldNamed(key: string): SearchField | undefined {
    return this.vocabulary.fields.get(key) ?? this.vocabulary.aliases.get(key);
  }

  private async sortKey(field: SortField): Promise<SortKey> {
    const builtin = SORT_BUILTINS[field.key];
    const known = this.fieldNamed(field.key);
    if (builtin && !known) {
      const column = BUILTIN_COLUMNS[builtin.kind];
      return {
        sql: this.builtinSort(builtin.kind),
        direction: field.direction ?? builtin.direction,
        ...(column ? { column } : {}),
      };
    }
    if (!known) throw bad(`Cannot sort by ${at(field.name, field)}`, field);
    const f = this.fieldIn(known, 'x');
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
      const ordinals = await this.bundleOrdinals(known);
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
        ...(known.singleValued ? { positions: this.positions(known, ordinals) } : {}),
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
  private async bundleOrdinals(field: SearchField): Promise<{ key: string; ordinal: number }[] | undefined> {
    if (field.bundleIds.length === 0) return undefined;
    const rows = await readRows<{ name_key: string; ordinal: number }>(
      this.em,
      `select name_key, min(ordinal) as ordinal from field_values where bundle_id in (${placeholders(field.bundleIds)}) group by name_key order by 2, 1 limit ${MAX_SPELLED_ORDINALS + 1}`,
      field.bundleIds,
    );
    if (rows.length === 0 || rows.length > MAX_SPELLED_ORDINALS) return undefined;
    return rows.map((r) => ({ key: r.name_key, ordinal: Math.trunc(Number(r.ordinal)) }));
  }

  /**
   * The sort key of a single-valued bundle field as conditions, one per position (values named
   * alike in several bundles share their first position), first position first. An issue with no
   * value, or a value of no listed position, holds none of them: its key is null (sorted last).
   */
  private positions(field: SearchField, ordinals: { key: string; ordinal: number }[]): Condition[] {
    const keysAt = new Map<number, string[]>();
    for (const { key, ordinal } of ordinals) keysAt.set(ordinal, [...(keysAt.get(ordinal) ?? []), key]);
    return [...keysAt.values()].map((keys) =>
      keys.length === 1
        ? this.holds(
            field,
            { sql: 'x.value_key = ?', params: keys },
            { sql: 'd.value_key = ?', params: keys },
          )
        : this.holds(field, { sql: `x.value_key in (${placeholders(keys)})`, params: keys }),
    );
  }

  private builtinSort(kind: string): Sql {
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
      case 'comments':
        return sql('(select count(*) from issue_comments c where c.issue_id = i.id and c.deleted = false)');
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
}

/** Sort keys that are a column of `issues` listed in order by an index of its own (with ties by id). */
const BUILTIN_COLUMNS: Record<string, 'created_at' | 'updated_at'> = {
  created: 'created_at',
  updated: 'updated_at',
};

/** Bundles of up to this many values sort by a spelled-out position of each value's key. */
const MAX_SPELLED_ORDINALS = 200;

function resolvedCondition(resolved: boolean): Condition {
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
