import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork } from '@trackline/domain/testing';
import { describe, expect, it } from 'vitest';
import { basic, ROOT_PASSWORD, startTestServer } from './harness.js';

describe('the test server', () => {
  it('is the production composition: a search engine with its text indexer answers a search for words just written', async () => {
    const server = await startTestServer();
    try {
      expect(
        (
          await server.request('PUT', '/rest/admin/project/TS?projectName=Test&projectLeadLogin=root', {
            user: 'root',
          })
        ).status,
      ).toBe(201);
      const created = await server.request('PUT', '/rest/issue?project=TS&summary=quokka+sighting', {
        user: 'root',
      });
      expect(created.status).toBe(201);
      const found = await server.request('GET', '/rest/issue?filter=quokka', {
        user: 'root',
        accept: 'application/json',
      });
      expect(found.json().issue.map((i: { id: string }) => i.id)).toEqual(['TS-1']);
      if (server.live.database.kind === 'sqlite') {
        // The words are in the index's own file, written by the indexer process, not by the request.
        const [row] = await fork(server.orm).execute<{ through: number }[]>(
          'select through from fts.issue_fts_state',
        );
        expect(Number(row?.through)).toBeGreaterThan(0);
      }
    } finally {
      await server.close();
    }
  });

  it('fails its close() when it answered a request with 500, naming the request', async () => {
    const server = await startTestServer();
    await fork(server.orm).execute('alter table roles rename to roles_unreachable');
    expect((await server.request('GET', '/rest/admin/role', { user: 'root' })).status).toBe(500);
    await expect(server.close()).rejects.toThrow(/answered 500[\s\S]*"route":"\/rest\/admin\/role"/);
  });

  it("keeps the settings' attachment store when a test sets only the size limit", async () => {
    // A test's `attachments: { maxBytes }` once replaced the whole attachment options, so every
    // such server fell back to createServer's own store whatever the settings named (the two-host
    // mode then passed with a folder per host).
    const dir = mkdtempSync(join(tmpdir(), 'trackline-settings-store-'));
    const server = await startTestServer({
      settings: { TRACKLINE_ATTACHMENTS_STORE: 'directory', TRACKLINE_ATTACHMENTS_DIR: dir },
      handler: { attachments: { maxBytes: 64 } },
    });
    try {
      await server.request('PUT', '/rest/admin/project/ST?projectName=Store&projectLeadLogin=root', {
        user: 'root',
      });
      await server.request('PUT', '/rest/issue?project=ST&summary=files', { user: 'root' });
      const upload = (content: string) => {
        const form = new FormData();
        form.append('file', new Blob([content], { type: 'text/plain' }), 'f.txt');
        return fetch(`${server.url}/rest/issue/ST-1/attachment`, {
          method: 'POST',
          headers: { authorization: basic('root', ROOT_PASSWORD) },
          body: form,
        });
      };
      expect((await upload('in the folder the settings name')).status).toBe(201);
      expect(readdirSync(dir).filter((name) => /^[0-9a-f]{2}$/.test(name)).length).toBe(1);
      expect((await upload('x'.repeat(65))).status).toBe(413);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
