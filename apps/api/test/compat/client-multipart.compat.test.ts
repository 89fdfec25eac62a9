import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileAttachmentStore } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, ROOT_PASSWORD, startTestServer, type TestServer, xmlElements } from '../harness.js';
import { requestBytes, sendRaw } from './raw-http.js';

/*
 * Multipart bodies exactly as the published clients' encoders write them (read from their
 * public sources, written here byte for byte and sent on a socket, never through a helper that
 * would tidy them), then the variations RFC 7578 readers in the wild accept, then what is
 * refused with a 400 naming the problem.
 *
 * - JetBrains' library 0.1.12 (`urllib2_file`, what every youtrack-python-scripts importer runs):
 *   `httplib.HTTP`, so HTTP/1.0; headers `Content-Type` (boundary from `mimetools.choose_boundary`:
 *   `ip.uid.pid.time.counter`), `Content-length`, `Host`, `User-agent`, then the connection's own
 *   (`Cookie`, `Cache-control`); one part `Content-Disposition: form-data; name="<file>";
 *   filename="<file>";` with a trailing semicolon, `Content-Type`, a per-part `Content-Length`, the
 *   bytes, then `\r\n--B--\r\n\r\n`; the query `authorLogin`, `group` (empty) and `created`.
 * - pyyoutrack (`poster` 0.8): boundary a uuid4 hex; `Content-Type: text/plain; charset=utf-8`
 *   when the type is unknown; the file name with `\"` escapes and non-ASCII as `&#233;`.
 * - requests (pyutrack, dohq's users of requests), urllib3's encoder: a 32-hex boundary, no part
 *   type unless given; non-ASCII names raw in UTF-8 (urllib3 ≥ 1.25, the HTML5 form) or as
 *   `filename*=utf-8''…` (urllib3 < 1.25, RFC 2231).
 */

let server: TestServer;
let dir: string;
const ROOT = basic('root', ROOT_PASSWORD);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trackline-client-multipart-'));
  server = await startTestServer({
    handler: { attachments: { store: createFileAttachmentStore(dir), maxBytes: 100_000 } },
  });
  await server.request('PUT', '/rest/admin/project/CMP?projectName=Bytes&projectLeadLogin=root', {
    user: 'root',
  });
  for (let i = 0; i < 30; i++)
    await server.request('PUT', `/rest/issue?project=CMP&summary=issue${i}`, { user: 'root' });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

let nextIssue = 0;
/** A fresh issue per case, so each list shows only that case's files. */
const freshIssue = () => `CMP-${++nextIssue}`;
const host = () => new URL(server.url).host;

async function attachments(issue: string) {
  const list = await server.request('GET', `/rest/issue/${issue}/attachment`, { user: 'root' });
  expect(list.status, list.text).toBe(200);
  return xmlElements(list.text, 'fileUrl');
}

async function contentOf(url: string) {
  const res = await fetch(`${server.url}${url}`, { headers: { authorization: ROOT } });
  return res.text();
}

/** A multipart POST whose body is `body` (CRLF-joined `lines` when an array). */
function post(path: string, boundary: string, body: string | Buffer, extraHeaders: string[] = []) {
  const bytes = Buffer.from(body);
  return sendRaw(
    server.url,
    requestBytes(
      [
        `POST ${path} HTTP/1.1`,
        `Host: ${host()}`,
        `Authorization: ${ROOT}`,
        `Content-Type: multipart/form-data; boundary=${boundary}`,
        `Content-Length: ${bytes.length}`,
        'Connection: close',
        ...extraHeaders,
      ],
      bytes,
    ),
  );
}

describe('the JetBrains library (urllib2_file, 0.1.12)', () => {
  const boundary = '127.0.0.1.0.2608.1795890348.231.1';
  /** `send_data` for one file, byte for byte. */
  const body = (name: string, type: string, content: string) =>
    `--${boundary}\r\n` +
    `Content-Disposition: form-data; name="${name}"; filename="${name}";\r\n` +
    `Content-Type: ${type}\r\n` +
    `Content-Length: ${Buffer.byteLength(content)}\r\n` +
    '\r\n' +
    content +
    `\r\n--${boundary}--\r\n\r\n`;
  /** `newHTTPHandler.do_open`: HTTP/1.0, the headers in the order httplib writes them. */
  const upload = (path: string, payload: string) =>
    sendRaw(
      server.url,
      requestBytes(
        [
          `POST ${path} HTTP/1.0`,
          `Content-Type: multipart/form-data; boundary=${boundary}`,
          `Content-length: ${Buffer.byteLength(payload)}`,
          `Host: ${host()}`,
          'User-agent: Python-urllib/2.7',
          `Authorization: ${ROOT}`,
          'Cache-control: no-cache',
        ],
        payload,
      ),
    );

  it('importAttachment: the part with the trailing semicolon and its Content-Length is the file', async () => {
    const issue = freshIssue();
    const created = 1_500_000_000_000;
    const res = await upload(
      `/rest/import/${issue}/attachment?authorLogin=root&group=&created=${created}`,
      body('hello.txt', 'text/plain', 'hello from the library'),
    );
    expect(res.status, res.body).toBe(201);
    const [file, ...more] = await attachments(issue);
    expect(more).toEqual([]);
    expect(file).toMatchObject({ name: 'hello.txt', authorLogin: 'root', created: String(created) });
    expect(file?.group).toBeUndefined();
    expect(await contentOf(file?.url ?? '')).toBe('hello from the library');
  });

  it('createAttachment: the same bytes to /rest/issue/{id}/attachment, empty group= meaning none', async () => {
    const issue = freshIssue();
    const res = await upload(
      `/rest/issue/${issue}/attachment?authorLogin=root&group=&created=1500000000000`,
      body('notes.log', 'application/octet-stream', 'line 1\r\nline 2\r\n'),
    );
    expect(res.status, res.body).toBe(201);
    const [file] = await attachments(issue);
    expect(file).toMatchObject({ name: 'notes.log', authorLogin: 'root' });
    expect(file?.group).toBeUndefined();
    expect(await contentOf(file?.url ?? '')).toBe('line 1\r\nline 2\r\n');
  });
});

