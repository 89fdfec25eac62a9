import type { TextRange } from './ops.js';

/** A run of characters other than whitespace and braces: one word of a name, a keyword or a value. */
export type WordToken = { kind: 'word'; range: TextRange; text: string };

/** `{…}`: a value typed as one token. `text` is what is inside; `closed` is false when the text ended first. */
export type QuotedToken = { kind: 'quoted'; range: TextRange; text: string; closed: boolean };

/** Input the scanner could not read (a stray `}`, control characters), with the reason. */
export type UnknownToken = { kind: 'unknown'; range: TextRange; text: string; message: string };

export type Token = WordToken | QuotedToken | UnknownToken;

/**
 * The key a token is looked up by: lower-cased, and for `{…}` the inner words joined by one
 * space. Unknown tokens get a key no name can have.
 */
export function tokenKey(token: Token): string {
  if (token.kind === 'word') return token.text.toLowerCase();
  if (token.kind === 'quoted') return normalizePhrase(token.text);
  return '\u0000';
}

/** The words of a name, lower-cased: how names are compared with typed words. */
export function phraseWords(name: string): string[] {
  return splitWords(name.toLowerCase());
}

/** Splits at whitespace runs (as `\s+` would) without a regular expression: names are many. */
function splitWords(text: string): string[] {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const space = i === text.length || isSpace(text.charCodeAt(i));
    if (space && start >= 0) {
      words.push(text.slice(start, i));
      start = -1;
    } else if (!space && start < 0) {
      start = i;
    }
  }
  return words;
}

export function normalizePhrase(name: string): string {
  return phraseWords(name).join(' ');
}

/** The text with its whitespace runs made single spaces and its ends trimmed; case kept. */
export function collapseSpaces(text: string): string {
  return splitWords(text).join(' ');
}

/** The same characters as the `\s` class of regular expressions, so names and typed text split alike. */
export function isSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
