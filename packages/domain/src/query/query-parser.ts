import { DomainError } from '../errors.js';
import { type QueryToken, scanQuery } from './query-scanner.js';

/**
 * The search language of the original's "Search Query Grammar", one function per production
 * (case-insensitive; a parser that never throws: what it cannot read becomes a diagnostic naming
 * the term and its position, and parsing goes on after it):
 *
 *   SearchRequest     ::= OrExpression
 *   OrExpression      ::= AndExpression ('or' AndExpression)*
 *   AndExpression     ::= AndOperand ('and' AndOperand)*
 *   AndOperand        ::= '(' OrExpression? ')' | Term
 *   Term              ::= TermItem+
 *   TermItem          ::= QuotedText | NegativeText | PositiveSingleValue | NegativeSingleValue
 *                       | Sort | Has | CategorizedFilter | Text
 *   CategorizedFilter ::= Attribute ':' AttributeFilter (',' AttributeFilter)*
 *   AttributeFilter   ::= '-'? Value | '-'? ValueRange | '(' OrExpression ')'
 *   ValueRange        ::= Bound '..' Bound          Bound ::= Value | '*'
 *   PositiveSingleValue ::= '#' Value               NegativeSingleValue ::= '-' Value
 *   Sort              ::= ('sort by' | 'order by') ':' SortField (',' SortField)*
 *   SortField         ::= SortAttribute ('asc' | 'desc')?
 *   Has               ::= 'has' ':' '-'? Attribute (',' '-'? Attribute)*
 *   QuotedText        ::= '"' text '"'             NegativeText ::= '-' QuotedText
 *   Value             ::= '{' value with spaces '}' | value without spaces
 *   Text              ::= a word that starts no other item
 *
 * An attribute is the longest run of words before a ':' that names one (`Fix versions`,
 * `resolved date`, a link phrase such as `subtask of`). Within one Term, filters of the same
 * attribute are alternatives (OR), as the documentation's examples read; different attributes,
 * text and explicit `and` must all hold. That grouping is the compiler's (it knows which
 * attribute a `#value` belongs to); the tree keeps the items in order.
 */

export type Span = { start: number; end: number };
export type QueryDiagnostic = Span & { message: string };

export type QueryValue = Span & { text: string; braced: boolean };
export type Bound = QueryValue | (Span & { open: true });
export type AttributeFilter =
  | (Span & { kind: 'value'; value: QueryValue; negated: boolean })
  | (Span & { kind: 'range'; from: Bound; to: Bound; negated: boolean })
  | (Span & { kind: 'query'; query: QueryNode });
export type SortField = Span & { key: string; name: string; direction: 'asc' | 'desc' | null };
export type HasAttribute = Span & { key: string; name: string; negated: boolean };

export type TermItem =
  | (Span & { kind: 'text'; text: string; phrase: boolean; negated: boolean })
  | (Span & { kind: 'single'; value: QueryValue; negated: boolean })
  | (Span & { kind: 'filter'; attribute: Span & { name: string; key: string }; filters: AttributeFilter[] })
  | (Span & { kind: 'has'; attributes: HasAttribute[] })
  | (Span & { kind: 'sort'; fields: SortField[] });

export type QueryNode =
  | (Span & { kind: 'or' | 'and'; operands: QueryNode[] })
  | (Span & { kind: 'term'; items: TermItem[] })
  | (Span & { kind: 'empty' });

/** Which attribute names a query may use (lower-cased, words single-spaced). */
export type QueryLexicon = {
  isAttribute(key: string): boolean;
  /** Several-word sort keys (`resolved date`, `Fix versions`): the longest is read. */
  isSortKey(key: string): boolean;
  maxWords: number;
};

export type ParsedQuery = { root: QueryNode; diagnostics: QueryDiagnostic[]; tokens: QueryToken[] };

export const SORT_ATTRIBUTES = ['sort by', 'order by'];
export const HAS_ATTRIBUTE = 'has';
/** At most this many values, words and terms per query (each becomes SQL). */
export const MAX_QUERY_TERMS = 50;
export const MAX_QUERY_LENGTH = 4000;
/** Parentheses and linked-issue queries nest at most this deep (the parser recurses). */
const MAX_DEPTH = 8;

