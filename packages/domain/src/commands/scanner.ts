import type { Diagnostic } from './result.js';
import { isSpace, type Token } from './token.js';

export type ScanResult = { tokens: Token[]; diagnostics: Diagnostic[] };

const OPEN = 123; // {
const CLOSE = 125; // }

function isControl(code: number): boolean {
  return (code < 32 && !isSpace(code)) || code === 127;
}

function isWordChar(code: number): boolean {
  return code !== OPEN && code !== CLOSE && !isSpace(code) && !isControl(code);
}

/**
 * Splits a command into tokens. Never throws: input it cannot read becomes an `unknown`
 * token with a message, and an unclosed `{` runs to the end of the text.
 */
export function scan(text: string): ScanResult {
  const tokens: Token[] = [];
  const diagnostics: Diagnostic[] = [];
  let pos = 0;
  while (pos < text.length) {
    const code = text.charCodeAt(pos);
    const start = pos;
    if (isSpace(code)) {
      pos++;
    } else if (code === OPEN) {
      const close = text.indexOf('}', pos + 1);
      const closed = close >= 0;
      pos = closed ? close + 1 : text.length;
      const inner = text.slice(start + 1, closed ? close : text.length);
      tokens.push({ kind: 'quoted', range: { start, end: pos }, text: inner, closed });
      if (!closed) diagnostics.push({ start, end: pos, message: MISSING_CLOSE });
    } else if (code === CLOSE || isControl(code)) {
      pos++;
      while (code !== CLOSE && pos < text.length && isControl(text.charCodeAt(pos))) pos++;
      const message =
        code === CLOSE ? 'Unexpected }: braces only close a {…} value' : 'Unexpected control character';
      tokens.push({ kind: 'unknown', range: { start, end: pos }, text: text.slice(start, pos), message });
      diagnostics.push({ start, end: pos, message });
    } else {
      while (pos < text.length && isWordChar(text.charCodeAt(pos))) pos++;
      tokens.push({ kind: 'word', range: { start, end: pos }, text: text.slice(start, pos) });
    }
  }
  return { tokens, diagnostics };
}

export const MISSING_CLOSE = 'Missing } to close the {…} value';
