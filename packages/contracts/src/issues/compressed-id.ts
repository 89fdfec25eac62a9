/**
 * Legacy "compressed persistent ids" (`issueIds` of /rest/command/*): the numeric part of an
 * entity id (`74-1234` → 1234) written in base 64, most significant digit first, digits
 * 0-9 → '0'..'9', 10-35 → 'A'..'Z', 36-61 → 'a'..'z'. The legacy clients never showed digits
 * 62 and 63; we write them as the URL-safe '-' and '_' (our assumption) so every id encodes.
 */
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_';

export function encodeCompressedId(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError('a non-negative integer is required');
  let out = '';
  let rest = value;
  do {
    out = DIGITS[rest % 64] + out;
    rest = Math.floor(rest / 64);
  } while (rest > 0);
  return out;
}

/** The number, or null when the text is not a compressed id we can read. */
export function decodeCompressedId(text: string): number | null {
  if (text.length === 0 || text.length > 8) return null;
  let value = 0;
  for (const char of text) {
    const digit = DIGITS.indexOf(char);
    if (digit < 0) return null;
    value = value * 64 + digit;
  }
  return value;
}

/** The legacy entity id of an issue row. 74 was the issue entity type in the original. */
export const issueEntityId = (rowId: number) => `74-${rowId}`;
