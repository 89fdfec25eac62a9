import { ISSUE_ID_PATTERN } from '@trackline/contracts';
import { DomainError } from '../../errors.js';
import { oneLine } from '../../text/user-text.js';

/**
 * The search language (pure: no database). Terms are ANDed:
 * - `<attribute>: <value>[, <value>...]` (values ORed), e.g. `State: Fixed, Verified`,
 *   `for: me`, `project: {Sample Project}`, `sort by: updated asc`
 * - `#<value>` / `#{multi word value}`: `#Unresolved`, `#Resolved`, `#Fixed`...
 * - a readable id `PRJ-12`
 * - free text: a word, `{braced words}` or `"a phrase"` (summary or description contains it)
 * Attribute names may have several words (`reported by`, `Fix versions`): the parser
 * takes the longest run of words before the colon that names a known attribute.
 */
export type QueryValue = { text: string; quoted: boolean };

export type QueryTerm =
  | { kind: 'attribute'; name: string; values: QueryValue[]; source: string }
  | { kind: 'sort'; keys: { key: string; direction: 'asc' | 'desc' | null }[]; source: string }
  | { kind: 'hash'; value: string; source: string }
  | { kind: 'issueId'; id: string; source: string }
  | { kind: 'text'; value: string; source: string };

type Token =
  | { type: 'word' | 'braced' | 'quoted' | 'hash'; text: string; start: number; end: number }
  | { type: 'colon' | 'comma'; text: string; start: number; end: number };

export const SORT_ATTRIBUTES = ['sort by', 'order by'];
const MAX_ATTRIBUTE_WORDS = 4;
const MAX_QUERY = 4000;
/**
 * Words, quoted phrases and `#values` per query. Each becomes its own SQL condition; about a
 * thousand of them exceed SQLite's expression depth ("Expression tree is too large"), and far
 * fewer already make a search (and every search through a shared saved search) expensive.
 */
export const MAX_QUERY_TERMS = 50;

const bad = (message: string) => DomainError.invalid('query', message);

function closing(query: string, start: number, open: '{' | '"'): number {
  const close = open === '{' ? '}' : '"';
  const end = query.indexOf(close, start + 1);
  if (end < 0) throw bad(`unclosed '${open}' in [ ${query.slice(start, start + 40)} ]`);
  return end;
}

