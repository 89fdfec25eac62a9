import type { AddressInfo } from 'node:net';
import { createServer } from '@trackline/api';
import { createOrm, migrate, seed } from '@trackline/domain';

/** A real server on a free loopback port, with a fresh in-memory database. */
export async function startLiveServer() {
  const orm = await createOrm({ kind: 'sqlite', file: ':memory:' });
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
