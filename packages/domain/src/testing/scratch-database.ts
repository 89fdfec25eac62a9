import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { createOrm, migrate, migrationsDir, type Orm } from '@trackline/domain';

/** A throw-away PostgreSQL database: `url` connects to it, `drop()` removes it (idempotent). */
export type ScratchDatabase = { name: string; url: string; drop(): Promise<void> };

/** Every scratch database name starts with this, so leftovers of crashed runs are easy to find. */
export const SCRATCH_DATABASE_PREFIX = 'trackline_t_';

let counter = 0;

/**
 * Creates an empty, uniquely named database (`trackline_t_<pid>_<counter>_<random>`) on the
 * PostgreSQL server at `serverUrl`, for tests and tools that need a database of their own.
 * The caller migrates and seeds it; `drop()` removes it, closing any connection still open.
 *
 * `serverUrl` may name the database to administer from (`postgres://host:5432/test`); without
 * one (`postgres://host:5432`) the `test` database is used, or `postgres` when there is no
 * `test`. Reads no environment: callers decide which server to use.
 */
export async function createScratchDatabase(
  serverUrl: string,
  options: { template?: string | undefined } = {},
): Promise<ScratchDatabase> {
  const name = `${SCRATCH_DATABASE_PREFIX}${process.pid}_${++counter}_${randomBytes(4).toString('hex')}`;
  const target = new URL(serverUrl);
  const adminDatabases = adminDatabasesOf(target);
  const admin = await connectToFirst(target, adminDatabases);
  try {
    const template = options.template ? ` template "${options.template}"` : '';
    await admin.em.getConnection().execute(`create database "${name}"${template}`, [], 'run');
  } finally {
    await admin.close(true);
  }
  target.pathname = `/${name}`;
  return {
    name,
    url: target.toString(),
    async drop() {
      const conn = await connectToFirst(new URL(serverUrl), adminDatabases);
      try {
        await conn.em.getConnection().execute(`drop database if exists "${name}" with (force)`, [], 'run');
      } finally {
        await conn.close(true);
      }
    },
  };
}

const adminDatabasesOf = (server: URL) =>
  server.pathname.length > 1 ? [server.pathname.slice(1)] : ['test', 'postgres'];

/** Migrated templates are named by a hash of the migration files, so a changed migration gets a new one. */
export const TEMPLATE_DATABASE_PREFIX = 'trackline_tpl_';

const templates = new Map<string, Promise<string>>();

/**
 * The name of a database on `serverUrl` holding every PostgreSQL migration and nothing else,
 * created on first use (once per set of migration files, shared by every process and run) for
 * `createScratchDatabase(…, { template })`. Built under a temporary scratch name and renamed
 * when complete, under an advisory lock, so concurrent test processes neither race nor copy a
 * half-migrated template. Templates of other migration sets are left alone: another checkout
 * may be using them.
 */
export function ensureMigratedTemplate(serverUrl: string): Promise<string> {
  let name = templates.get(serverUrl);
  if (!name) {
    name = buildTemplate(serverUrl);
    templates.set(serverUrl, name);
    name.catch(() => templates.delete(serverUrl));
  }
  return name;
}

async function buildTemplate(serverUrl: string): Promise<string> {
  const dir = migrationsDir('postgresql');
  const digest = createHash('sha256');
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort()) {
    digest
      .update(file)
      .update('\0')
      .update(await readFile(dir + file))
      .update('\0');
  }
  const name = `${TEMPLATE_DATABASE_PREFIX}${digest.digest('hex').slice(0, 16)}`;
  const server = new URL(serverUrl);
  const admin = await connectToFirst(server, adminDatabasesOf(server));
  const conn = admin.em.getConnection();
  try {
    // A session-level lock: the build spans statements outside any transaction (create database).
    await conn.execute('select pg_advisory_lock(727003)', [], 'all');
    const exists = await conn.execute('select 1 from pg_database where datname = ?', [name], 'all');
    if (exists.length === 0) {
      const scratch = await createScratchDatabase(serverUrl);
      try {
        const orm = await createOrm({ kind: 'postgresql', url: scratch.url });
        try {
          await migrate(orm);
        } finally {
          await orm.close(true);
        }
        await conn.execute(`alter database "${scratch.name}" rename to "${name}"`, [], 'run');
      } catch (error) {
        await scratch.drop();
        throw error;
      }
    }
    return name;
  } finally {
    await conn.execute('select pg_advisory_unlock(727003)', [], 'all').catch(() => {});
    await admin.close(true);
  }
}

/** A one-connection ORM with no entities, on the first of `databases` that exists. */
async function connectToFirst(server: URL, databases: string[]): Promise<MikroORM> {
  let lastError: unknown;
  for (const database of databases) {
    const url = new URL(server);
    url.pathname = `/${database}`;
    let orm: MikroORM | undefined;
    try {
      orm = await MikroORM.init({
        driver: PostgreSqlDriver,
        clientUrl: url.toString(),
        entities: [],
        discovery: { warnWhenNoEntities: false },
        pool: { min: 0, max: 1 },
      });
      await orm.em.getConnection().execute('select 1', [], 'all');
      return orm;
    } catch (error) {
      lastError = error;
      await orm?.close(true);
    }
  }
  throw lastError;
}

/**
 * An ORM on a new scratch database (not migrated) whose `close()` also drops the database,
 * so a test harness cannot leak one by forgetting the second step.
 */
export async function createScratchOrm(
  serverUrl: string,
  options: { template?: string | undefined } = {},
): Promise<Orm> {
  const scratch = await createScratchDatabase(serverUrl, options);
  const orm = await createOrm({ kind: 'postgresql', url: scratch.url });
  const close = orm.close.bind(orm);
  orm.close = async (force?: boolean) => {
    try {
      await close(force);
    } finally {
      await scratch.drop();
    }
  };
  return orm;
}
