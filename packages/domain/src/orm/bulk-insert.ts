import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Em } from './em.js';
import { readRows, runStatement } from './statements.js';

/** Bound parameters per statement: well under SQLite's 32,766 and PostgreSQL's 65,535. */
const MAX_PARAMETERS = 8000;

export type BulkInsertOptions = {
  /** `on conflict do nothing`: rows a unique index already holds are skipped (both dialects). */
  ignoreConflicts?: boolean;
};

/** The statements of one bulk insert: SQL text and bound values per chunk of rows. */
function* chunks(
  tx: Em,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  tail: string,
): Generator<{ sql: string; params: unknown[] }> {
  const postgres = tx.config.get('driver') === PostgreSqlDriver;
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const head = `insert into ${table} (${columns.join(', ')}) values `;
  for (let start = 0; start < rows.length; ) {
    // SQLite: row counts of powers of two only. A request's 437 field values are 256 + 128 + 32
    // + 16 + 4 + 1 rows, statements of a handful of shapes that stay prepared, where a statement
    // of exactly 437 rows would be a new text, parsed and planned again (0.2 ms at this size) for
    // almost every request. PostgreSQL runs a transaction's statements inlined (`runStatement`),
    // so there fewer statements are what counts.
    const left = Math.min(perStatement, rows.length - start);
    let size = postgres ? left : 1;
    while (size * 2 <= left) size *= 2;
    const end = start + size;
    // One flat array of the values, built in place (no per-row copies: an import binds
    // thousands of values per statement).
    const params: unknown[] = new Array((end - start) * columns.length);
    let k = 0;
    for (let r = start; r < end; r++) {
      const row = rows[r] as readonly unknown[];
      for (let c = 0; c < row.length; c++) {
        const value = row[c];
        // SQLite: a Date as ms since the epoch, a boolean as 0 or 1 (as the driver binds them).
        params[k++] = postgres
          ? value
          : value instanceof Date
            ? value.getTime()
            : typeof value === 'boolean'
              ? Number(value)
              : value;
      }
    }
    yield { sql: `${head}${tupleList(tuple, end - start)}${tail}`, params };
    start = end;
  }
}

/** `(?, ?), (?, ?), …` for `count` rows, remembered per shape (an import repeats the same counts). */
const tupleLists = new Map<string, string>();
function tupleList(tuple: string, count: number): string {
  const key = `${count}:${tuple}`;
  let list = tupleLists.get(key);
  if (list === undefined) {
    list = new Array(count).fill(tuple).join(', ');
    if (tupleLists.size > 1000) tupleLists.clear();
    tupleLists.set(key, list);
  }
  return list;
}

/**
 * Multi-row `insert into table (columns) values (...), (...)` as plain SQL, in as few
 * statements as the parameter limit allows: for the import's bulk writes, where the ORM's
 * per-row entity handling costs more than the database does. Dates are bound as each driver
 * stores them (SQLite: ms since the epoch, the ORM's own encoding; PostgreSQL: timestamptz).
 * The values are bound, not inlined, so a statement of the same shape is prepared once
 * (`runStatement`; an import's requests repeat the same row counts). Table and column names
 * come from code, never from input.
 */
export async function bulkInsert(
  tx: Em,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  options: BulkInsertOptions = {},
): Promise<void> {
  if (rows.length === 0) return;
  const tail = options.ignoreConflicts ? ' on conflict do nothing' : '';
  for (const { sql, params } of chunks(tx, table, columns, rows, tail)) await runStatement(tx, sql, params);
}

/**
 * `bulkInsert` answering the `returning` columns of the inserted rows, in no particular order
 * (the caller matches them by a column it wrote; saves reading them again). Their values are as
 * the driver hands them back (a PostgreSQL bigint as a string): the caller normalises them.
 */
export async function bulkInsertReturning<C extends string>(
  tx: Em,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  returning: readonly C[],
): Promise<Record<C, unknown>[]> {
  const out: Record<C, unknown>[] = [];
  if (rows.length === 0) return out;
  for (const { sql, params } of chunks(tx, table, columns, rows, ` returning ${returning.join(', ')}`))
    for (const row of await readRows(tx, sql, params)) out.push(row as Record<C, unknown>);
  return out;
}
