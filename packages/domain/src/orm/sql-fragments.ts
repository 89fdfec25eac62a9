/** Pieces of raw SQL text built from values (IN lists, LIKE patterns). */

/** `?, ?, ?` for an IN list (callers guarantee a non-empty list). */
export const placeholders = (values: readonly unknown[]): string => values.map(() => '?').join(', ');

/** A LIKE pattern matching `text` anywhere; `!` is the escape character. */
export const containsPattern = (text: string): string =>
  `%${text.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
