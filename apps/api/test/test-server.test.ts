import { fork } from '@trackline/domain/testing';
import { describe, expect, it } from 'vitest';
import { startTestServer } from './harness.js';

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
});
