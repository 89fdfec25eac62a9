import { createHash } from 'node:crypto';
import { dialectOf, type Orm } from '@trackline/domain';

/**
 * Every table the ORM maps (entities and pivot tables), as row count and a hash of the rows,
 * read through the ORM's connection. Compared before and after a refused request to prove it
 * changed nothing. Usage stamps (`last_used_at`: a token or session touched by authenticating)
 * are not state and are left out.
 */
export type DbSnapshot = Record<string, { rows: number; hash: string }>;

const IGNORED_COLUMNS = new Set(['last_used_at']);

function tablesOf(orm: Orm): string[] {
  const tables = new Set<string>();
  for (const meta of orm.getMetadata().getAll().values()) {
    if (meta.tableName && !meta.virtual && !meta.embeddable && !meta.view) tables.add(meta.tableName);
  }
  // A snapshot of nothing would prove nothing.
  if (!tables.has('users') || !tables.has('issues')) throw new Error(`unexpected table list: ${[...tables]}`);
  return [...tables].sort();
}

const canonical = (value: unknown) =>
  JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v));

export async function dbSnapshot(orm: Orm): Promise<DbSnapshot> {
  const connection = orm.em.fork().getConnection();
  const snapshot: DbSnapshot = {};
  for (const table of tablesOf(orm)) {
    const rows = await connection.execute<Record<string, unknown>[]>(`select * from ${table}`);
    const lines = rows
      .map((row: Record<string, unknown>) =>
        canonical(Object.entries(row).filter(([column]) => !IGNORED_COLUMNS.has(column))),
      )
      .sort();
    snapshot[table] = {
      rows: rows.length,
      hash: createHash('sha256').update(lines.join('\n')).digest('hex'),
    };
  }
  return snapshot;
}

/** Tables whose rows differ between two snapshots (empty when nothing changed). */
export function changedTables(before: DbSnapshot, after: DbSnapshot): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter(
    (name) => before[name]?.rows !== after[name]?.rows || before[name]?.hash !== after[name]?.hash,
  );
}

/**
 * A value that changes whenever any row may have changed, far cheaper than a snapshot: on
 * SQLite the connection's `total_changes()` (the in-process server writes through this one
 * connection), on PostgreSQL the next transaction id (every writing transaction takes one).
 * Equal marks prove nothing was written between them; different marks call for a snapshot.
 */
export async function changeMark(orm: Orm): Promise<string> {
  const connection = orm.em.fork().getConnection();
  const sql =
    dialectOf(orm) === 'postgresql'
      ? 'select pg_snapshot_xmax(pg_current_snapshot())::text as mark'
      : 'select total_changes() as mark';
  const [row] = await connection.execute<{ mark: unknown }[]>(sql);
  return String(row?.mark);
}
