import { isSpace } from '../commands/token.js';

/**
 * The tokens of the search language, with their offsets in the query (end-exclusive). The
 * scanner never throws: what it cannot read becomes an `error` token with the reason.
 *
 * - `word`: a run of characters other than whitespace and `( ) { } " , :`; a leading `#` or `-`
 *   is its own token (`hash`, `minus`) when a value follows it directly;
 * - `braced`: `{…}` (a complex value; may hold spaces), `quoted`: `"…"` (a phrase);
 * - `colon`, `comma`, `open`, `close`, `range` (`..`).
 */
export type QueryTokenKind =
  | 'word'
  | 'braced'
  | 'quoted'
  | 'colon'
  | 'comma'
  | 'open'
  | 'close'
  | 'range'
  | 'hash'
  | 'minus'
  | 'error';

export type QueryToken = {
  kind: QueryTokenKind;
  start: number;
  end: number;
  /** The word, or what is inside braces or quotes (trimmed); for `error` the message. */
  text: string;
  /** Whether whitespace separates this token from the one before it. */
  spaced: boolean;
  /** False for a `{` or `"` the text ended before closing. */
  closed?: boolean;
};

const DELIMITERS = new Set(['(', ')', '{', '}', '"', ',', ':']);

const isControl = (code: number) => (code < 32 && !isSpace(code)) || code === 127;
const isWordChar = (text: string, i: number) => {
  const code = text.charCodeAt(i);
  if (isSpace(code) || isControl(code) || DELIMITERS.has(text.charAt(i))) return false;
  // `..` ends a word: `1..5` is a range.
  return !(text.charAt(i) === '.' && text.charAt(i + 1) === '.');
};
/** Whether a value starts at `i` (what a `#` or `-` prefix needs right after it). */
const valueStarts = (text: string, i: number) =>
  i < text.length && (text.charAt(i) === '{' || text.charAt(i) === '"' || isWordChar(text, i));

export function scanQuery(text: string): QueryToken[] {
  const tokens: QueryToken[] = [];
  let pos = 0;
  let spaced = true;
  const push = (kind: QueryTokenKind, start: number, end: number, value: string, closed?: boolean) => {
    tokens.push({ kind, start, end, text: value, spaced, ...(closed === undefined ? {} : { closed }) });
    spaced = false;
  };
  // `-` negates only where a value or term starts: `a-b` is one word, `State:-Fixed` negates.
  const termMayStart = () => {
    const last = tokens.at(-1);
    return spaced || !last || last.kind === 'colon' || last.kind === 'comma' || last.kind === 'open';
  };
  while (pos < text.length) {
    const c = text.charAt(pos);
    const code = text.charCodeAt(pos);
    const start = pos;
    if (isSpace(code)) {
      pos++;
      spaced = true;
    } else if (isControl(code)) {
      while (pos < text.length && isControl(text.charCodeAt(pos))) pos++;
      push('error', start, pos, 'Unexpected control character');
    } else if (c === '{' || c === '"') {
      const close = text.indexOf(c === '{' ? '}' : '"', pos + 1);
      pos = close < 0 ? text.length : close + 1;
      const inner = text.slice(start + 1, close < 0 ? text.length : close).trim();
      push(c === '{' ? 'braced' : 'quoted', start, pos, inner, close >= 0);
    } else if (c === '}') {
      pos++;
      push('error', start, pos, 'Unexpected }: braces only close a {…} value');
    } else if (c === ':' || c === ',' || c === '(' || c === ')') {
      pos++;
      const kinds = { ':': 'colon', ',': 'comma', '(': 'open', ')': 'close' } as const;
      push(kinds[c], start, pos, c);
    } else if (c === '.' && text.charAt(pos + 1) === '.') {
      pos += 2;
      push('range', start, pos, '..');
    } else if ((c === '#' || c === '-') && valueStarts(text, pos + 1) && (c === '#' || termMayStart())) {
      pos++;
      push(c === '#' ? 'hash' : 'minus', start, pos, c);
    } else {
      while (pos < text.length && isWordChar(text, pos)) pos++;
      if (pos === start) pos++; // a lone character no rule takes (cannot happen; keeps the loop moving)
      push('word', start, pos, text.slice(start, pos));
    }
  }
  return tokens;
}
