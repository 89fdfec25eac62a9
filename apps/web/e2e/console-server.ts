import { fileURLToPath } from 'node:url';
import { startLiveTestServer } from '@trackline/api/testing';

/** The console as built (`vite build`: this package's `dist`). */
export const CONSOLE_DIR = fileURLToPath(new URL('../dist/', import.meta.url));

/**
 * The production server (as `./trackline start` runs it: search engine, text indexer, workers)
 * over a fresh test-kit database (SQLite, or PostgreSQL with `TRACKLINE_TEST_DB=postgres`)
 * serving the built console at `/`, on a free loopback port; `close()` fails on any 500 it
 * answered.
 */
export async function startConsoleServer(settings: Record<string, string> = {}) {
  const live = await startLiveTestServer({
    settings: {
      TRACKLINE_CONSOLE_DIR: CONSOLE_DIR,
      TRACKLINE_MAX_ATTACHMENT_BYTES: String(5 * 1024 * 1024),
      ...settings,
    },
  });
  return { url: live.url, orm: live.orm, close: () => live.close() };
}
