/** Helpers for raw rows: drivers differ in how they return booleans, numbers and dates. */
export function toMs(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string' && !/^\d+$/.test(value)) {
    // PostgreSQL text form, `2026-11-22 21:16:35.998+00`: make it ISO 8601 for Date.
    return new Date(value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).getTime();
  }
  return Number(value);
}
export const toMsOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : toMs(value);
export const toBool = (value: unknown): boolean =>
  value === true || value === 1 || value === '1' || value === 't';

/** `?, ?, ?` for an IN list (callers guarantee a non-empty list). */
export const placeholders = (values: readonly unknown[]): string => values.map(() => '?').join(', ');

/** A LIKE pattern matching `text` anywhere; `!` is the escape character. */
export const containsPattern = (text: string): string =>
  `%${text.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;

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

/** The map's entry for `key`, created with `make` when missing. */
export function entryOf<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}
