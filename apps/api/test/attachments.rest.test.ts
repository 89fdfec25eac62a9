import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAttachmentStore } from './attachment-contents.js';
import {
  basic,
  expectJson,
  expectJsonError,
  expectXmlError,
  JSON_ACCEPT,
  ROOT_PASSWORD,
  startTestServer,
  type TestServer,
  USER_PASSWORD,
  userWithRole,
  xmlElements,
} from './harness.js';

/*
 * Attachments over HTTP: multipart uploads (every file part, whatever its field name), the
 * legacy list (`fileUrls` > `fileUrl url name authorLogin group created id`), the download URL
 * (readers of the issue only), delete, and the refusals (size, media type, permissions).
 */

const LIMIT = 1000;
let server: TestServer;
const store = testAttachmentStore();

const form = (...files: [field: string, name: string, content: string][]) => {
  const data = new FormData();
  for (const [field, name, content] of files)
    data.append(field, new Blob([content], { type: 'text/plain' }), name);
  return data;
};
const upload = (path: string, login: string, body: FormData | string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      authorization: basic(login, login === 'root' ? ROOT_PASSWORD : USER_PASSWORD),
      accept: 'application/xml',
      ...headers,
    },
    body,
  });
const get = (url: string, login: string) =>
  fetch(url.startsWith('/') ? `${server.url}${url}` : url, {
    headers: { authorization: basic(login, login === 'root' ? ROOT_PASSWORD : USER_PASSWORD) },
  });

beforeAll(async () => {
  server = await startTestServer({ handler: { attachments: { ...store.option, maxBytes: LIMIT } } });
  await server.request('PUT', '/rest/admin/project/ATT?projectName=Attach&projectLeadLogin=root', {
    user: 'root',
  });
  await server.request('PUT', '/rest/issue?project=ATT&summary=one', { user: 'root' });
  await userWithRole(server.orm, 'att_dev', 'Developer', 'ATT');
  await userWithRole(server.orm, 'att_observer', 'Observer', 'ATT');
  await userWithRole(server.orm, 'att_outsider');
});
afterAll(async () => {
  await server.close();
  store.remove();
});

