import { join } from 'node:path';
import { createServerTestDatabase, ROOT_PASSWORD } from '@trackline/domain/testing';
import { describe, expect, it } from 'vitest';
import { runWriteMix, setUpWriteMix, verifyWriteMix } from '../bench/write-mix.js';
import { type ApiProcess, killApiGroup, startApiWith, stopApi } from './api-process.js';

/**
 * kill -9 of the real server (`dist/main.js`) and its search processes, the text indexer among
 * them, while 16 writers run the write mix and the indexer has work queued; then a start on the
 * same database: every write acknowledged before the kill is there, and the words written before
 * it are found by search, without anyone rebuilding anything by hand.
 */
describe('a crash while the text indexer and 16 writers run', () => {
  it('keeps every acknowledged write, and search finds the words written before the kill after a restart', async () => {
    const database = await createServerTestDatabase();
    const settings = {
      ...(database.kind === 'sqlite' ? { TRACKLINE_DB: database.file } : { DATABASE_URL: database.url }),
      TRACKLINE_ATTACHMENTS_DIR: join(database.dir, 'attachments'),
      TRACKLINE_RATE_LIMIT: 'off',
      TRACKLINE_LOG_LEVEL: 'warn',
    };
    const root = { login: 'root', password: ROOT_PASSWORD };
    let api: ApiProcess | undefined;
    try {
      api = await startApiWith(settings, { detached: true });
      const url = api.url;
      const users = await setUpWriteMix(url, root, { clients: 16, project: 'CR' });
      const progress = { issues: 0, imported: 0 };
      const mix = runWriteMix({
        url,
        root,
        users,
        project: 'CR',
        durationMs: 90_000,
        run: 'k',
        importEvery: 2,
        progress,
      });
      // Killed once the writers are well under way: issues from every writer, and imports of 100
      // issues at a time (500 acknowledged) that keep the indexer's queue full.
      for (let waited = 0; waited < 80_000 && (progress.issues < 32 || progress.imported < 500); waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(progress.imported).toBeGreaterThanOrEqual(500);
      await killApiGroup(api);
      const result = await mix;
      // The kill cut the writers off mid-run, after each had written something.
      expect(result.unanswered.length).toBeGreaterThan(0);
      expect(result.issues.length).toBeGreaterThan(0);
      expect(result.serverErrors).toEqual([]);

      api = await startApiWith(settings, { detached: true });
      const verified = await verifyWriteMix(api.url, root, users, result, { crashed: true });
      expect(verified.missing).toEqual([]);
      expect(verified.checked).toBe(result.issues.length);
      console.log(
        `crash drill (${database.kind}): ${result.issues.length} issues and ${Object.values(result.imported).reduce((a, b) => a + b, 0)} imported ` +
          `acknowledged before the kill, all read back; the last words found ${verified.findableAfterMs} ms after the restart's first search`,
      );
    } finally {
      if (api) await stopApi(api);
      await database.remove();
    }
  }, 180_000);
});
