import { createOrm, type Orm } from '@trackline/domain';
import { createScratchOrm, ensureMigratedTemplate } from './scratch-database.js';

/**
 * The database the tests run on. `TRACKLINE_TEST_DB=postgres` selects PostgreSQL at
 * `TRACKLINE_TEST_PG_URL` (default `postgres://postgres@127.0.0.1:5432`); anything else is
 * in-memory SQLite. The API and client harnesses read the same two variables.
 */
export const TEST_DIALECT = process.env.TRACKLINE_TEST_DB === 'postgres' ? 'postgresql' : 'sqlite';
export const TEST_PG_URL = process.env.TRACKLINE_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432';

/**
 * An empty database of its own (not migrated): a new in-memory SQLite database, or a scratch
 * PostgreSQL database that `orm.close()` drops.
 */
export async function createTestDatabase(): Promise<Orm> {
  return TEST_DIALECT === 'sqlite'
    ? createOrm({ kind: 'sqlite', file: ':memory:' })
    : createScratchOrm(TEST_PG_URL);
}

/**
 * A database with every migration applied: in-memory SQLite (migrated by the caller; it takes
 * milliseconds), or on PostgreSQL a copy of a template migrated once per set of migration files
 * (creating and migrating a database there takes a second or more; copying one, a fraction).
 */
export async function createMigratedTestDatabase(): Promise<Orm> {
  return TEST_DIALECT === 'sqlite'
    ? createOrm({ kind: 'sqlite', file: ':memory:' })
    : createScratchOrm(TEST_PG_URL, { template: await ensureMigratedTemplate(TEST_PG_URL) });
}
