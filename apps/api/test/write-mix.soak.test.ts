import { describe, expect, it } from 'vitest';
import { runWriteMix, setUpWriteMix, verifyWriteMix } from '../bench/write-mix.js';
import { fork, ROOT_PASSWORD, startTestServer } from './harness.js';

/**
 * The write mix of `./trackline bench` in short, against the production server (search engine, text
 * indexer, checkpointer, VCS worker): 1, 4 and 16 clients, each as a user of its own, creating
 * issues, running tag/star/vote/field/state/link commands, commenting, attaching, importing 100
 * issues at a time (as root) and searching the words it just wrote. No answer may be 5xx (the
 * server answered 500 "database is locked" about once in 1,000 requests while the indexer
 * committed), every search finds the words written before it, every acknowledged write is read
 * back, and SQLite's integrity check passes.
 */
describe('the write mix', () => {
  it('1, 4 and 16 clients: no 5xx, every search finds what was written, every acknowledged write is there', async () => {
    const server = await startTestServer();
    try {
      const root = { login: 'root', password: ROOT_PASSWORD };
      const rows: string[] = [];
      for (const [clients, seconds] of [
        [1, 2],
        [4, 3],
        [16, 4],
      ] as const) {
        const project = `WM${clients}`;
        const users = await setUpWriteMix(server.url, root, { clients, project });
        const result = await runWriteMix({
          url: server.url,
          root,
          users,
          project,
          durationMs: seconds * 1000,
          run: `r${clients}`,
        });
        const verified = await verifyWriteMix(server.url, root, users, result);
        rows.push(
          `${clients} clients: ${result.all.requests} requests, ${JSON.stringify(result.all.statuses)}, imported ${JSON.stringify(result.imported)}`,
        );
        expect(result.serverErrors).toEqual([]);
        expect(result.searchMisses).toEqual([]);
        expect(result.unanswered).toEqual([]);
        expect(verified.missing).toEqual([]);
        // Something happened in every row: each kind of write at least once.
        expect(result.issues.length).toBeGreaterThan(0);
        expect(verified.checked).toBe(result.issues.length);
        for (const kind of [
          'create',
          'tag',
          'star',
          'vote',
          'field',
          'state',
          'comment',
          'attach',
          'import',
          'search',
        ])
          expect(result.kinds[kind]?.requests ?? 0, `${clients} clients: ${kind}`).toBeGreaterThan(0);
      }
      if (server.live.database.kind === 'sqlite') {
        const em = fork(server.orm);
        expect(await em.execute('pragma main.integrity_check')).toEqual([{ integrity_check: 'ok' }]);
        expect(await em.execute('pragma fts.integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      }
      console.log(rows.join('\n'));
    } finally {
      await server.close();
    }
  }, 120_000);
});
