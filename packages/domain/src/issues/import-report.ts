import { isStorableTimestamp } from '@trackline/contracts';
/** One problem of one imported item; `fieldName` and `value` as the original's `<error>` attributes. */
export type ImportProblem = { message: string; fieldName?: string; value?: string };

/** The outcome of one item (`id`: a login, an issue number, a link's ends). */
export type ImportItemResult = { id: string; imported: boolean; errors?: ImportProblem[] };

export const imported = (id: string): ImportItemResult => ({ id, imported: true });
export const refused = (id: string, errors: ImportProblem[]): ImportItemResult => ({
  id,
  imported: false,
  errors,
});

/** Whether `text` is a timestamp in ms since the epoch as the import formats send it. */
export function parseTimestamp(text: string | undefined): number | null {
  if (text === undefined) return null;
  const trimmed = text.trim();
  if (!/^-?\d{1,15}$/.test(trimmed)) return null;
  const ms = Number(trimmed);
  return isStorableTimestamp(ms) ? ms : null;
}
