/**
 * The order of an issue field's values, as SQLite's `order by fv.ordinal, fv.id, u.login, ifv.slot`
 * gives it, applied to rows read in the index's order `(issue_id, field_id, slot)`: the sort was
 * half the cost of a page's field-values statement (a temporary B-tree over every row), while
 * nearly every field holds one value and needs no sorting at all.
 */

/** What a value is ordered by: its bundle value's ordinal and id, else its user's login. */
export type OrderedValueRow = {
  issue_id: unknown;
  field_id: unknown;
  value_ordinal: unknown;
  value_id: unknown;
  login: string | null;
};

/**
 * Sorts, in place, each run of rows of one (issue, field) into SQLite's order for the keys
 * above; rows come in slot order, and the sort is stable, so slot breaks ties as in SQL.
 */
export function orderFieldValues<T extends OrderedValueRow>(rows: T[]): T[] {
  let start = 0;
  while (start < rows.length) {
    const first = rows[start] as T;
    let end = start + 1;
    while (end < rows.length && sameField(rows[end] as T, first)) end++;
    if (end - start > 1 && !isOrdered(rows, start, end)) {
      const run = rows.slice(start, end).sort(compareValueRows);
      for (let i = 0; i < run.length; i++) rows[start + i] = run[i] as T;
    }
    start = end;
  }
  return rows;
}

const sameField = (a: OrderedValueRow, b: OrderedValueRow) =>
  Number(a.issue_id) === Number(b.issue_id) && Number(a.field_id) === Number(b.field_id);

function isOrdered(rows: readonly OrderedValueRow[], start: number, end: number): boolean {
  for (let i = start + 1; i < end; i++)
    if (compareValueRows(rows[i - 1] as OrderedValueRow, rows[i] as OrderedValueRow) > 0) return false;
  return true;
}

export function compareValueRows(a: OrderedValueRow, b: OrderedValueRow): number {
  return (
    compareSqlite(a.value_ordinal, b.value_ordinal) ||
    compareSqlite(a.value_id, b.value_id) ||
    compareSqlite(a.login, b.login)
  );
}

/** SQLite's order of two values of a column: NULL first, then numbers, then text (BINARY collation). */
export function compareSqlite(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : -1;
  if (b === null || b === undefined) return 1;
  const textA = typeof a === 'string';
  const textB = typeof b === 'string';
  if (textA !== textB) return textA ? 1 : -1;
  if (textA) return compareUtf8(a as string, b as string);
  return Number(a) - Number(b);
}

/**
 * `memcmp` of the UTF-8 encodings (SQLite's BINARY collation) without encoding: UTF-16 code units
 * compare alike except that a surrogate (a code point above U+FFFF) sorts after U+E000-U+FFFF.
 */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return utf8Rank(x) - utf8Rank(y);
  }
  return a.length - b.length;
}

const utf8Rank = (unit: number) => (unit < 0xd800 ? unit : unit < 0xe000 ? unit + 0x2000 : unit - 0x800);
