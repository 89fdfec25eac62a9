import { startLiveTestServer } from '@trackline/api/testing';

/**
 * The production server (as `./trackline start` runs it) on a free loopback port, over a fresh
 * test-kit database (SQLite or PostgreSQL); `close()` fails on any 500 it answered.
 */
export async function startLiveServer() {
  const live = await startLiveTestServer();
  return { url: live.url, close: () => live.close() };
}
