import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Em } from './em.js';
import { RENAMED_MIGRATIONS } from './migration-renames.js';
import { dialectOf, type Orm } from './open-orm.js';
import { CREATE_TEXT_INDEX, CREATE_TEXT_INDEX_STATE, TEXT_INDEX_SCHEMA } from './text-index-file.js';
import { inTransaction } from './transaction.js';

/** SQL migrations, one folder per dialect, applied in file-name order and recorded by name. */
export const migrationsDir = (dialect: string) =>
  fileURLToPath(new URL(`../../migrations/${dialect}/`, import.meta.url));

/** Splits a generated migration into statements (each ends with `;` at the end of a line). */
export function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*\n/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0 && !/^--[^\n]*$/.test(s));
}

const MIGRATION_NAME = /^(\d{4})_[a-z0-9_]+\.sql$/;

/**
 * The migration files of a folder in the order they apply. Refuses a folder whose names do not
 * each start with their own four-digit number (two files sharing a number would apply in an order
 * that hangs on the alphabet, and a new file numbered by counting would collide after a gap).
 */
export function orderedMigrationFiles(names: readonly string[]): string[] {
  const files = names.filter((f) => f.endsWith('.sql')).sort();
  const seen = new Map<string, string>();
  for (const file of files) {
    const number = MIGRATION_NAME.exec(file)?.[1];
    if (number === undefined) throw new Error(`Migration file ${file} is not named NNNN_snake_case.sql`);
    const other = seen.get(number);
    if (other !== undefined)
      throw new Error(`Migration files ${other} and ${file} share the number ${number}`);
    seen.set(number, file);
  }
  return files;
}

/** The migration that moved SQLite's text index to a file of its own (orm/text-index-file.ts). */
const TEXT_INDEX_MIGRATION = '0052_text_index_file.sql';

type Connection = ReturnType<Em['getConnection']>;
type Context = ReturnType<Em['getTransactionContext']>;

/**
 * The text index file must be this database's own: both files record the last queue entry the
 * index holds (migration 0052). A missing index file (a backup of the main file alone restored,
 * the file deleted) or one that records another entry (a backup of either file restored beside a
 * newer other) would answer text searches from words the issues do not have, or miss words they
 * do: the index is emptied, every issue queued, and the indexer rebuilds it from the main file in
 * the background. An index one batch ahead (a crash between a batch's two transactions) is kept.
 */
async function checkTextIndex(conn: Connection, ctx: Context): Promise<void> {
  if ((await textIndexAgrees(numberReader(conn, ctx))) === true) return;
  for (const sql of [
    `drop table if exists ${TEXT_INDEX_SCHEMA}.issue_fts`,
    `drop table if exists ${TEXT_INDEX_SCHEMA}.issue_fts_state`,
    CREATE_TEXT_INDEX,
    CREATE_TEXT_INDEX_STATE,
    `insert into ${TEXT_INDEX_SCHEMA}.issue_fts_state (id, through) select 1, through from main.issue_fts_state`,
    'insert into issue_fts_queue (issue_id) select id from issues',
  ])
    await conn.execute(sql, [], 'run', ctx);
}

/** Reads the one number a statement answers (`n`; -1 for none), in `ctx` when given. */
const numberReader =
  (conn: Connection, ctx?: Context) =>
  async (sql: string): Promise<number> =>
    Number((await conn.execute<{ n: number | null }[]>(sql, [], 'all', ctx))[0]?.n ?? -1);

/**
 * Whether both files have their state and record the same last entry (`read`: one number), or
 * `differ` when both have it and the entries differ.
 */
async function textIndexAgrees(read: (sql: string) => Promise<number>): Promise<boolean | 'differ'> {
  const present =
    (await read(
      `select count(*) as n from ${TEXT_INDEX_SCHEMA}.sqlite_master where name in ('issue_fts', 'issue_fts_state')`,
    )) === 2 &&
    (await read("select count(*) as n from main.sqlite_master where name = 'issue_fts_state'")) === 1;
  // Read only once the tables are known to be there (a statement naming a missing table fails).
  if (!present) return false;
  const index = await read(`select through as n from ${TEXT_INDEX_SCHEMA}.issue_fts_state`);
  const main = await read('select through as n from main.issue_fts_state');
  if (index === main) return true;
  // One batch ahead: the process stopped (a crash, kill -9) between a batch's two transactions.
  // The index holds the batch's words as the main file had them; the batch's entries are still
  // queued in the main file and are indexed again (the same words): nothing to rebuild. An index
  // ahead of what the main file ever queued is another file's (a restored backup): rebuilt.
  if (index > main && index <= (await read('select max(seq) as n from issue_fts_queue'))) return true;
  return 'differ';
}

