/** Decoding raw-row values: drivers differ in how they return booleans, numbers and dates. */

/** Milliseconds since the epoch from a raw timestamp value (Date, PostgreSQL text or number). */
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
