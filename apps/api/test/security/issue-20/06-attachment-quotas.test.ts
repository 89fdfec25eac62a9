import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userWithRole } from '../../harness.js';
import { type AttachmentServer, bytes, filesForm, startAttachmentServer } from './attachment-server.js';

/**
 * Issue 20, item 6: attachments had no quota (a Reporter stored 100 MB in one second: 20 x 25 MB
 * per request, as often as it liked), and a Reporter could not delete its own upload. Quotas per
 * user, per issue and in all now answer 409 naming the quota; the author of an attachment may
 * delete it with the right to attach files there.
 */
const QUOTAS = { perUserBytes: 3000, perIssueBytes: 2500, totalBytes: 6000 };

describe('issue 20 item 6: attachment quotas; authors delete their own uploads', () => {
  let server: AttachmentServer;
  const attach = (issue: string, login: string, ...sizes: number[]) =>
    server.upload(
      `/rest/issue/${issue}/attachment`,
      login,
      filesForm(...sizes.map((size, i): [string, string] => [`${login}-${i}-${size}.txt`, bytes(size)])),
    );
  const usedBy = async (login: string) =>
    (await server.rows()).filter((r) => r.author === login).reduce((sum, r) => sum + r.size, 0);

  beforeAll(async () => {
    server = await startAttachmentServer(1000, QUOTAS);
    await server.request('PUT', '/rest/admin/project/Q?projectName=Quotas&projectLeadLogin=root', {
      user: 'root',
    });
    for (let i = 0; i < 4; i++)
      await server.request('PUT', `/rest/issue?project=Q&summary=issue${i}`, { user: 'root' });
    await userWithRole(server.orm, 'reporter', 'Reporter', 'Q');
    await userWithRole(server.orm, 'other_reporter', 'Reporter', 'Q');
  });
  afterAll(() => server.close());

  it('per issue: a third file over the issue’s 2500 bytes is 409 naming the issue; nothing of it is kept', async () => {
    expect((await attach('Q-1', 'reporter', 900, 900)).status).toBe(201);
    const refused = await attach('Q-1', 'other_reporter', 900);
    expect(refused.status).toBe(409);
    expect((await refused.json()).value).toBe(
      'Attachment quota: issue [ Q-1 ] may hold at most 2500 bytes of attachments; 1800 are in use and this upload goes past the 700 bytes left.',
    );
    expect(await usedBy('other_reporter')).toBe(0);
  });

  it('per user: over 3000 bytes of one’s own uploads is 409 naming the user, even while streaming', async () => {
    expect((await attach('Q-2', 'reporter', 900)).status).toBe(201);
    // 2700 in use: 300 left. A 900-byte file is refused as it streams past the room, not at the file limit (413).
    const refused = await attach('Q-3', 'reporter', 900);
    expect(refused.status).toBe(409);
    expect((await refused.json()).value).toMatch(
      /^Attachment quota: user \[ reporter \] may hold at most 3000 bytes/,
    );
    expect(await usedBy('reporter')).toBe(2700);
    expect((await attach('Q-3', 'reporter', 300)).status).toBe(201);
    // Full: refused before the body is read.
    const full = await attach('Q-3', 'reporter', 1);
    expect(full.status).toBe(409);
    expect((await full.json()).value).toContain('3000 are in use');
  });

  it('in all: the installation’s 6000 bytes', async () => {
    expect((await attach('Q-4', 'other_reporter', 1000, 1000)).status).toBe(201);
    expect((await attach('Q-2', 'root', 1000)).status).toBe(201);
    const refused = await attach('Q-3', 'root', 1000);
    expect(refused.status).toBe(409);
    expect((await refused.json()).value).toMatch(
      /^Attachment quota: this installation may hold at most 6000 bytes/,
    );
  });

  it('a file over the per-file limit is still 413', async () => {
    // Root's 1000 bytes on Q-2 go: room for a file again.
    const list = await server.request('GET', '/rest/issue/Q-2/attachment', {
      user: 'root',
      accept: 'application/json',
    });
    const roots = list.json().find((a: { authorLogin: string }) => a.authorLogin === 'root');
    expect(
      (await server.request('DELETE', `/rest/issue/Q-2/attachment/${roots.id}`, { user: 'root' })).status,
    ).toBe(200);
    const res = await attach('Q-2', 'root', 1001);
    expect(res.status, await res.text()).toBe(413);
  });

  it('a Reporter deletes its own upload (and gets the room back), not another’s (403)', async () => {
    const list = await server.request('GET', '/rest/issue/Q-3/attachment', {
      user: 'reporter',
      accept: 'application/json',
    });
    const own = list.json().find((a: { authorLogin: string }) => a.authorLogin === 'reporter');
    const deleted = await server.request('DELETE', `/rest/issue/Q-3/attachment/${own.id}`, {
      user: 'reporter',
    });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await usedBy('reporter')).toBe(2700);
    const others = await server.request('GET', '/rest/issue/Q-4/attachment', {
      user: 'reporter',
      accept: 'application/json',
    });
    const foreign = others.json()[0];
    const refused = await server.request('DELETE', `/rest/issue/Q-4/attachment/${foreign.id}`, {
      user: 'reporter',
    });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('no rights to delete attachments of others in project [ Q ]');
  });
});