/**
 * Whether the two files agree, read outside any transaction; when both record an entry and the
 * entries differ, whether they agree at some moment within about two seconds. A running indexer
 * (of another process on this file, or of one that is stopping) commits a batch to the index file
 * and then to the main file: between the two the files differ for a moment, and a check that saw
 * them then took the index for another file's and rebuilt it, or failed the start
 * (`SQLITE_BUSY_SNAPSHOT`: its write came after the indexer's). Files that once agree are each
 * other's; a difference that lasts is a crash or a restored backup.
 */
async function textIndexSettles(orm: Orm): Promise<boolean> {
  const read = numberReader((orm.em.fork() as Em).getConnection());
  for (let attempt = 0; attempt < 40; attempt++) {
    const agrees = await textIndexAgrees(read);
    // Missing state is never a batch in progress: nothing to wait for.
    if (agrees !== 'differ') return agrees;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** Applies the migrations not applied yet (`before`: only files whose names sort before it; tests of one migration's data use it). */
export async function migrate(orm: Orm, options: { before?: string } = {}): Promise<string[]> {
  const dialect = dialectOf(orm);
  const dir = migrationsDir(dialect);
  const files = orderedMigrationFiles(await readdir(dir)).filter(
    (f) => options.before === undefined || f < options.before,
  );
  const applied: string[] = [];
  // SQLite alters a table by rebuilding it; with foreign keys on, dropping the old table would
  // cascade into the rows that reference it. The pragma is a no-op inside a transaction, so it is
  // set around it, and the keys are checked before the transaction commits.
  const sqlite = dialect === 'sqlite';
  if (sqlite) await orm.em.getConnection().execute('pragma foreign_keys = off');
  try {
    const textIndexSettled = sqlite && (await textIndexSettles(orm));
    await migrateInTransaction(orm, dialect, dir, files, applied, textIndexSettled);
  } finally {
    if (sqlite) await orm.em.getConnection().execute('pragma foreign_keys = on');
  }
  return applied;
}

async function migrateInTransaction(
  orm: Orm,
  dialect: string,
  dir: string,
  files: string[],
  applied: string[],
  textIndexSettled: boolean,
): Promise<void> {
  await inTransaction(orm.em.fork() as Em, async (em) => {
    const conn = em.getConnection();
    const ctx = em.getTransactionContext();
    // Several API processes may start at once on one PostgreSQL: only one migrates.
    if (dialect === 'postgresql') await conn.execute('select pg_advisory_xact_lock(727001)', [], 'all', ctx);
    await conn.execute(
      'create table if not exists trackline_migrations (name varchar(200) primary key, applied_at varchar(40) not null)',
      [],
      'run',
      ctx,
    );
    const recorded = (
      await conn.execute<{ name: string }[]>('select name from trackline_migrations', [], 'all', ctx)
    ).map((r) => r.name);
    // Only a database that recorded old names is written to: a normal start takes no write lock
    // (another process may be writing; SQLite would make this one wait, or fail after its timeout).
    for (const oldName of recorded.filter((name) => Object.hasOwn(RENAMED_MIGRATIONS, name))) {
      const newName = RENAMED_MIGRATIONS[oldName] as string;
      await conn.execute(
        'update trackline_migrations set name = ? where name = ?',
        [newName, oldName],
        'run',
        ctx,
      );
    }
    const done = new Set(recorded.map((name) => RENAMED_MIGRATIONS[name] ?? name));
    for (const file of files) {
      if (done.has(file)) continue;
      for (const statement of splitStatements(await readFile(dir + file, 'utf8'))) {
        await conn.execute(statement, [], 'run', ctx);
      }
      await conn.execute(
        'insert into trackline_migrations (name, applied_at) values (?, ?)',
        [file, new Date().toISOString()],
        'run',
        ctx,
      );
      applied.push(file);
    }
    if (
      dialect === 'sqlite' &&
      !textIndexSettled &&
      (done.has(TEXT_INDEX_MIGRATION) || applied.includes(TEXT_INDEX_MIGRATION))
    )
      await checkTextIndex(conn, ctx);
    if (dialect === 'sqlite' && applied.length > 0) {
      const broken = await conn.execute<unknown[]>('pragma foreign_key_check', [], 'all', ctx);
      if (broken.length > 0) throw new Error(`Migration left broken references: ${JSON.stringify(broken)}`);
    }
  });
}
