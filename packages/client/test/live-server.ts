import type { AddressInfo } from 'node:net';
import { createServer } from '@trackline/api';
import { createTestOrm } from '@trackline/domain/testing';

/** A real server on a free loopback port, over a fresh test-kit database (SQLite or PostgreSQL). */
export async function startLiveServer() {
  const orm = await createTestOrm();
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
