import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from '@trackline/api';
import { createFileAttachmentStore, type Orm } from '@trackline/domain';
import { createTestOrm } from '@trackline/domain/testing';

/** The console as built (`vite build`: this package's `dist`). */
export const CONSOLE_DIR = fileURLToPath(new URL('../dist/', import.meta.url));

/**
 * The real server over a fresh test-kit database (SQLite, or PostgreSQL with
 * `TRACKLINE_TEST_DB=postgres`) serving the built console at `/`, on a free loopback port.
 */
export async function startConsoleServer(orm?: Orm) {
  const database = orm ?? (await createTestOrm());
  const files = mkdtempSync(join(tmpdir(), 'trackline-e2e-attachments-'));
  const server = createServer({
    orm: database,
    consoleDir: CONSOLE_DIR,
    attachments: { store: createFileAttachmentStore(files), maxBytes: 5 * 1024 * 1024 },
    logError: (error) => console.error('server error:', error),
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    orm: database,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await database.close(true);
      rmSync(files, { recursive: true, force: true });
    },
  };
}
