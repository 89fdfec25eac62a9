import { MAX_ISSUE_NUMBER } from '@trackline/contracts';

/** `PRJ-12`: the project's short name, a dash, the number in the project. */
export function formatIssueId(shortName: string, numberInProject: number): string {
  return `${shortName}-${numberInProject}`;
}

/**
 * Splits `prj-12` into the upper-cased short-name key and the number; null when malformed or
 * beyond `MAX_ISSUE_NUMBER` (no such issue can exist: such ids are simply not found).
 */
export function parseIssueId(readableId: string): { shortNameKey: string; number: number } | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ids never contain control characters
  const match = /^\s*([^\s\u0000-\u001f\u007f]+)-(\d{1,10})\s*$/.exec(readableId);
  if (!match?.[1] || !match[2]) return null;
  const number = Number(match[2]);
  if (number > MAX_ISSUE_NUMBER) return null;
  return { shortNameKey: match[1].toUpperCase(), number };
}
