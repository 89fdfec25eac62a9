import type { AddressInfo } from 'node:net';
import { createServer } from '@trackline/api';
import { createOrm, createScratchOrm, migrate, type Orm, seed } from '@trackline/domain';

/**
 * A fresh database: in-memory SQLite, or with `TRACKLINE_TEST_DB=postgres` a scratch PostgreSQL
 * database on `TRACKLINE_TEST_PG_URL` (default `postgres://postgres@127.0.0.1:5432`) that
 * `orm.close()` drops.
 */
function createTestDatabase(): Promise<Orm> {
  if (process.env.TRACKLINE_TEST_DB !== 'postgres') return createOrm({ kind: 'sqlite', file: ':memory:' });
  return createScratchOrm(process.env.TRACKLINE_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432');
}

/** A real server on a free loopback port, with a fresh database (see `createTestDatabase`). */
export async function startLiveServer() {
  const orm = await createTestDatabase();
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
    },
  };
}
