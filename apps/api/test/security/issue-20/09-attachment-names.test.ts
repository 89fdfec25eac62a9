import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, ROOT_PASSWORD } from '../../harness.js';
import { type AttachmentServer, filesForm, startAttachmentServer } from './attachment-server.js';
import { multipartBody, streamingPost } from './multipart-stream.js';

/**
 * Issue 20, item 9: UTF-8 file names were stored as Latin-1 (`résumé.txt` became `rÃ©sumÃ©.txt`),
 * and bidirectional overrides (U+202E) were kept, so a name could show an extension it does not
 * have. Names are now read as UTF-8 (raw, or RFC 5987 `filename*`), and invisible formatting
 * characters are removed.
 */
describe('issue 20 item 9: attachment file names', () => {
  let server: AttachmentServer;
  const raw = async (path: string, ...parts: [string, string][]) => {
    const body = multipartBody(...parts);
    const post = streamingPost(
      `${server.url}${path}`,
      { authorization: basic('root', ROOT_PASSWORD), accept: 'application/json' },
      body.length,
    );
    return post.end(body);
  };
  const lastName = async () => (await server.rows()).at(-1)?.name;

  beforeAll(async () => {
    server = await startAttachmentServer(1000);
    await server.request('PUT', '/rest/admin/project/FN?projectName=Names&projectLeadLogin=root', {
      user: 'root',
    });
    await server.request('PUT', '/rest/issue?project=FN&summary=names', { user: 'root' });
  });
  afterAll(() => server.close());

  it('a raw UTF-8 filename (browsers, curl) is stored as sent', async () => {
    const res = await raw('/rest/issue/FN-1/attachment', ['filename="résumé – 日本.txt"', 'cv']);
    expect(res.status, res.text).toBe(201);
    expect(await lastName()).toBe('résumé – 日本.txt');
  });

  it('an RFC 5987 filename* wins over the plain filename', async () => {
    const res = await raw('/rest/issue/FN-1/attachment', [
      `filename="resume.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt`,
      'cv',
    ]);
    expect(res.status, res.text).toBe(201);
    expect(await lastName()).toBe('résumé.txt');
  });

  it('fetch’s FormData and the import route decode alike', async () => {
    expect(
      (await server.upload('/rest/issue/FN-1/attachment', 'root', filesForm(['naïve.txt', 'a']))).status,
    ).toBe(201);
    expect(await lastName()).toBe('naïve.txt');
    const imported = await raw('/rest/import/FN-1/attachment?authorLogin=root', [
      'filename="Übersicht.pdf"',
      'b',
    ]);
    expect(imported.status, imported.text).toBe(201);
    expect(await lastName()).toBe('Übersicht.pdf');
  });

  it('bidi overrides and zero-width characters are removed (the name shows its real extension)', async () => {
    for (const [sent, stored] of [
      ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
      ['re\u200Bport\u2066.txt\u2069', 'report.txt'],
      ['\uFEFFbom.txt', 'bom.txt'],
      ['\u202E', 'attachment'],
    ]) {
      const res = await raw('/rest/issue/FN-1/attachment', [`filename="${sent}"`, 'x']);
      expect(res.status, res.text).toBe(201);
      expect(await lastName()).toBe(stored);
    }
  });

  it('the download names the file by its stored name (UTF-8, RFC 5987)', async () => {
    const list = await server.request('GET', '/rest/issue/FN-1/attachment', {
      user: 'root',
      accept: 'application/json',
    });
    const resume = list.json().find((a: { name: string }) => a.name === 'résumé.txt');
    // Root-relative (`/_persistent/…`), as the original's: the client prefixes its base URL.
    const file = await fetch(`${server.url}${resume.url}`, {
      headers: { authorization: basic('root', ROOT_PASSWORD) },
    });
    expect(file.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.txt");
  });
});
