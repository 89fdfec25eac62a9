import type { AddressInfo } from 'node:net';
import { createServer } from '@trackline/api';
import { createOrm, createScratchDatabase, migrate, type Orm, seed } from '@trackline/domain';

/**
 * A fresh database: in-memory SQLite, or with `TRACKLINE_TEST_DB=postgres` a scratch PostgreSQL
 * database on `TRACKLINE_TEST_PG_URL` (default `postgres://postgres@127.0.0.1:5432`); the
 * returned `drop` removes it after the ORM is closed.
 */
async function createTestDatabase(): Promise<{ orm: Orm; drop: () => Promise<void> }> {
  if (process.env.TRACKLINE_TEST_DB !== 'postgres') {
    return { orm: await createOrm({ kind: 'sqlite', file: ':memory:' }), drop: async () => {} };
  }
  const scratch = await createScratchDatabase(
    process.env.TRACKLINE_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432',
  );
  return { orm: await createOrm({ kind: 'postgresql', url: scratch.url }), drop: scratch.drop };
}

/** A real server on a free loopback port, with a fresh database (see `createTestDatabase`). */
export async function startLiveServer() {
  const { orm, drop } = await createTestDatabase();
  await migrate(orm);
  await seed(orm, { adminPassword: 'root-password' });
  const server = createServer({ orm, logError: () => {} });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await orm.close(true);
      await drop();
    },
  };
}
