import type { EntitySchema } from '@mikro-orm/core';
import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { SqliteDriver } from '@mikro-orm/sqlite';
import { attachTextIndexStatements } from './text-index-file.js';

export type DatabaseConfig =
  | { kind: 'sqlite'; file: string }
  | { kind: 'postgresql'; url: string; poolSize?: number };

export type Orm = MikroORM;

/**
 * A table of the main file that no row is ever written to: every transaction on SQLite begins
 * with a delete from it that changes nothing, which takes the main file's write lock
 * (`inTransaction`, transaction.ts).
 */
export const WRITE_LOCK_TABLE = 'trackline_write_lock';

/** SQLite's FTS5 table of search, its shadow tables and its queue. */
const FTS_TABLES = [
  'issue_fts_queue',
  'issue_fts_state',
  'issue_fts',
  'issue_fts_data',
  'issue_fts_idx',
  'issue_fts_docsize',
  'issue_fts_config',
  'issue_fts_content',
  // The connection's own vocabulary of the index (`temp`, orm/text-index-file.ts).
  'issue_fts_words',
];
export type Dialect = DatabaseConfig['kind'];

/** `postgres://...` selects PostgreSQL; anything else is a SQLite file (or `:memory:`). */
export function parseDatabaseConfig(value: string): DatabaseConfig {
  return /^postgres(ql)?:\/\//.test(value)
    ? { kind: 'postgresql', url: value }
    : { kind: 'sqlite', file: value };
}

/**
 * Opens the ORM on `db` with the given entities (the model's list: `createOrm` in
 * `model/create-orm.ts`), the pragmas and the tables the schema generator must leave alone.
 */
export async function openOrm(
  db: DatabaseConfig,
  entities: EntitySchema[],
  extra: { debug?: boolean } = {},
): Promise<Orm> {
  const common = {
    entities,
    // Request code always works on a fork; the global context is a bug.
    allowGlobalContext: false,
    forceUtcTimezone: true,
    // The migration ledger and the authorisation epoch with its triggers (migration 0012) are
    // ours, not entities': schema diffs must leave them alone (`auth-epoch.test.ts` checks them).
    // The full-text indexes of search (migration 0020) are not entities either, nor the counts
    // per issue that triggers keep (`issue_marks`, migration 0045).
    schemaGenerator: {
      skipTables: [
        'trackline_migrations',
        'trackline_auth_epoch',
        WRITE_LOCK_TABLE,
        'issue_search',
        'issue_marks',
        // Attachment contents and the shared folder's marker (migration 0057): raw SQL of their stores.
        'attachment_blobs',
        'attachment_chunks',
        'attachment_directory',
        ...FTS_TABLES,
      ],
      ignoreTriggers: true,
    },
    ...extra,
  };
  if (db.kind === 'postgresql') {
    return MikroORM.init({
      ...common,
      driver: PostgreSqlDriver,
      clientUrl: db.url,
      pool: { min: 0, max: db.poolSize ?? 10 },
    });
  }
  const orm = await MikroORM.init({ ...common, driver: SqliteDriver, dbName: db.file });
  const conn = orm.em.getConnection();
  // WAL lets readers run beside the single writer; busy_timeout makes a second process wait, not fail.
  if (db.file !== ':memory:') await conn.execute('pragma journal_mode = wal');
  await conn.execute('pragma synchronous = normal');
  await conn.execute('pragma busy_timeout = 5000');
  await conn.execute('pragma foreign_keys = on');
  // The table whose no-op delete takes the main file's write lock as a transaction begins
  // (transaction.ts): in place before any transaction, migrations' included.
  await conn.execute(`create table if not exists main.${WRITE_LOCK_TABLE} (id integer primary key)`);
  for (const { sql, params } of attachTextIndexStatements(db.file)) await conn.execute(sql, params);
  return orm;
}

export function dialectOf(orm: Orm): Dialect {
  return orm.config.get('driver') === PostgreSqlDriver ? 'postgresql' : 'sqlite';
}

/** The dialect of the database an entity manager works on. */
export function dialectOfEm(em: { config: Orm['config'] }): Dialect {
  return em.config.get('driver') === PostgreSqlDriver ? 'postgresql' : 'sqlite';
}