export function parseQuery(text: string, lexicon: QueryLexicon): ParsedQuery {
  const source = typeof text === 'string' ? text : '';
  if (source.length > MAX_QUERY_LENGTH) {
    const message = `The query is too long: ${source.length} characters (at most ${MAX_QUERY_LENGTH})`;
    return {
      root: { kind: 'empty', start: 0, end: 0 },
      diagnostics: [{ start: 0, end: 0, message }],
      tokens: [],
    };
  }
  const tokens = scanQuery(source);
  const parser = new QueryParser(source, tokens, lexicon);
  const root = parser.parseSearchRequest();
  const terms = tokens.filter((t) => t.kind === 'word' || t.kind === 'braced' || t.kind === 'quoted').length;
  if (terms > MAX_QUERY_TERMS) {
    parser.diagnostics.unshift({
      start: 0,
      end: source.length,
      message: `The query has ${terms} words and values; at most ${MAX_QUERY_TERMS} are allowed`,
    });
  }
  return { root, diagnostics: parser.diagnostics, tokens };
}

/**
 * Checks a query's syntax only (saved searches: names are resolved when the search runs, for
 * whoever runs it); VALIDATION_FAILED naming the first problem.
 */
export function checkQuerySyntax(text: string): void {
  const anyName: QueryLexicon = { isAttribute: () => true, isSortKey: () => true, maxWords: 1 };
  const [first] = parseQuery(text, anyName).diagnostics;
  if (first) throw DomainError.invalid('query', first.message);
}

/** `[ term ] at position N`: how every message names what it is about. */
export const at = (text: string, span: Span) => `[ ${text} ] at position ${span.start}`;

const isWord = (t: QueryToken | undefined, word?: string) =>
  t?.kind === 'word' && (word === undefined || t.text.toLowerCase() === word);

class QueryParser {
  pos = 0;
  depth = 0;
  readonly diagnostics: QueryDiagnostic[] = [];

  constructor(
    private readonly source: string,
    private readonly tokens: QueryToken[],
    private readonly lex: QueryLexicon,
  ) {}

  private get current(): QueryToken | undefined {
    return this.tokens[this.pos];
  }

  /** The current token's kind (not narrowed by earlier checks: `pos` moves). */
  private peek(): QueryToken['kind'] | undefined {
    return this.tokens[this.pos]?.kind;
  }

  private error(span: Span, message: string): void {
    this.diagnostics.push({ start: span.start, end: span.end, message });
  }

  private textOf(span: Span): string {
    return this.source.slice(span.start, span.end);
  }

  private get end(): number {
    return this.source.length;
  }

  /** SearchRequest ::= OrExpression */
  parseSearchRequest(): QueryNode {
    const root = this.parseOrExpression();
    while (this.current) {
      // Only a stray ')' can stop the expression before the end.
      const stray = this.current;
      this.error(stray, `Unexpected ${at(stray.text, stray)}: no '(' opens it`);
      this.pos++;
      const rest = this.parseOrExpression();
      if (rest.kind !== 'empty')
        return { kind: 'and', operands: [root, rest], start: root.start, end: rest.end };
    }
    return root;
  }

  /** OrExpression ::= AndExpression ('or' AndExpression)* */
  private parseOrExpression(): QueryNode {
    return this.parseOperatorList('or', () => this.parseAndExpression());
  }

  /** AndExpression ::= AndOperand ('and' AndOperand)* */
  private parseAndExpression(): QueryNode {
    return this.parseOperatorList('and', () => this.parseAndOperand());
  }

  private parseOperatorList(operator: 'or' | 'and', operand: () => QueryNode): QueryNode {
    const operands = [operand()];
    while (isWord(this.current, operator)) {
      const op = this.current as QueryToken;
      this.pos++;
      const next = operand();
      if (operands.at(-1)?.kind === 'empty' || next.kind === 'empty') {
        this.error(op, `${at(op.text, op)}: '${operator}' needs a term on each side`);
      }
      operands.push(next);
    }
    const kept = operands.filter((o) => o.kind !== 'empty');
    if (kept.length <= 1) return kept[0] ?? { kind: 'empty', start: operands[0]?.start ?? 0, end: 0 };
    return { kind: operator, operands: kept, start: kept[0]?.start ?? 0, end: kept.at(-1)?.end ?? 0 };
  }

  /** AndOperand ::= '(' OrExpression? ')' | Term */
  private parseAndOperand(): QueryNode {
    const open = this.current;
    if (open?.kind !== 'open') return this.parseTerm();
    this.pos++;
    const inner = this.nested(() => this.parseOrExpression());
    const close = this.current;
    if (close?.kind === 'close') this.pos++;
    else this.error(open, `Missing ')' to close ${at('(', open)}`);
    const end = close?.kind === 'close' ? close.end : inner.end || open.end;
    return inner.kind === 'empty' ? { kind: 'empty', start: open.start, end } : inner;
  }