describe('attachments over HTTP', () => {
  it('uploads every file part, lists them and serves them to readers', async () => {
    const res = await upload(
      '/rest/issue/ATT-1/attachment',
      'att_dev',
      form(['files', 'a.txt', 'alpha'], ['other', 'b.txt', 'beta']),
    );
    expect(res.status).toBe(201);
    expect(await res.text()).toBe('');
    expect(res.headers.get('location')).toMatch(/\/rest\/issue\/ATT-1\/attachment\/\d+$/);
    const list = await server.request('GET', '/rest/issue/ATT-1/attachment', { user: 'att_observer' });
    expect(list.text).toMatch(/^<\?xml[^>]*\?><fileUrls><fileUrl /);
    const files = xmlElements(list.text, 'fileUrl');
    expect(files.map((f) => [f.name, f.authorLogin])).toEqual([
      ['a.txt', 'att_dev'],
      ['b.txt', 'att_dev'],
    ]);
    // Twice in a row: with several hosts (TRACKLINE_TEST_HOSTS), the two reach different ones.
    for (let i = 0; i < 2; i++) {
      const download = await get(files[1]?.url as string, 'att_observer');
      expect(download.status).toBe(200);
      expect(await download.text()).toBe('beta');
      expect(download.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''b.txt");
    }
    expect((await get(files[1]?.url as string, 'att_outsider')).status).toBe(404);
    expect(
      (await server.request('GET', '/rest/issue/ATT-1/attachment', { user: 'att_outsider' })).status,
    ).toBe(404);
    const json = expectJson(
      await server.request('GET', '/rest/issue/ATT-1/attachment', { user: 'root', accept: JSON_ACCEPT }),
      200,
    );
    expect(Object.keys(json[0]).sort()).toEqual(['authorLogin', 'created', 'id', 'name', 'url']);
  });

  it('refuses uploads without the permission, over the limit, or not multipart, storing nothing', async () => {
    const before = await store.contents(server.orm);
    const listed = async () =>
      xmlElements(
        (await server.request('GET', '/rest/issue/ATT-1/attachment', { user: 'root' })).text,
        'fileUrl',
      ).length;
    const count = await listed();
    const refused = await upload(
      '/rest/issue/ATT-1/attachment',
      'att_observer',
      form(['files', 'x.txt', 'x']),
    );
    expect(refused.status).toBe(403);
    const big = await upload(
      '/rest/issue/ATT-1/attachment',
      'att_dev',
      form(['files', 'big.bin', 'x'.repeat(LIMIT + 1)]),
    );
    expect(big.status).toBe(413);
    const plain = await upload('/rest/issue/ATT-1/attachment', 'att_dev', 'just text', {
      'content-type': 'text/plain',
    });
    expect(plain.status).toBe(415);
    const empty = await upload('/rest/issue/ATT-1/attachment', 'att_dev', form());
    expect(empty.status).toBe(400);
    const anonymous = await fetch(`${server.url}/rest/issue/ATT-1/attachment`, {
      method: 'POST',
      body: form(['f', 'a', 'b']),
    });
    expect(anonymous.status).toBe(401);
    const importing = await upload('/rest/import/ATT-1/attachment', 'att_dev', form(['files', 'x.txt', 'x']));
    expectXmlError(
      {
        status: importing.status,
        headers: importing.headers,
        text: await importing.text(),
        json: () => null,
      },
      403,
      'You have no rights to import data (IMPORT_DATA).',
    );
    expect(await listed()).toBe(count);
    // No new content, and nothing half-received left behind.
    expect(await store.contents(server.orm)).toEqual(before);
    expect(await store.uploadsInProgress(server.orm)).toBe(0);
  });

  it('an attachment imported with a group: listed, served and deleted for its members only, missing to others', async () => {
    expect((await server.request('PUT', '/rest/admin/group/ATT%20Insiders', { user: 'root' })).status).toBe(
      201,
    );
    expect(
      (await server.request('POST', '/rest/admin/user/att_dev/group/ATT%20Insiders', { user: 'root' }))
        .status,
    ).toBe(200);
    const imported = await upload(
      '/rest/import/ATT-1/attachment?authorLogin=att_former&group=att+insiders',
      'root',
      form(['files', 'insiders.txt', 'for insiders']),
    );
    expect(imported.status).toBe(201);
    const names = async (login: string) =>
      xmlElements(
        (await server.request('GET', '/rest/issue/ATT-1/attachment', { user: login })).text,
        'fileUrl',
      );
    const secret = (await names('att_dev')).find((f) => f.name === 'insiders.txt');
    expect(secret?.group).toBe('ATT Insiders');
    for (let i = 0; i < 2; i++)
      expect(await (await get(secret?.url as string, 'att_dev')).text()).toBe('for insiders');
    expect((await names('att_observer')).map((f) => f.name)).not.toContain('insiders.txt');
    const path = `/rest/issue/ATT-1/attachment/${secret?.id}`;
    const missing = `Attachment [ ${secret?.id} ] not found.`;
    expectXmlError(await server.request('GET', path, { user: 'att_observer' }), 404, missing);
    expectJsonError(
      await server.request('GET', path, { user: 'att_observer', accept: JSON_ACCEPT }),
      404,
      'NOT_FOUND',
      missing,
    );
    expectXmlError(await server.request('DELETE', path, { user: 'att_observer' }), 404, missing);
    // Refused without a trace: the members still have it.
    expect((await names('att_dev')).map((f) => f.name)).toContain('insiders.txt');
    expect((await server.request('DELETE', path, { user: 'att_dev' })).status).toBe(200);
  });

  it('deletes with DELETE_ATTACHMENT_ISSUE', async () => {
    const files = xmlElements(
      (await server.request('GET', '/rest/issue/ATT-1/attachment', { user: 'root' })).text,
      'fileUrl',
    );
    const id = files[0]?.id as string;
    expect(
      (await server.request('DELETE', `/rest/issue/ATT-1/attachment/${id}`, { user: 'att_observer' })).status,
    ).toBe(403);
    expect(
      (await server.request('DELETE', `/rest/issue/ATT-1/attachment/${id}`, { user: 'att_dev' })).status,
    ).toBe(200);
    expect((await get(files[0]?.url as string, 'root')).status).toBe(404);
  });
});
