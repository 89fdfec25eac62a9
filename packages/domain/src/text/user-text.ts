/** Normalising text typed by users before it is stored or looked up. */

/**
 * A lookup key for a name typed by a user: one line, trimmed, lower-cased. The SQLite
 * driver inlines parameters into the SQL text, where a NUL would cut the statement short.
 */
export const nameKey = (text: string): string => oneLine(text).trim().toLowerCase();

/** Multi-line text as stored: NUL is dropped (PostgreSQL cannot store it in text). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing NUL is the point
export const storableText = (text: string): string => text.replace(/\u0000/g, '');

/** One-line text: control characters (tabs, newlines, NUL...) become spaces. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: replacing control characters is the point
export const oneLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f]/g, ' ');

/** Every Unicode whitespace character, plus what JavaScript's `\s` adds (U+FEFF). */
const WHITESPACE_RUN = /[\s\p{White_Space}]+/gu;

/**
 * A name as stored and compared where look-alike spellings must not make two names: NFC, each
 * run of Unicode whitespace made one space, ends trimmed (`All\u00A0Users` and `All  Users` are
 * `All Users`).
 */
export const normalizeSpacing = (text: string): string =>
  text.normalize('NFC').replace(WHITESPACE_RUN, ' ').trim();

/** Invisible formatting characters (Unicode Cf: bidi overrides, zero-width joiners and spaces). */
const FORMAT_CHARACTER = /\p{Cf}/u;
export const hasFormatCharacters = (text: string): boolean => FORMAT_CHARACTER.test(text);