describe('pyyoutrack (poster 0.8) and requests (urllib3)', () => {
  it('poster: uuid boundary, text/plain; charset=utf-8, an escaped quote and &#233; in the name', async () => {
    const issue = freshIssue();
    const boundary = '0f4f2c9b8a6e4d6c9a1b2c3d4e5f6a7b';
    const payload =
      `--${boundary}\r\n` +
      'Content-Disposition: form-data; name="file"; filename="r&#233;sum\\"e.txt"\r\n' +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      '\r\n' +
      'poster bytes\r\n' +
      `--${boundary}--\r\n`;
    const res = await post(`/rest/issue/${issue}/attachment`, boundary, payload);
    expect(res.status, res.body).toBe(201);
    const [file] = await attachments(issue);
    expect(file?.name).toBe('r&#233;sum"e.txt');
    expect(await contentOf(file?.url ?? '')).toBe('poster bytes');
  });

  it('requests with urllib3 ≥ 1.25: a raw UTF-8 name; with urllib3 < 1.25: filename*=utf-8', async () => {
    const issue = freshIssue();
    const boundary = '3f2a9c0e5b7d41a6b8c9d0e1f2a3b4c5';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="résumé.txt"\r\n\r\nhtml5\r\n`,
        'utf8',
      ),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename*=utf-8''r%C3%A9sum%C3%A9%20v2.txt\r\n\r\nrfc2231\r\n--${boundary}--\r\n`,
        'latin1',
      ),
    ]);
    const res = await post(`/rest/issue/${issue}/attachment`, boundary, payload, [
      'User-Agent: python-requests/2.31.0',
      'Accept-Encoding: gzip, deflate',
      'Accept: */*',
    ]);
    expect(res.status, res.body).toBe(201);
    expect((await attachments(issue)).map((f) => f.name).sort()).toEqual(['résumé v2.txt', 'résumé.txt']);
  });
});

