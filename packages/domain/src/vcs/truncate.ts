/** Appended where text was cut, so a reader sees that something is missing. */
export const TRUNCATION_MARKER = '… [truncated]';

/**
 * At most `max` UTF-16 code units (what the contracts' length limits count), ending with the
 * marker when cut. Never splits a surrogate pair: a lone surrogate is ill-formed text.
 */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - TRUNCATION_MARKER.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}${TRUNCATION_MARKER}`;
}
