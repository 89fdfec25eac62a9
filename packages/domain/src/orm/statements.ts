import { createHash } from 'node:crypto';
import type { Em } from './em.js';

/**
 * Raw reads through statements prepared once and reused. `em.execute` inlines the parameters
 * into the SQL text, so every call is a new statement for the database to parse and plan
 * (better-sqlite3's `prepare` alone was 6% of a computed read). Here the SQL text is fixed
 * (`?` placeholders) and the parameters are bound:
 *   - SQLite: one better-sqlite3 `Statement` per SQL text per database, kept for the process.
 *     The ORM's single connection is guarded by a mutex that a transaction holds until it ends;
 *     the statement runs directly inside the caller's own transaction (whose rows it then sees),
 *     at once when no transaction is open, or else under that mutex (never in the middle of
 *     another request's transaction): see `onSqlite`.
 *   - PostgreSQL: a named prepared statement (`pg` prepares it once per pooled connection).
 *     Inside a transaction, the statement goes through the ORM on the transaction's connection.
 * For reads; writes keep the entities and the unit of work, except single statements that
 * must stay one statement (`returningRows`).
 */

type Param = string | number | bigint | null | boolean;
const isParam = (v: unknown): v is Param =>
  v === null ||
  typeof v === 'string' ||
  typeof v === 'number' ||
  typeof v === 'bigint' ||
  typeof v === 'boolean';

type SqliteStatement = {
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number };
};
/** better-sqlite3's Database: `inTransaction` is whether a transaction is open on the connection. */
type SqliteDatabase = { prepare(sql: string): SqliteStatement; readonly inTransaction: boolean };
type PgPool = {
  query(config: {
    name: string;
    text: string;
    values: unknown[];
  }): Promise<{ rows: unknown[]; rowCount: number | null }>;
};
/**
 * Runs work while holding the ORM's one SQLite connection (Kysely's public `connection().execute`,
 * which takes the connection's mutex for the callback's duration, as a transaction does).
 */
type Exclusive = <T>(work: () => T) => Promise<T>;
type Native =
  | { kind: 'sqlite'; db: SqliteDatabase; exclusive: Exclusive }
  | { kind: 'postgresql'; pool: PgPool };

/** The most SQL texts kept prepared per database (texts with `in (?, ?, …)` vary with their length). */
const MAX_STATEMENTS = 500;

const natives = new WeakMap<object, Promise<Native>>();
const sqliteStatements = new WeakMap<SqliteDatabase, Map<string, SqliteStatement>>();
const pgTexts = new Map<string, { name: string; text: string }>();

function nativeOf(em: Em): Promise<Native> {
  const connection = em.getConnection();
  let native = natives.get(connection);
  if (!native) {
    native = (async () => {
      // Public API of MikroORM's SQL connection: the driver's own client (better-sqlite3's
      // Database or pg's Pool, told apart by shape) and the Kysely instance built on it.
      const client = (await connection.getNativeClient()) as SqliteDatabase | PgPool;
      if (!('prepare' in client)) return { kind: 'postgresql' as const, pool: client };
      const kysely = connection.getClient();
      const exclusive: Exclusive = (work) => kysely.connection().execute(async () => work());
      return { kind: 'sqlite' as const, db: client, exclusive };
    })();
    natives.set(connection, native);
  }
  return native;
}

