import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Em } from './em.js';
import { runStatement } from './statements.js';

/** Bound parameters per statement: well under SQLite's 32,766 and PostgreSQL's 65,535. */
const MAX_PARAMETERS = 8000;

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
): Promise<void> {
  if (rows.length === 0) return;
  const postgres = tx.config.get('driver') === PostgreSqlDriver;
  const encode = (value: unknown) => (value instanceof Date && !postgres ? value.getTime() : value);
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    await runStatement(
      tx,
      `insert into ${table} (${columns.join(', ')}) values ${chunk.map(() => tuple).join(', ')}`,
      chunk.flatMap((row) => row.map(encode)),
    );
  }
}