describe('what RFC 7578 readers in the wild accept', () => {
  const B = 'xYzBoundary';
  const cases: [string, string, string[]][] = [
    [
      'unquoted name and filename',
      `--${B}\r\nContent-Disposition: form-data; name=files; filename=plain.txt\r\n\r\nunquoted\r\n--${B}--`,
      ['plain.txt'],
    ],
    [
      'bare LF line ends throughout',
      `--${B}\nContent-Disposition: form-data; name="f"; filename="lf.txt"\nContent-Type: text/plain\n\nline\nends\n--${B}--\n`,
      ['lf.txt'],
    ],
    [
      'header names in any case, a folded header, padding after the boundary, a preamble and an epilogue',
      `preamble text\r\n--${B}  \r\ncontent-disposition: FORM-DATA;\r\n name="f"; filename="folded.txt"\r\nCONTENT-TYPE: text/plain\r\n\r\nfolded\r\n--${B}--\r\nepilogue`,
      ['folded.txt'],
    ],
    [
      'filename* before filename, ISO-8859-1, and empty parameters',
      `--${B}\r\nContent-Disposition: form-data;; name="f"; filename="fallback.txt"; filename*=iso-8859-1'fr'caf%E9.txt;\r\n\r\ncafe\r\n--${B}--\r\n`,
      ['café.txt'],
    ],
    [
      'a Windows path (unescaped backslashes, as old browsers send it) is cut to its name',
      `--${B}\r\nContent-Disposition: form-data; name="f"; filename="C:\\Users\\me\\win.txt"\r\n\r\nwin\r\n--${B}--\r\n`,
      ['win.txt'],
    ],
    [
      'an empty file input (filename="") beside a file is no file',
      `--${B}\r\nContent-Disposition: form-data; name="a"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--${B}\r\nContent-Disposition: form-data; name="b"; filename="real.txt"\r\n\r\nreal\r\n--${B}--\r\n`,
      ['real.txt'],
    ],
  ];
  it.each(cases)('%s', async (_what, payload, names) => {
    const issue = freshIssue();
    const res = await post(`/rest/issue/${issue}/attachment`, B, payload);
    expect(res.status, res.body).toBe(201);
    expect((await attachments(issue)).map((f) => f.name)).toEqual(names);
  });

  it('a quoted boundary in the Content-Type', async () => {
    const issue = freshIssue();
    const payload = `--a:b c\r\nContent-Disposition: form-data; name="f"; filename="q.txt"\r\n\r\nq\r\n--a:b c--\r\n`;
    const res = await post(`/rest/issue/${issue}/attachment`, '"a:b c"', payload);
    expect(res.status, res.body).toBe(201);
    expect((await attachments(issue)).map((f) => f.name)).toEqual(['q.txt']);
  });

  it('command fields with a trailing semicolon on a form route (execute)', async () => {
    const issue = freshIssue();
    const payload =
      `--${B}\r\nContent-Disposition: form-data; name="command";\r\n\r\ntag multipart-semicolon\r\n` +
      `--${B}\r\nContent-Disposition: form-data; name=comment\r\n\r\nvia a lenient part\r\n--${B}--\r\n`;
    const res = await post(`/rest/issue/${issue}/execute`, B, payload);
    expect(res.status, res.body).toBe(200);
    const view = await server.request('GET', `/rest/issue/${issue}`, {
      user: 'root',
      accept: 'application/json',
    });
    expect(view.text).toContain('multipart-semicolon');
    expect(view.text).toContain('via a lenient part');
  });
});

describe('what is refused, with a 400 naming the problem, storing nothing', () => {
  const B = 'refusedBoundary';
  const part = (disposition: string, extra = '') =>
    `--${B}\r\n${disposition}\r\n${extra}\r\nbytes\r\n--${B}--\r\n`;
  const cases: [string, string, RegExp][] = [
    [
      'a part without Content-Disposition',
      `--${B}\r\nContent-Type: text/plain\r\n\r\nx\r\n--${B}--\r\n`,
      /without a Content-Disposition/,
    ],
    [
      'another disposition than form-data',
      part('Content-Disposition: attachment; filename="a.txt"'),
      /"attachment", not form-data/,
    ],
    ['a part without a name', part('Content-Disposition: form-data; filename="a.txt"'), /names no field/],
    [
      'an unterminated quote',
      part('Content-Disposition: form-data; name="f"; filename="a.txt'),
      /unterminated quoted value/,
    ],
    [
      'a parameter without a value',
      part('Content-Disposition: form-data; name="f"; filename'),
      /parameter without a value/,
    ],
    [
      'an unknown filename* charset',
      part('Content-Disposition: form-data; name="f"; filename*=koi8-r\'\'a.txt'),
      /charset "koi8-r"/,
    ],
    [
      'a bad percent escape in filename*',
      part('Content-Disposition: form-data; name="f"; filename*=utf-8\'\'a%zz.txt'),
      /bad percent escape/,
    ],
    [
      'a header line without a colon',
      part('Content-Disposition: form-data; name="f"; filename="a.txt"', 'not a header\r\n'),
      /header line without a name and colon/,
    ],
    [
      'a base64 transfer encoding',
      part(
        'Content-Disposition: form-data; name="f"; filename="a.txt"',
        'Content-Transfer-Encoding: base64\r\n',
      ),
      /Content-Transfer-Encoding "base64"/,
    ],
    [
      'a body that ends before its closing boundary',
      `--${B}\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\ncut short`,
      /ends before its closing boundary/,
    ],
    ['a body without its boundary line', 'just some text', /without its boundary line/],
    [
      'text after a boundary',
      `--${B}junk\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nx\r\n--${B}--\r\n`,
      /text after the boundary/,
    ],
  ];
  it.each(cases)('%s', async (_what, payload, message) => {
    const issue = freshIssue();
    const res = await post(`/rest/issue/${issue}/attachment`, B, payload);
    expect(res.status, res.body).toBe(400);
    expect(res.body).toMatch(message);
    expect(await attachments(issue)).toEqual([]);
  });

  it('multipart/form-data without a boundary parameter', async () => {
    const issue = freshIssue();
    const res = await sendRaw(
      server.url,
      requestBytes(
        [
          `POST /rest/issue/${issue}/attachment HTTP/1.1`,
          `Host: ${host()}`,
          `Authorization: ${ROOT}`,
          'Content-Type: multipart/form-data',
          'Content-Length: 5',
          'Connection: close',
        ],
        'hello',
      ),
    );
    expect(res.status, res.body).toBe(400);
    expect(res.body).toMatch(/without a boundary parameter/);
  });
});
