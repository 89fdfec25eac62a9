import { randomBytes } from 'node:crypto';
import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { createOrm, type Orm } from '@trackline/domain';

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
export async function createScratchDatabase(serverUrl: string): Promise<ScratchDatabase> {
  const name = `${SCRATCH_DATABASE_PREFIX}${process.pid}_${++counter}_${randomBytes(4).toString('hex')}`;
  const target = new URL(serverUrl);
  const adminDatabases = target.pathname.length > 1 ? [target.pathname.slice(1)] : ['test', 'postgres'];
  const admin = await connectToFirst(target, adminDatabases);
  try {
    await admin.em.getConnection().execute(`create database "${name}"`, [], 'run');
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
export async function createScratchOrm(serverUrl: string): Promise<Orm> {
  const scratch = await createScratchDatabase(serverUrl);
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
