/** Pieces of raw SQL text built from values (IN lists, LIKE patterns). */

/** `?, ?, ?` for an IN list (callers guarantee a non-empty list). */
export const placeholders = (values: readonly unknown[]): string => values.map(() => '?').join(', ');

/**
 * An IN list's values padded to a power of two by repeating the last one (which changes no
 * match): the statement texts of lists of varying length then come in a few shapes that stay
 * prepared (an import names 130 users in one request, 142 in the next). Non-empty lists only.
 */
export function paddedInList<T>(values: readonly T[]): T[] {
  let size = 1;
  while (size < values.length) size *= 2;
  const out = [...values];
  const last = values[values.length - 1] as T;
  while (out.length < size) out.push(last);
  return out;
}

/** A LIKE pattern matching `text` anywhere; `!` is the escape character. */
export const containsPattern = (text: string): string =>
  `%${text.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