  private nested(parse: () => QueryNode): QueryNode {
    if (this.depth >= MAX_DEPTH) {
      const token = this.current;
      const span = token ?? { start: this.end, end: this.end };
      this.error(span, `Parentheses nest deeper than ${MAX_DEPTH} levels ${at('(', span)}`);
      this.skipToClose();
      return { kind: 'empty', start: span.start, end: span.start };
    }
    this.depth++;
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  /** Skips to the matching ')' (left for the caller), counting nested parentheses. */
  private skipToClose(): void {
    let level = 0;
    while (this.current) {
      if (this.current.kind === 'open') level++;
      if (this.current.kind === 'close') {
        if (level === 0) return;
        level--;
      }
      this.pos++;
    }
  }

  /** Term ::= TermItem+ (up to 'and', 'or', '(' , ')' or the end) */
  private parseTerm(): QueryNode {
    const items: TermItem[] = [];
    const start = this.current?.start ?? this.end;
    while (this.current && !this.endsTerm(this.current)) {
      const item = this.parseTermItem();
      if (item) items.push(item);
    }
    if (items.length === 0) return { kind: 'empty', start, end: start };
    return { kind: 'term', items, start: items[0]?.start ?? start, end: items.at(-1)?.end ?? start };
  }

  private endsTerm(token: QueryToken): boolean {
    return token.kind === 'close' || token.kind === 'open' || isWord(token, 'and') || isWord(token, 'or');
  }

  /** TermItem ::= QuotedText | NegativeText | PositiveSingleValue | NegativeSingleValue | Sort | Has | CategorizedFilter | Text */
  private parseTermItem(): TermItem | undefined {
    const token = this.current as QueryToken;
    switch (token.kind) {
      case 'quoted':
        return this.parseQuotedText(false);
      case 'hash':
      case 'minus': {
        const next = this.tokens[this.pos + 1];
        if (token.kind === 'minus' && next?.kind === 'quoted') {
          this.pos++;
          return this.parseQuotedText(true, token.start);
        }
        return this.parseSingleValue(token.kind === 'minus');
      }
      case 'word':
      case 'braced': {
        const attribute = this.attributeAt();
        if (attribute) return this.parseAttributeItem(attribute);
        if (this.tokens[this.pos + 1]?.kind === 'colon' && token.kind === 'word') {
          this.error(token, `Unknown search attribute ${at(token.text, token)}`);
          this.pos += 2;
          this.skipFilterValues();
          return undefined;
        }
        return this.parseText();
      }
      case 'colon':
        this.error(token, `Missing attribute name before ${at(':', token)}`);
        this.pos++;
        this.skipFilterValues();
        return undefined;
      default:
        this.error(
          token,
          token.kind === 'error'
            ? `${token.text} ${at(this.textOf(token), token)}`
            : `Unexpected ${at(token.text, token)}`,
        );
        this.pos++;
        return undefined;
    }
  }

  /** After an unreadable attribute: its values go with it, so one mistake is reported once. */
  private skipFilterValues(): void {
    do {
      if (this.current?.kind === 'minus') this.pos++;
      if (this.current?.kind === 'open') {
        this.pos++;
        this.skipToClose();
        if (this.peek() === 'close') this.pos++;
      } else if (this.parseBound() && this.current?.kind === 'range') {
        this.pos++;
        this.parseBound();
      }
    } while (this.takeComma());
  }

  /** The longest run of words here, followed by ':', that names an attribute. */
  private attributeAt(): { name: string; key: string; length: number; span: Span } | undefined {
    const first = this.current as QueryToken;
    if (first.kind === 'braced') {
      const key = normalize(first.text);
      return this.tokens[this.pos + 1]?.kind === 'colon' && this.lex.isAttribute(key)
        ? { name: first.text, key, length: 1, span: first }
        : undefined;
    }
    const words: string[] = [];
    let found: { name: string; key: string; length: number; span: Span } | undefined;
    for (let n = 0; n < this.lex.maxWords; n++) {
      const token = this.tokens[this.pos + n];
      if (!isWord(token)) break;
      words.push((token as QueryToken).text);
      const key = normalize(words.join(' '));
      if (this.tokens[this.pos + n + 1]?.kind === 'colon' && this.lex.isAttribute(key)) {
        const end = (token as QueryToken).end;
        found = {
          name: this.source.slice(first.start, end),
          key,
          length: n + 1,
          span: { start: first.start, end },
        };
      }
    }
    return found;
  }

  private parseAttributeItem(attribute: { name: string; key: string; length: number; span: Span }): TermItem {
    this.pos += attribute.length + 1; // the name and ':'
    if (SORT_ATTRIBUTES.includes(attribute.key)) return this.parseSort(attribute.span);
    if (attribute.key === HAS_ATTRIBUTE) return this.parseHas(attribute.span);
    return this.parseCategorizedFilter(attribute);
  }

  /** CategorizedFilter ::= Attribute ':' AttributeFilter (',' AttributeFilter)* */
  private parseCategorizedFilter(attribute: { name: string; key: string; span: Span }): TermItem {
    const filters: AttributeFilter[] = [];
    let comma: QueryToken | undefined;
    do {
      const filter = this.parseAttributeFilter(attribute);
      if (filter) filters.push(filter);
      else {
        if (comma) this.error(comma, `Missing value after ${at(',', comma)}`);
        break;
      }
      comma = this.current;
    } while (this.takeComma());
    const end = filters.at(-1)?.end ?? attribute.span.end + 1;
    if (filters.length === 0) {
      const span = { start: attribute.span.start, end };
      this.error(span, `Missing value of ${at(attribute.name, attribute.span)}`);
    }
    return {
      kind: 'filter',
      attribute: { ...attribute.span, name: attribute.name, key: attribute.key },
      filters,
      start: attribute.span.start,
      end,
    };
  }

  private takeComma(): boolean {
    if (this.current?.kind !== 'comma') return false;
    this.pos++;
    return true;
  }

  /** AttributeFilter ::= '-'? Value | '-'? ValueRange | '(' OrExpression ')' */
  private parseAttributeFilter(attribute: { name: string }): AttributeFilter | undefined {
    const token = this.current;
    if (token?.kind === 'open') {
      this.pos++;
      const query = this.nested(() => this.parseOrExpression());
      const close = this.current;
      if (close?.kind === 'close') this.pos++;
      else this.error(token, `Missing ')' to close ${at('(', token)}`);
      return {
        kind: 'query',
        query,
        start: token.start,
        end: close?.kind === 'close' ? close.end : query.end,
      };
    }
    const negated = token?.kind === 'minus';
    if (negated) this.pos++;
    const from = this.parseBound();
    if (!from) {
      if (negated && token) this.error(token, `Missing value after ${at('-', token)}`);
      return undefined;
    }
    const start = negated && token ? token.start : from.start;
    if (this.current?.kind !== 'range') {
      if ('open' in from) {
        this.error(
          from,
          `${at('*', from)} stands only for an open end of a range (${attribute.name}: 1 .. *)`,
        );
        return undefined;
      }
      return { kind: 'value', value: from, negated, start, end: from.end };
    }
    const range = this.current;
    this.pos++;
    const to = this.parseBound();
    if (!to) {
      this.error(range, `Missing upper bound after ${at('..', range)}`);
      return undefined;
    }
    return { kind: 'range', from, to, negated, start, end: to.end };
  }

  /** Bound ::= Value | '*' */
  private parseBound(): Bound | undefined {
    const token = this.current;
    if (isWord(token, '*')) {
      this.pos++;
      return { open: true, start: (token as QueryToken).start, end: (token as QueryToken).end };
    }
    return this.parseValue();
  }

  /** Value ::= '{' value with spaces '}' | value without spaces */
  private parseValue(): QueryValue | undefined {
    const token = this.current;
    if (token?.kind === 'word' && !isWord(token, 'and') && !isWord(token, 'or')) {
      this.pos++;
      return { text: token.text, braced: false, start: token.start, end: token.end };
    }
    if (token?.kind === 'braced' || token?.kind === 'quoted') {
      this.pos++;
      if (!token.closed)
        this.error(
          token,
          `Missing ${token.kind === 'braced' ? '}' : '"'} to close ${at(this.textOf(token), token)}`,
        );
      if (!token.text) this.error(token, `Empty value ${at(this.textOf(token), token)}`);
      return { text: token.text, braced: true, start: token.start, end: token.end };
    }
    return undefined;
  }

  /** PositiveSingleValue ::= '#' Value ;  NegativeSingleValue ::= '-' Value */
  private parseSingleValue(negated: boolean): TermItem | undefined {
    const mark = this.current as QueryToken;
    this.pos++;
    const value = this.parseValue();
    if (!value) {
      this.error(mark, `Missing value after ${at(mark.text, mark)}`);
      return undefined;
    }
    return { kind: 'single', value, negated, start: mark.start, end: value.end };
  }

  /** QuotedText ::= '"' text '"' ;  NegativeText ::= '-' QuotedText */
  private parseQuotedText(negated: boolean, start?: number): TermItem | undefined {
    const token = this.current as QueryToken;
    this.pos++;
    if (!token.closed) this.error(token, `Missing '"' to close ${at(this.textOf(token), token)}`);
    if (!token.text) return undefined;
    return {
      kind: 'text',
      text: token.text,
      phrase: true,
      negated,
      start: start ?? token.start,
      end: token.end,
    };
  }

  /** Text ::= a word (or `{…}`) that starts no other item */
  private parseText(): TermItem {
    const token = this.current as QueryToken;
    this.pos++;
    if (token.kind === 'word' && token.text === '#')
      this.error(token, `Missing value after ${at('#', token)}`);
    if (token.kind === 'braced' && !token.closed)
      this.error(token, `Missing } to close ${at(this.textOf(token), token)}`);
    return {
      kind: 'text',
      text: token.text,
      phrase: token.kind === 'braced',
      negated: false,
      start: token.start,
      end: token.end,
    };
  }

  /** Sort ::= 'sort by' ':' SortField (',' SortField)* ;  SortField ::= SortAttribute ('asc' | 'desc')? */
  private parseSort(name: Span): TermItem {
    const fields: SortField[] = [];
    do {
      const field = this.parseSortField();
      if (!field) break;
      fields.push(field);
    } while (this.takeComma());
    if (fields.length === 0) this.error(name, `Missing sort attribute after ${at(this.textOf(name), name)}`);
    return { kind: 'sort', fields, start: name.start, end: fields.at(-1)?.end ?? name.end + 1 };
  }

  private parseSortField(): SortField | undefined {
    const first = this.current;
    if (!first) return undefined;
    let length = 0;
    if (first.kind === 'braced') length = 1;
    else if (first.kind === 'word') {
      // The longest run of words naming a sort key, else one word (refused by the compiler).
      length = 1;
      const words: string[] = [];
      for (let n = 0; n < this.lex.maxWords; n++) {
        const token = this.tokens[this.pos + n];
        if (!isWord(token) || isWord(token, 'asc') || isWord(token, 'desc')) break;
        words.push((token as QueryToken).text);
        if (this.lex.isSortKey(normalize(words.join(' ')))) length = n + 1;
      }
    } else return undefined;
    const last = this.tokens[this.pos + length - 1] as QueryToken;
    const name = first.kind === 'braced' ? first.text : this.source.slice(first.start, last.end);
    this.pos += length;
    let direction: SortField['direction'] = null;
    let end = last.end;
    const next = this.current;
    if (isWord(next, 'asc') || isWord(next, 'desc')) {
      direction = (next as QueryToken).text.toLowerCase() as 'asc' | 'desc';
      end = (next as QueryToken).end;
      this.pos++;
    }
    return { key: normalize(name), name, direction, start: first.start, end };
  }

  /** Has ::= 'has' ':' '-'? Attribute (',' '-'? Attribute)* */
  private parseHas(name: Span): TermItem {
    const attributes: HasAttribute[] = [];
    do {
      const minus = this.current?.kind === 'minus' ? (this.current as QueryToken) : undefined;
      if (minus) this.pos++;
      const first = this.current;
      if (
        !first ||
        (first.kind !== 'word' && first.kind !== 'braced') ||
        isWord(first, 'and') ||
        isWord(first, 'or')
      ) {
        if (minus) this.error(minus, `Missing attribute after ${at('-', minus)}`);
        break;
      }
      // Several-word attribute names (`has: Fix versions`): the longest known one, else one word.
      let length = 1;
      if (first.kind === 'word') {
        const words: string[] = [];
        for (let n = 0; n < this.lex.maxWords; n++) {
          const token = this.tokens[this.pos + n];
          if (!isWord(token)) break;
          words.push((token as QueryToken).text);
          if (this.lex.isAttribute(normalize(words.join(' ')))) length = n + 1;
        }
      }
      const last = this.tokens[this.pos + length - 1] as QueryToken;
      const text = first.kind === 'braced' ? first.text : this.source.slice(first.start, last.end);
      this.pos += length;
      attributes.push({
        key: normalize(text),
        name: text,
        negated: !!minus,
        start: (minus ?? first).start,
        end: last.end,
      });
    } while (this.takeComma());
    if (attributes.length === 0) this.error(name, `Missing attribute after ${at(this.textOf(name), name)}`);
    return { kind: 'has', attributes, start: name.start, end: attributes.at(-1)?.end ?? name.end + 1 };
  }
}

/** Lower-cased, whitespace runs as one space, trimmed: how names are compared. */
export function normalize(text: string): string {
  return text.toLowerCase().split(/\s+/).filter(Boolean).join(' ');
}
