import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AttachmentServer, bytes, filesForm, startAttachmentServer } from './attachment-server.js';

/**
 * Issue 20, item 8: a multi-file upload refused with 413 kept the parts before the refused one.
 * Every file of an upload is now recorded in one transaction after the last one is stored, or none.
 */
describe('issue 20 item 8: a refused multi-file upload keeps nothing', () => {
  let server: AttachmentServer;
  beforeAll(async () => {
    server = await startAttachmentServer(1000, { perUserBytes: 0, perIssueBytes: 2500, totalBytes: 0 });
    await server.request('PUT', '/rest/admin/project/AN?projectName=All+or+nothing&projectLeadLogin=root', {
      user: 'root',
    });
    await server.request('PUT', '/rest/issue?project=AN&summary=target', { user: 'root' });
  });
  afterAll(() => server.close());

  it('the third file over the size limit: 413, and neither of the first two is attached', async () => {
    const res = await server.upload(
      '/rest/issue/AN-1/attachment',
      'root',
      filesForm(['one.txt', bytes(500)], ['two.txt', bytes(600)], ['big.txt', bytes(1001)]),
    );
    expect(res.status).toBe(413);
    expect(await server.rows()).toEqual([]);
    const list = await server.request('GET', '/rest/issue/AN-1/attachment', {
      user: 'root',
      accept: 'application/json',
    });
    expect(list.json()).toEqual([]);
  });

  it('a later file past a quota: 409, and nothing attached either', async () => {
    const res = await server.upload(
      '/rest/issue/AN-1/attachment',
      'root',
      filesForm(['one.txt', bytes(1000)], ['two.txt', bytes(1000)], ['three.txt', bytes(1000)]),
    );
    expect(res.status).toBe(409);
    expect(await server.rows()).toEqual([]);
  });

  it('an upload that fits attaches every file at once', async () => {
    const res = await server.upload(
      '/rest/issue/AN-1/attachment',
      'root',
      filesForm(['one.txt', bytes(500)], ['two.txt', bytes(600)]),
    );
    expect(res.status).toBe(201);
    expect((await server.rows()).map((r) => r.name)).toEqual(['one.txt', 'two.txt']);
  });
});
