import { type Actor, can, projectsWith } from '../../auth/actor.js';
import { readableIssuesSql } from '../../auth/issue-access.js';
import { escapeHtml } from '../../commands/candidates.js';
import type { Suggestion } from '../../commands/result.js';
import type { Em } from '../../orm/em.js';
import { placeholders } from '../../orm/sql-fragments.js';
import {
  HAS_ATTRIBUTE,
  parseQuery,
  type QueryNode,
  SORT_ATTRIBUTES,
  type Span,
} from '../../query/query-parser.js';
import { compileQuery } from './compile-query.js';
import { querySpanOf } from './query-errors.js';
import { RELATIVE_DATES } from './search-dates.js';
import { searchDialect, searchSettingsOf } from './search-engine.js';
import {
  BUILTIN_ATTRIBUTES,
  HAS_VALUES,
  hiddenProjectFieldIds,
  loadSearchVocabulary,
  type SearchVocabulary,
  SORT_BUILTINS,
} from './search-vocabulary.js';

/**
 * Completion for the search language (the legacy `GET /rest/issue/intellisense`): what could
 * stand at the caret, from the vocabulary the caller may read (fields and values of readable
 * projects, their short names, visible tags, users), plus the highlighting of the query.
 * Reads only; nothing about unreadable projects or private tags of others is offered.
 */
export type QuerySuggestion = Suggestion & { styleClass: 'field' | 'keyword' | 'value' };
export type QueryRange = { start: number; end: number; style: string };
export type QueryAssist = { ranges: QueryRange[]; items: QuerySuggestion[] };

const USER_ATTRIBUTES = Object.keys(BUILTIN_ATTRIBUTES).filter((a) =>
  ['reporter', 'assignee', 'commenter'].includes(BUILTIN_ATTRIBUTES[a] as string),
);
const DATE_ATTRIBUTES = ['created', 'updated', 'resolved date'];
/** The attribute names offered at a term start (aliases are accepted but not all offered). */
const OFFERED_ATTRIBUTES = [
  'project',
  'for',
  'reported by',
  'by',
  'commenter',
  'tag',
  'issue id',
  'summary',
  'description',
  'comments',
  'created',
  'updated',
  'resolved date',
  'saved search',
  'links',
  'votes',
  HAS_ATTRIBUTE,
];
const KEYWORDS = ['Resolved', 'Unresolved', 'me'];
/** What a state field takes besides its values: `me` names a user, never a state. */
const STATE_KEYWORDS = ['Resolved', 'Unresolved'];
/**
 * Accounts a person may name in a query: people (and root). The built-in ones (guest,
 * deleted_user, system_user, workflow and service accounts) are never offered as completions.
 */
const PERSON_TYPES = `u.type in ('user', 'root')`;
/** Candidates read per kind: completion needs the first few, not every name. */
const LOOKUP_LIMIT = 200;

type Candidate = { option: string; description: string; styleClass: QuerySuggestion['styleClass'] };