export function tokenizeQuery(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const c = query.charAt(i);
    if (/\s/.test(c)) {
      i++;
    } else if (c === ':' || c === ',') {
      tokens.push({ type: c === ':' ? 'colon' : 'comma', text: c, start: i, end: i + 1 });
      i++;
    } else if (c === '{' || c === '"') {
      const end = closing(query, i, c);
      tokens.push({
        type: c === '{' ? 'braced' : 'quoted',
        text: query.slice(i + 1, end).trim(),
        start: i,
        end: end + 1,
      });
      i = end + 1;
    } else if (c === '}') {
      throw bad(`unexpected '}' at [ ${query.slice(Math.max(0, i - 20), i + 1)} ]`);
    } else if (c === '#') {
      if (query.charAt(i + 1) === '{') {
        const end = closing(query, i + 1, '{');
        const text = query.slice(i + 2, end).trim();
        if (!text) throw bad(`empty term [ ${query.slice(i, end + 1)} ]`);
        tokens.push({ type: 'hash', text, start: i, end: end + 1 });
        i = end + 1;
      } else {
        const match = /^[^\s:,{}"]+/.exec(query.slice(i + 1));
        if (!match) throw bad("'#' must be followed by a value, e.g. #Unresolved or #{In Progress}");
        tokens.push({ type: 'hash', text: match[0], start: i, end: i + 1 + match[0].length });
        i += 1 + match[0].length;
      }
    } else {
      const match = /^[^\s:,{}"]+/.exec(query.slice(i));
      const text = match?.[0] ?? c;
      tokens.push({ type: 'word', text, start: i, end: i + text.length });
      i += text.length;
    }
  }
  const terms = tokens.filter((t) => t.type !== 'colon' && t.type !== 'comma').length;
  if (terms > MAX_QUERY_TERMS)
    throw bad(`must have at most ${MAX_QUERY_TERMS} words, values and #terms (this one has ${terms})`);
  return tokens;
}

/**
 * Parses a query into terms. `attributes` are the attribute names the query may use,
 * lower-cased (built-ins and field names). Throws VALIDATION_FAILED naming the bad term.
 */
export function parseSearchQuery(query: string, attributes: ReadonlySet<string>): QueryTerm[] {
  if (query.length > MAX_QUERY) throw bad(`must be at most ${MAX_QUERY} characters`);
  query = oneLine(query);
  const tokens = tokenizeQuery(query);
  const terms: QueryTerm[] = [];
  let words: Token[] = [];
  const flushWords = () => {
    for (const w of words) {
      if (w.type === 'word' && w.text.toLowerCase() === 'and') continue;
      if (w.type === 'word' && ISSUE_ID_PATTERN.test(w.text))
        terms.push({ kind: 'issueId', id: w.text, source: w.text });
      else terms.push({ kind: 'text', value: w.text, source: query.slice(w.start, w.end) });
    }
    words = [];
  };

  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i] as Token;
    if (token.type === 'word') {
      words.push(token);
      i++;
      continue;
    }
    if (token.type === 'braced' || token.type === 'quoted') {
      flushWords();
      if (token.text)
        terms.push({ kind: 'text', value: token.text, source: query.slice(token.start, token.end) });
      i++;
      continue;
    }
    if (token.type === 'hash') {
      flushWords();
      terms.push({ kind: 'hash', value: token.text, source: query.slice(token.start, token.end) });
      i++;
      continue;
    }
    if (token.type === 'comma') {
      i++;
      continue;
    }
    // A colon: the attribute name is the longest known run of words right before it.
    let nameWords = 0;
    for (let n = Math.min(MAX_ATTRIBUTE_WORDS, words.length); n >= 1; n--) {
      const candidate = words
        .slice(words.length - n)
        .map((w) => w.text.toLowerCase())
        .join(' ');
      if (attributes.has(candidate)) {
        nameWords = n;
        break;
      }
    }
    if (nameWords === 0) {
      const last = words[words.length - 1];
      throw bad(
        last
          ? `unknown search attribute [ ${last.text} ]`
          : `missing attribute name before ':' at position ${token.start}`,
      );
    }
    const nameTokens = words.slice(words.length - nameWords);
    words = words.slice(0, words.length - nameWords);
    flushWords();
    const name = nameTokens.map((w) => w.text).join(' ');
    const start = (nameTokens[0] as Token).start;
    i++;
    const values: QueryValue[] = [];
    const directions: ('asc' | 'desc' | null)[] = [];
    const sort = SORT_ATTRIBUTES.includes(name.toLowerCase());
    while (i < tokens.length) {
      const value = tokens[i] as Token;
      if (
        value.type !== 'word' &&
        value.type !== 'braced' &&
        value.type !== 'quoted' &&
        value.type !== 'hash'
      )
        break;
      values.push({ text: value.text, quoted: value.type !== 'word' });
      directions.push(null);
      i++;
      const next = tokens[i];
      if (sort && next?.type === 'word' && /^(asc|desc)$/i.test(next.text)) {
        directions[directions.length - 1] = next.text.toLowerCase() as 'asc' | 'desc';
        i++;
      }
      if (tokens[i]?.type === 'comma') i++;
      else break;
    }
    const end = tokens[i - 1]?.end ?? query.length;
    const source = query.slice(start, end);
    if (values.length === 0 || values.some((v) => !v.text)) throw bad(`missing value in [ ${source} ]`);
    if (sort) {
      terms.push({
        kind: 'sort',
        keys: values.map((v, k) => ({ key: v.text.toLowerCase(), direction: directions[k] ?? null })),
        source,
      });
    } else {
      terms.push({ kind: 'attribute', name, values, source });
    }
  }
  flushWords();
  return terms;
}
