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

/**
 * The notification worker runs in the server (as in production) and works on the events earlier
 * requests wrote, whenever it gets to them: its bookkeeping of an event (claim, lease, status) and
 * what it derives from events (deliveries, messages, webhook deliveries and attempts) are its own
 * work, not the request's. The events themselves are compared: a refused request writes none.
 */
const WORKER_COLUMNS: Record<string, Set<string>> = {
  notification_events: new Set(['status', 'lease_until', 'claim_token', 'attempts']),
};
const WORKER_TABLES = new Set([
  'notification_deliveries',
  'notification_messages',
  'webhook_deliveries',
  'webhook_attempts',
]);

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
    if (WORKER_TABLES.has(table)) continue;
    const rows = await connection.execute<Record<string, unknown>[]>(`select * from ${table}`);
    const ignored = WORKER_COLUMNS[table];
    const lines = rows
      .map((row: Record<string, unknown>) =>
        canonical(
          Object.entries(row).filter(([column]) => !IGNORED_COLUMNS.has(column) && !ignored?.has(column)),
        ),
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
 * A value that changes whenever a row a snapshot compares may have changed, far cheaper than a
 * snapshot: a counter in the test's own database that row triggers on every mapped table bump
 * (installed on first use; the notification worker's own work, which `dbSnapshot` leaves out,
 * does not move it: its tables have no trigger, and an event's only on the columns compared).
 * Equal marks prove nothing compared was written between them; different marks call for a
 * snapshot. Neither SQLite's `total_changes()` (the server's background workers write through the
 * same connection) nor PostgreSQL's next transaction id (the cluster's, moved by every other
 * database's tests running alongside) would do.
 */
export async function changeMark(orm: Orm): Promise<string> {
  let installed = markInstalled.get(orm);
  if (!installed) {
    installed = installMark(orm);
    markInstalled.set(orm, installed);
  }
  await installed;
  const [row] = await orm.em
    .fork()
    .getConnection()
    .execute<{ mark: unknown }[]>(`select n as mark from ${MARK_TABLE}`);
  return String(row?.mark);
}

const MARK_TABLE = 'test_change_mark';
const markInstalled = new WeakMap<Orm, Promise<void>>();

async function installMark(orm: Orm): Promise<void> {
  const connection = orm.em.fork().getConnection();
  const run = (sql: string) => connection.execute(sql, [], 'run');
  const postgres = dialectOf(orm) === 'postgresql';
  await run(`create table ${MARK_TABLE} (n bigint not null)`);
  await run(`insert into ${MARK_TABLE} (n) values (0)`);
  const bump = `update ${MARK_TABLE} set n = n + 1`;
  if (postgres)
    await run(
      `create function test_change_mark_bump() returns trigger language plpgsql as $$ begin ${bump}; return null; end $$`,
    );
  // Row triggers: the server's background statements (the VCS worker's claim, run every poll)
  // touch no row when there is nothing to do, and must not move the mark. SQLite takes one event
  // a trigger: one trigger each.
  const trigger = async (name: string, events: string[], table: string) => {
    if (postgres)
      await run(
        `create trigger ${name} after ${events.join(' or ')} on ${table} for each row execute function test_change_mark_bump()`,
      );
    else
      for (const [i, event] of events.entries())
        await run(`create trigger ${name}_${i} after ${event} on ${table} for each row begin ${bump}; end`);
  };
  for (const table of tablesOf(orm)) {
    if (WORKER_TABLES.has(table)) continue;
    const ignored = WORKER_COLUMNS[table];
    const updates = ignored
      ? `update of ${(await columnsOf(orm, table)).filter((c) => !ignored.has(c)).join(', ')}`
      : 'update';
    await trigger(`test_mark_${table}`, ['insert', updates, 'delete'], table);
    // A truncate has no rows (PostgreSQL).
    if (postgres)
      await run(
        `create trigger test_mark_${table}_truncate after truncate on ${table} for each statement execute function test_change_mark_bump()`,
      );
  }
}

async function columnsOf(orm: Orm, table: string): Promise<string[]> {
  const connection = orm.em.fork().getConnection();
  if (dialectOf(orm) === 'postgresql')
    return (
      await connection.execute<{ name: string }[]>(
        'select column_name as name from information_schema.columns where table_name = ? and table_schema = current_schema()',
        [table],
      )
    ).map((c: { name: string }) => c.name);
  return (await connection.execute<{ name: string }[]>(`pragma table_info(${table})`)).map(
    (c: { name: string }) => c.name,
  );
}