/** Where the caret stands: the word being typed, and the attribute it is a value of (if any). */
function caretContext(query: string, caret: number) {
  let start = caret;
  while (start > 0 && !/[\s:,#{]/.test(query.charAt(start - 1))) start--;
  const typed = query.slice(start, caret);
  let before = start - 1;
  while (before >= 0 && query.charAt(before) === ' ') before--;
  const mark = query.charAt(before);
  if (query.charAt(start - 1) === '{' && query.charAt(start - 2) === '#')
    return { start: start - 2, typed, hash: true };
  if (mark === '#' && before === start - 1) return { start: start - 1, typed, hash: true };
  if (mark === ':' || mark === ',') {
    // The attribute: the words before the colon of this term.
    const colon = mark === ':' ? before : query.lastIndexOf(':', before);
    const head = query.slice(0, Math.max(0, colon)).trimEnd();
    const words = head.split(/\s+/).slice(-3);
    return { start, typed, attributeWords: words };
  }
  // A term start: the typed text may continue a multi-word attribute name (`Fix v`).
  const words = query.slice(0, start).trimEnd().split(/\s+/).filter(Boolean).slice(-2);
  return { start, typed, precedingWords: words };
}

async function readableProjects(
  em: Em,
  actor: Actor,
): Promise<{ id: number; short_name: string; name: string }[]> {
  const scope = projectsWith(actor, 'READ_ISSUE');
  if (scope !== 'all' && scope.length === 0) return [];
  const where = scope === 'all' ? '' : ` where id in (${placeholders(scope)})`;
  return em.execute(
    `select id, short_name, name from projects${where} order by short_name_key`,
    scope === 'all' ? [] : scope,
  );
}

/** `and <column> not in (hidden fields)`: private fields the actor may not read are never offered. */
const notHidden = (column: string, hidden: readonly number[]) =>
  hidden.length ? ` and ${column} not in (${placeholders(hidden)})` : '';

async function fieldNames(
  em: Em,
  actor: Actor,
  projectIds: number[],
): Promise<{ name: string; name_key: string; kind: string; empty_text: string | null }[]> {
  if (projectIds.length === 0) return [];
  const hidden = await hiddenProjectFieldIds(em, actor);
  return em.execute(
    'select distinct name, name_key, kind, empty_text from project_fields ' +
      `where project_id in (${placeholders(projectIds)})${notHidden('id', hidden)}`,
    [...projectIds, ...hidden],
  );
}

async function fieldValues(
  em: Em,
  actor: Actor,
  projectIds: number[],
  nameKey?: string,
): Promise<{ name: string; field: string }[]> {
  if (projectIds.length === 0) return [];
  const hidden = await hiddenProjectFieldIds(em, actor);
  const byName = nameKey === undefined ? '' : ' and pf.name_key = ?';
  return em.execute(
    'select distinct fv.name, pf.name as field from field_values fv join project_fields pf on pf.bundle_id = fv.bundle_id ' +
      `where pf.project_id in (${placeholders(projectIds)})${notHidden('pf.id', hidden)}${byName} limit ${LOOKUP_LIMIT}`,
    [...projectIds, ...hidden, ...(nameKey === undefined ? [] : [nameKey])],
  );
}

/**
 * Users the caller may name: everyone with READ_USER, else the caller, and the reporters and
 * user-field values of issues it reads (private fields it may not read left out).
 */
async function users(
  em: Em,
  actor: Actor,
  projectIds: number[],
): Promise<{ login: string; full_name: string }[]> {
  if (can(actor, 'READ_USER'))
    return em.execute(
      `select login, full_name from users u where ${PERSON_TYPES} order by login_key limit ${LOOKUP_LIMIT}`,
    );
  const reported = readableIssuesSql(actor, 'i');
  const valued = readableIssuesSql(actor, 'vi');
  if (projectIds.length === 0 || reported === 'none' || valued === 'none') return [];
  const hidden = await hiddenProjectFieldIds(em, actor);
  return em.execute(
    `select login, full_name from users u where ${PERSON_TYPES} and (u.id = ? or exists (select 1 from issues i where i.reporter_id = u.id ` +
      `and ${reported.sql}) or exists (select 1 from issue_field_values v join issues vi on vi.id = v.issue_id ` +
      `where v.user_id = u.id and ${valued.sql}${notHidden('v.field_id', hidden)})) order by login_key limit ${LOOKUP_LIMIT}`,
    [actor.userId, ...reported.params, ...valued.params, ...hidden],
  );
}

async function tags(em: Em, actor: Actor): Promise<{ name: string }[]> {
  return em.execute(
    `select distinct name from tags where owner_id = ? or shared = true order by name limit ${LOOKUP_LIMIT}`,
    [actor.userId],
  );
}

/** Values of one attribute (`project:`, `for:`, `tag:`, `State:`…). */
async function valuesOf(em: Em, actor: Actor, attribute: string): Promise<Candidate[]> {
  const projects = await readableProjects(em, actor);
  const ids = projects.map((p) => p.id);
  const value = (option: string, description: string): Candidate => ({
    option,
    description,
    styleClass: 'value',
  });
  if (attribute === 'project') return projects.map((p) => value(p.short_name, p.name));
  if (USER_ATTRIBUTES.includes(attribute) || attribute === 'assignee') {
    const found = (await users(em, actor, ids)).map((u) => value(u.login, u.full_name));
    return [value('me', 'Current user'), ...found];
  }
  if (attribute === 'tag') return (await tags(em, actor)).map((t) => value(t.name, 'tag'));
  if (SORT_ATTRIBUTES.includes(attribute)) {
    const fieldKeys = (await fieldNames(em, actor, ids)).map((f) => value(f.name, 'sort by field'));
    return [...Object.keys(SORT_BUILTINS).map((k) => value(k, 'sort key')), ...fieldKeys];
  }
  if (attribute === HAS_ATTRIBUTE) {
    const fieldKeys = (await fieldNames(em, actor, ids)).map((f) => value(f.name, 'has field'));
    return [...HAS_VALUES.map((k) => value(k, 'has')), ...fieldKeys];
  }
  if (DATE_ATTRIBUTES.includes(attribute)) return RELATIVE_DATES.map((d) => value(d, 'date'));
  if (attribute === 'saved search') {
    const rows = await em.execute<{ name: string }[]>(
      `select name from saved_searches where owner_id = ? or shared = ? order by name limit ${LOOKUP_LIMIT}`,
      [actor.userId, true],
    );
    return rows.map((r) => value(r.name, 'saved search'));
  }
  const fields = (await fieldNames(em, actor, ids)).filter((f) => f.name_key === attribute);
  if (fields.length === 0) return [];
  const candidates: Candidate[] = [];
  if (fields.some((f) => f.kind === 'date'))
    candidates.push(...RELATIVE_DATES.map((d) => value(d, f0(fields))));
  for (const f of fields) if (f.empty_text) candidates.push(value(f.empty_text, f.name));
  if (fields.some((f) => f.kind === 'state'))
    candidates.push(...STATE_KEYWORDS.map((k) => value(k, 'State')));
  if (fields.some((f) => f.kind === 'user')) {
    candidates.push(
      value('me', 'Current user'),
      ...(await users(em, actor, ids)).map((u) => value(u.login, u.full_name)),
    );
  }
  candidates.push(...(await fieldValues(em, actor, ids, attribute)).map((v) => value(v.name, v.field)));
  return candidates;
}

const f0 = (fields: { name: string }[]) => fields[0]?.name ?? '';

/** What may start a term: attribute names (with `: `), link phrases, `#` keywords and values. */
async function termStarts(em: Em, actor: Actor, vocabulary?: SearchVocabulary): Promise<Candidate[]> {
  const ids = (await readableProjects(em, actor)).map((p) => p.id);
  const links = vocabulary ? [...vocabulary.links.values()].flatMap((l) => l.map((p) => p.phrase)) : [];
  const names = [
    ...OFFERED_ATTRIBUTES,
    ...SORT_ATTRIBUTES.slice(0, 1),
    ...(await fieldNames(em, actor, ids)).map((f) => f.name),
    // The prototypes' aliases (`affects`), known to the vocabulary only where the field is readable.
    ...(vocabulary ? [...vocabulary.aliases.keys()] : []),
    ...links,
  ];
  const seen = new Set<string>();
  const attributes = names.filter((n) => !seen.has(n.toLowerCase()) && seen.add(n.toLowerCase()));
  return [
    ...attributes.map((name): Candidate => ({ option: name, description: 'attribute', styleClass: 'field' })),
    ...KEYWORDS.map((k): Candidate => ({ option: `#${k}`, description: 'keyword', styleClass: 'keyword' })),
  ];
}

/** `#` values: keywords and every readable field value. */
async function hashValues(em: Em, actor: Actor): Promise<Candidate[]> {
  const ids = (await readableProjects(em, actor)).map((p) => p.id);
  return [
    ...KEYWORDS.map((k): Candidate => ({ option: k, description: 'keyword', styleClass: 'keyword' })),
    ...(await fieldValues(em, actor, ids)).map(
      (v): Candidate => ({ option: v.name, description: v.field, styleClass: 'value' }),
    ),
  ];
}

const needsBraces = (option: string) => /[\s:,#{}"]/.test(option);

/**
 * The query's highlighting from its parse: attribute names as fields, values as values, `#`/`-`
 * values, `and`/`or`, `asc`/`desc` as keywords, words as text, and every problem (syntax, or a
 * name that does not resolve for this caller) as an error at its position.
 */
function highlight(
  query: string,
  vocabulary: SearchVocabulary,
  resolutionError: Span | undefined,
): QueryRange[] {
  const parsed = parseQuery(query, vocabulary.lexicon);
  const ranges: QueryRange[] = [];
  const add = (span: Span, style: string) => {
    if (span.end > span.start) ranges.push({ start: span.start, end: span.end, style });
  };
  const walk = (node: QueryNode) => {
    if (node.kind === 'or' || node.kind === 'and') node.operands.forEach(walk);
    if (node.kind !== 'term') return;
    for (const item of node.items) {
      if (item.kind === 'text') add(item, 'text');
      if (item.kind === 'single') add(item, 'keyword');
      if (item.kind === 'filter') {
        add(item.attribute, 'field');
        for (const f of item.filters) {
          if (f.kind === 'query') walk(f.query);
          else add(f, 'value');
        }
      }
      if (item.kind === 'has' || item.kind === 'sort') {
        add({ start: item.start, end: query.indexOf(':', item.start) }, 'field');
        for (const a of item.kind === 'has' ? item.attributes : item.fields) add(a, 'value');
      }
    }
  };
  walk(parsed.root);
  for (const t of parsed.tokens) {
    if (
      t.kind === 'word' &&
      /^(and|or)$/i.test(t.text) &&
      !ranges.some((r) => r.start <= t.start && t.end <= r.end)
    )
      add(t, 'keyword');
  }
  for (const d of parsed.diagnostics)
    add(d.end > d.start ? d : { start: d.start, end: Math.min(query.length, d.start + 1) }, 'error');
  if (parsed.diagnostics.length === 0 && resolutionError) add(resolutionError, 'error');
  return ranges.sort((a, b) => a.start - b.start || a.end - b.end);
}

export async function assistSearchQuery(
  em: Em,
  actor: Actor,
  input: { query: string; caret?: number | undefined; optionsLimit?: number | undefined },
): Promise<QueryAssist> {
  const query = input.query;
  const caret = Math.max(0, Math.min(input.caret ?? query.length, query.length));
  const limit = input.optionsLimit ?? 15;
  const vocabulary = await loadSearchVocabulary(em, actor);
  // Names that do not resolve for this caller are underlined where they stand.
  const resolutionError = await compileQuery(em, actor, query, {
    dialect: searchDialect(em),
    timeZone: searchSettingsOf(em).timeZone,
    now: Date.now(),
  }).then(
    () => undefined,
    (error: unknown) => querySpanOf(error),
  );
  const context = caretContext(query, caret);
  let candidates: Candidate[];
  let start = context.start;
  let typed = context.typed;
  if ('hash' in context) {
    candidates = await hashValues(em, actor);
  } else if ('attributeWords' in context && context.attributeWords) {
    // The longest run of words before the colon that names an attribute.
    const words = context.attributeWords;
    const known = new Set(
      (await termStarts(em, actor, vocabulary))
        .filter((c) => c.styleClass === 'field')
        .map((c) => c.option.toLowerCase()),
    );
    let attribute = '';
    for (let n = words.length; n >= 1 && !attribute; n--) {
      const name = words.slice(-n).join(' ').toLowerCase();
      if (known.has(name) || vocabulary.lexicon.isAttribute(name)) attribute = name;
    }
    // An alias suggests the values of the field it names.
    const named = vocabulary.aliases.get(attribute)?.key ?? attribute;
    candidates = named ? await valuesOf(em, actor, named) : [];
  } else {
    candidates = await termStarts(em, actor, vocabulary);
    const sortClause = /(?:sort|order) by:([^:]*)$/i.exec(query.slice(0, start))?.[1];
    if (sortClause !== undefined && /\S\s+$/.test(sortClause.split(',').at(-1) ?? '')) {
      candidates = ['asc', 'desc'].map(
        (k) => ({ option: k, description: 'sort order', styleClass: 'keyword' }) as Candidate,
      );
    } else if (query.slice(0, start).trim() && !/[:,(]\s*$/.test(query.slice(0, start))) {
      candidates.push(
        ...['and', 'or'].map(
          (k) => ({ option: k, description: 'operator', styleClass: 'keyword' }) as Candidate,
        ),
      );
    }
    // `Fix v` completes `Fix versions`: try the preceding words as the start of the phrase.
    const words = 'precedingWords' in context ? (context.precedingWords ?? []) : [];
    for (let n = words.length; n >= 1; n--) {
      const phrase = `${words.slice(-n).join(' ')} ${typed}`;
      const from = query.lastIndexOf(words[words.length - n] as string, start - 1);
      // Words right after `attr:` or a comma are that attribute's values, not the start of a name.
      if (/[:,]$/.test(query.slice(0, from).trimEnd())) continue;
      if (
        candidates.some(
          (c) => c.styleClass === 'field' && c.option.toLowerCase().startsWith(phrase.toLowerCase()),
        )
      ) {
        start = from;
        typed = query.slice(start, caret);
        break;
      }
    }
  }
  const key = typed.toLowerCase();
  const seen = new Set<string>();
  const items: QuerySuggestion[] = [];
  // The end of the word at the caret is replaced too.
  let end = caret;
  while (end < query.length && !/[\s:,]/.test(query.charAt(end))) end++;
  for (const c of candidates) {
    if (items.length >= limit) break;
    const lower = c.option.toLowerCase();
    const at = lower.indexOf(key);
    if (key && at !== 0 && !(at > 0 && c.styleClass !== 'field')) continue;
    if (seen.has(`${c.styleClass}|${lower}`)) continue;
    seen.add(`${c.styleClass}|${lower}`);
    const braced = needsBraces(c.option) && c.styleClass !== 'field';
    const prefix = braced ? '{' : '';
    const suffix = c.styleClass === 'field' ? ': ' : braced ? '} ' : ' ';
    const option = c.option;
    const inserted = ('hash' in context ? '#' : '') + prefix + option + suffix;
    items.push({
      option,
      description: c.description,
      descriptionHtml: escapeHtml(c.description),
      prefix: ('hash' in context ? '#' : '') + prefix,
      suffix,
      matchStart: Math.max(0, at),
      matchEnd: Math.max(0, at) + (key ? key.length : 0),
      completionStart: start,
      completionEnd: end,
      caret: start + inserted.length,
      separator: false,
      styleClass: c.styleClass,
    });
  }
  return { ranges: highlight(query, vocabulary, resolutionError), items };
}
