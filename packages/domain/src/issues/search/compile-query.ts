import { ISSUE_ID_PATTERN } from '@trackline/contracts';
import type { Actor } from '../../auth/actor.js';
import type { Em } from '../../orm/em.js';
import { placeholders } from '../../orm/sql-fragments.js';
import {
  type AttributeFilter,
  at,
  type HasAttribute,
  normalize,
  parseQuery,
  type QueryNode,
  type QueryValue,
  type Span,
  type TermItem,
} from '../../query/query-parser.js';
import { parseIssueId } from '../issue-id.js';
import { dateCondition } from './compile/date-terms.js';
import { empty, fieldCondition, present, resolvedCondition } from './compile/field-terms.js';
import { ANY_ISSUE, linkedTo, namedIssue } from './compile/link-terms.js';
import {
  fieldsWithValue,
  issueById,
  projectIds,
  savedSearchQuery,
  tagIds,
  userIdByLogin,
} from './compile/lookups.js';
import {
  hasAttachments,
  hasComments,
  hasStar,
  hasTags,
  hasVotes,
  tagCondition,
  tagged,
  visibleToCondition,
  votesCondition,
} from './compile/mark-terms.js';
import {
  bad,
  type CompileScope,
  fieldNamed,
  type Named,
  type SearchContext,
  singleValueOf,
} from './compile/scope.js';
import { sortKey } from './compile/sort-keys.js';
import { hasDescription, textIn } from './compile/text-terms.js';
import { commenterCondition, reporterCondition, userMentioned } from './compile/user-terms.js';
import {
  and,
  type Condition,
  FALSE,
  leaf,
  not,
  or,
  projectRange,
  type SortKey,
  TRUE,
} from './search-plan.js';
import { type TextPart, textLeaf, textPart } from './search-text.js';
import { BUILTIN_ATTRIBUTES, type BuiltinAttribute, loadSearchVocabulary } from './search-vocabulary.js';

export type { SearchContext };
export type CompiledQuery = { condition: Condition; sort: SortKey[] };

/**
 * The query's structure (terms, alternatives, exclusions, saved searches) and the dispatch of
 * each attribute to its family in `compile/`: fields, users, text, dates, links, marks (tags,
 * stars, votes, comments, attachments) and sort keys. Each family applies its own read rule in
 * one place (named at the top of its file); every condition is also inside the statement's
 * permission condition (readable-issues.ts).
 */

/** Saved searches may name saved searches this deep. */
const MAX_SAVED_DEPTH = 3;

/** Parses and resolves a query into a condition on issues `i` and sort keys; 400 naming the first problem. */
export async function compileQuery(
  em: Em,
  actor: Actor,
  query: string,
  context: SearchContext,
): Promise<CompiledQuery> {
  const vocabulary = await loadSearchVocabulary(em, actor);
  const compiler = new QueryCompiler({ em, actor, vocabulary, context, dialect: context.dialect });
  return compiler.compileText(query, 0);
}

type Group = { positive: Condition[]; negative: Condition[] };

class QueryCompiler {
  private readonly sort: SortKey[] = [];

  constructor(private readonly scope: CompileScope) {}

