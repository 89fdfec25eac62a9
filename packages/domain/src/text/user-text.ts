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