function sqliteStatement(db: SqliteDatabase, sql: string): SqliteStatement {
  let cache = sqliteStatements.get(db);
  if (!cache) {
    cache = new Map();
    sqliteStatements.set(db, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    if (cache.size >= MAX_STATEMENTS) cache.clear();
    statement = db.prepare(sql);
    cache.set(sql, statement);
  }
  return statement;
}

/** `?` placeholders (outside quoted literals) become `$1, $2, …`; the name is the text's digest. */
function pgText(sql: string): { name: string; text: string } {
  let found = pgTexts.get(sql);
  if (!found) {
    let n = 0;
    const text = sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?/g, (m) => (m === '?' ? `$${++n}` : m));
    const name = `tl_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    if (pgTexts.size >= MAX_STATEMENTS * 4) pgTexts.clear();
    found = { name, text };
    pgTexts.set(sql, found);
  }
  return found;
}

/**
 * Runs a statement on SQLite's one connection: inside the caller's own transaction; at once when
 * no transaction is open on the connection (better-sqlite3 runs it synchronously, so no other
 * request can begin one meanwhile, and it sees committed rows only); otherwise after the open
 * transaction ends, under the connection's mutex (never in the middle of another request's
 * transaction). Taking the mutex when the connection is idle was 2% of a computed read.
 */
function onSqlite<T>(em: Em, native: Extract<Native, { kind: 'sqlite' }>, work: () => T): T | Promise<T> {
  if (em.getTransactionContext() || !native.db.inTransaction) return work();
  return native.exclusive(work);
}

/**
 * The parameters as SQLite binds them (no booleans: 0 or 1), or null when one takes the ORM's
 * path. One pass, and no copy unless a boolean needs one: an import's multi-row inserts bind
 * thousands of values per statement, passed to better-sqlite3 as one array (no spread).
 */
function sqliteParams(params: readonly unknown[]): readonly unknown[] | null {
  let bound = params;
  for (let i = 0; i < params.length; i++) {
    const value = params[i];
    if (typeof value === 'boolean') {
      if (bound === params) bound = params.slice();
      (bound as unknown[])[i] = value ? 1 : 0;
    } else if (!isParam(value)) return null;
  }
  return bound;
}

/**
 * The rows of a read (`?` placeholders). Parameters other than strings, numbers, booleans and
 * null (dates, say) take the ORM's path, which knows how each dialect stores them.
 */
export async function readRows<T>(em: Em, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  const native = await nativeOf(em);
  if (native.kind === 'sqlite') {
    const bound = sqliteParams(params);
    if (bound === null) return em.execute<T[]>(sql, [...params]);
    return onSqlite(em, native, () => sqliteStatement(native.db, sql).all(bound) as T[]);
  }
  if (!params.every(isParam)) return em.execute<T[]>(sql, [...params]);
  if (em.getTransactionContext() || inlineOnly.has(sql)) return em.execute<T[]>(sql, [...params]);
  const { name, text } = pgText(sql);
  try {
    return (await native.pool.query({ name, text, values: [...params] })).rows as T[];
  } catch (error) {
    // A parameter whose type PostgreSQL cannot infer (`? is null`, a bare `select ?`) only works
    // inlined, as the ORM sends it: remember the text and take that path.
    if ((error as { code?: string }).code !== INDETERMINATE_TYPE) throw error;
    inlineOnly.add(sql);
    return em.execute<T[]>(sql, [...params]);
  }
}

const INDETERMINATE_TYPE = '42P18';
/** SQL texts PostgreSQL could not prepare with untyped parameters. */
const inlineOnly = new Set<string>();

/** The first row of a read, or undefined. */
export async function readRow<T>(
  em: Em,
  sql: string,
  params: readonly unknown[] = [],
): Promise<T | undefined> {
  return (await readRows<T>(em, sql, params))[0];
}

/**
 * One write statement with `returning` (an insert-or-nothing, say), its parameters bound like
 * a read's: a large text parameter is not inlined into the SQL. Its returned rows.
 */
export const returningRows = readRows;

/**
 * One write statement without `returning` (`?` placeholders), prepared once like a read: how
 * many rows it changed. Parameters other than strings, numbers, booleans and null (dates)
 * take the ORM's path, like `readRows`.
 */
export async function runStatement(em: Em, sql: string, params: readonly unknown[] = []): Promise<number> {
  const viaOrm = async () =>
    (await em.execute<{ affectedRows: number }>(sql, [...params], 'run')).affectedRows;
  const native = await nativeOf(em);
  if (native.kind === 'sqlite') {
    const bound = sqliteParams(params);
    if (bound === null) return viaOrm();
    return onSqlite(em, native, () => sqliteStatement(native.db, sql).run(bound).changes);
  }
  if (!params.every(isParam)) return viaOrm();
  if (em.getTransactionContext() || inlineOnly.has(sql)) return viaOrm();
  const { name, text } = pgText(sql);
  try {
    return (await native.pool.query({ name, text, values: [...params] })).rowCount ?? 0;
  } catch (error) {
    if ((error as { code?: string }).code !== INDETERMINATE_TYPE) throw error;
    inlineOnly.add(sql);
    return viaOrm();
  }
}

/** A timestamp as the ORM stores it: ms since the epoch on SQLite, timestamptz (a Date) on PostgreSQL. */
export async function storedTime(em: Em, at: Date): Promise<Date | number> {
  return (await nativeOf(em)).kind === 'sqlite' ? at.getTime() : at;
}