  async compileText(query: string, depth: number): Promise<CompiledQuery> {
    const parsed = parseQuery(query, this.scope.vocabulary.lexicon);
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
              ? await issueById(this.scope, item.text)
              : null;
          if (id) {
            group('issue id').positive.push(id);
            break;
          }
          const part = textPart(item.text, item.phrase);
          if (!part) break;
          if (item.negated) all.push(not(textLeaf(this.scope.dialect, [part])));
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
            const condition = this.has(attribute);
            all.push(attribute.negated ? not(condition) : condition);
          }
          break;
        case 'sort':
          for (const field of item.fields) this.sort.push(await sortKey(this.scope, field));
          break;
      }
    }
    if (text.length) all.push(textLeaf(this.scope.dialect, text));
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
    return builtin && !this.scope.vocabulary.fields.has(key) ? builtin : key;
  }

  private async filter(
    attribute: Span & { name: string; key: string },
    filter: AttributeFilter,
    depth: number,
  ): Promise<Condition> {
    const field = fieldNamed(this.scope, attribute.key);
    const builtin = BUILTIN_ATTRIBUTES[attribute.key];
    const links = this.scope.vocabulary.links.get(attribute.key);
    if (filter.kind === 'query') {
      if (links) return linkedTo(this.scope, links, await this.node(filter.query, depth));
      if (builtin === 'links') return linkedTo(this.scope, undefined, await this.node(filter.query, depth));
      throw bad(`${at(attribute.name, attribute)} takes values, not a (query)`, attribute);
    }
    if (builtin && builtin !== 'assignee' && (!field || builtin === 'project'))
      return this.builtin(builtin, attribute, filter, depth);
    if (field) return fieldCondition(this.scope, field, filter);
    if (builtin === 'assignee') {
      const assignee = this.scope.vocabulary.fields.get('assignee');
      if (assignee) return fieldCondition(this.scope, assignee, filter);
      return FALSE;
    }
    if (links) return linkedTo(this.scope, links, await namedIssue(this.scope, attribute, filter));
    throw bad(`Unknown search attribute ${at(attribute.name, attribute)}`, attribute);
  }

  private async builtin(
    kind: BuiltinAttribute,
    attribute: Named,
    filter: AttributeFilter,
    depth: number,
  ): Promise<Condition> {
    switch (kind) {
      case 'project': {
        const value = singleValueOf(filter, attribute);
        const ids = await projectIds(this.scope, value.text);
        if (ids.length === 0) throw bad(`Unknown project ${at(value.text, value)}`, value);
        return leaf(
          { sql: `i.project_id in (${placeholders(ids)})`, params: ids },
          ids.length === 1 ? projectRange(ids) : undefined,
        );
      }
      case 'issueId': {
        const value = singleValueOf(filter, attribute);
        if (!parseIssueId(value.text)) throw bad(`Malformed issue id ${at(value.text, value)}`, value);
        return (await issueById(this.scope, value.text)) ?? FALSE;
      }
      case 'summary':
      case 'description':
      case 'comments':
        return textIn(this.scope, kind, attribute, filter);
      case 'reporter':
        return reporterCondition(this.scope, attribute, filter);
      case 'commenter':
        return commenterCondition(this.scope, attribute, filter);
      case 'created':
      case 'updated':
      case 'resolved':
        return dateCondition(this.scope, kind, filter);
      case 'tag':
        return tagCondition(this.scope, attribute, filter);
      case 'savedSearch':
        return this.savedSearch(attribute, filter, depth);
      case 'links':
        return linkedTo(this.scope, undefined, await namedIssue(this.scope, attribute, filter));
      case 'votes':
        return votesCondition(attribute, filter);
      case 'visibleTo':
        return visibleToCondition(this.scope, attribute, filter);
      case 'assignee':
        return FALSE;
    }
  }

  /** `saved search: name`: the caller's own or a shared saved search's query, compiled in place. */
  private async savedSearch(attribute: Named, filter: AttributeFilter, depth: number): Promise<Condition> {
    const value = singleValueOf(filter, attribute);
    if (depth >= MAX_SAVED_DEPTH)
      throw bad(`Saved searches name each other too deeply ${at(value.text, value)}`, value);
    const query = await savedSearchQuery(this.scope, value.text);
    if (query === undefined) throw bad(`Unknown saved search ${at(value.text, value)}`, value);
    const inner = new QueryCompiler(this.scope);
    return (await inner.compileText(query, depth + 1)).condition;
  }

  /** `#value` / `-value`: a keyword, a value or empty text of a field, a tag, a project, a user. */
  private async singleValue(value: QueryValue): Promise<{ key: string; condition: Condition }> {
    const key = normalize(value.text);
    if (key === 'unresolved' || key === 'resolved')
      return { key: 'resolved', condition: resolvedCondition(key === 'resolved') };
    if (key === 'me') return { key: 'me', condition: userMentioned(this.scope, this.scope.actor.userId) };
    const found: { key: string; condition: Condition }[] = [];
    for (const field of this.scope.vocabulary.fields.values()) {
      if (field.emptyTexts.has(key)) found.push({ key: field.key, condition: empty(field) });
    }
    for (const name of await fieldsWithValue(this.scope, key)) {
      const field = this.scope.vocabulary.fields.get(name);
      if (field && !field.kinds.has('user'))
        found.push({
          key: field.key,
          condition: await fieldCondition(this.scope, field, {
            kind: 'value',
            value,
            negated: false,
            start: value.start,
            end: value.end,
          }),
        });
    }
    const tags = await tagIds(this.scope, key);
    if (tags.length) found.push({ key: 'tag', condition: tagged(tags) });
    const projects = await projectIds(this.scope, value.text);
    if (projects.length)
      found.push({
        key: 'project',
        condition: leaf({ sql: `i.project_id in (${placeholders(projects)})`, params: projects }),
      });
    if (found.length === 0) {
      const user = await userIdByLogin(this.scope, key);
      if (user !== undefined) found.push({ key: `#${key}`, condition: userMentioned(this.scope, user) });
    }
    if (found.length === 0) throw bad(`Unknown value ${at(value.text, value)}`, value);
    const keys = new Set(found.map((f) => f.key));
    return {
      key: keys.size === 1 ? (found[0] as { key: string }).key : `#${key}`,
      condition: or(found.map((f) => f.condition)),
    };
  }

  private has(attribute: HasAttribute): Condition {
    switch (attribute.key) {
      case 'attachments':
        return hasAttachments(this.scope);
      case 'comments':
        return hasComments(this.scope);
      case 'description':
        return hasDescription();
      case 'links':
        return linkedTo(this.scope, undefined, ANY_ISSUE);
      case 'votes':
        return hasVotes();
      case 'star':
        return hasStar(this.scope);
      case 'tags':
      case 'tag':
        return hasTags(this.scope);
    }
    const field = fieldNamed(this.scope, attribute.key);
    if (field) return present(field);
    const links = this.scope.vocabulary.links.get(attribute.key);
    if (links) return linkedTo(this.scope, links, ANY_ISSUE);
    throw bad(`Unknown attribute of has: ${at(attribute.name, attribute)}`, attribute);
  }
}
