import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedTables, dbSnapshot } from './db-snapshot.js';
import {
  basic,
  expectJsonError,
  expectXmlError,
  JSON_ACCEPT,
  ROOT_PASSWORD,
  STACK_TRACE,
  startTestServer,
  type TestResponse,
  type TestServer,
  XML_ACCEPT,
} from './harness.js';

/**
 * The input limits: `optionsLimit` ≤ 100, page size `max` ≤ 500 (`after` ≤ 100000), command
 * text ≤ 2000 characters (`caret` ≤ 2000), request bodies ≤ 1 MiB on /rest and /trpc and
 * ≤ 64 KiB on the login form (413). Each limit is shown accepted at the bound, refused just
 * past it (400 naming the field, or 413), and the refusal changed nothing.
 */

let server: TestServer;
let issue: string;
const MiB = 1024 * 1024;

const q = (params: Record<string, string | number>) =>
  `?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString()}`;
const root = (method: string, path: string, options: Parameters<TestServer['request']>[2] = {}) =>
  server.request(method, path, { user: 'root', ...options });

/** Runs a request that must be refused, and proves the database did not change. */
async function refused(send: () => Promise<TestResponse>): Promise<TestResponse> {
  const before = await dbSnapshot(server.orm);
  const res = await send();
  expect(res.status, res.text).toBeGreaterThanOrEqual(400);
  expect(res.status, res.text).toBeLessThan(500);
  expect(changedTables(before, await dbSnapshot(server.orm))).toEqual([]);
  return res;
}

beforeAll(async () => {
  server = await startTestServer();
  expect((await root('PUT', `/rest/admin/project/LIM${q({ projectName: 'Limits' })}`)).status).toBe(201);
  const created = await root('PUT', `/rest/issue${q({ project: 'LIM', summary: 'limits' })}`);
  expect(created.status).toBe(201);
  issue = decodeURIComponent(created.headers.get('location')?.split('/').pop() ?? '');
});
afterAll(() => server.close());

describe('optionsLimit ≤ 100', () => {
  const routes = () => [
    (limit: number) => `/rest/command/suggest${q({ command: '', issueIds: issue, optionsLimit: limit })}`,
    (limit: number) =>
      `/rest/command/underlineAndSuggest${q({ command: '', issueIds: issue, optionsLimit: limit })}`,
    (limit: number) =>
      `/rest/command/underlineAndSuggestAndCommands${q({ command: '', issueIds: issue, optionsLimit: limit })}`,
    (limit: number) => `/rest/issue/${issue}/execute/intellisense${q({ command: '', optionsLimit: limit })}`,
  ];

  it('accepts 1 and 100; refuses 0, 101 and huge values with 400 naming the field', async () => {
    for (const route of routes()) {
      for (const ok of [1, 100]) expect((await root('GET', route(ok))).status).toBe(200);
      expectJsonError(
        await refused(() => root('GET', route(101), { accept: JSON_ACCEPT })),
        400,
        'VALIDATION_FAILED',
        'optionsLimit: must be at most 100',
      );
      const xml = { accept: XML_ACCEPT };
      expectXmlError(
        await refused(() => root('GET', route(0), xml)),
        400,
        'optionsLimit: must be at least 1',
      );
      expectXmlError(await refused(() => root('GET', route(1e12), xml)), 400, /^optionsLimit: /);
    }
  });

  it('never returns more than 100 suggestions', async () => {
    const res = await root('GET', routes()[0]?.(100) ?? '', { accept: JSON_ACCEPT });
    expect(res.json().suggest.items.length).toBeLessThanOrEqual(100);
  });
});

describe('page size max capped at 500, after ≤ 100000', () => {
  it('accepts max=500, caps larger pages (a legacy client asks max=1000000), refuses max=0 and after=100001', async () => {
    expect((await root('GET', `/rest/issue${q({ max: 500 })}`)).status).toBe(200);
    expect((await root('GET', `/rest/issue${q({ after: 100_000, max: 1 })}`)).status).toBe(200);
    expect((await root('GET', `/rest/issue${q({ max: 1_000_000 })}`)).status).toBe(200);
    expectXmlError(
      await refused(() => root('GET', `/rest/issue${q({ max: 0 })}`)),
      400,
      'max: must be at least 1',
    );
    expectXmlError(
      await refused(() => root('GET', `/rest/issue${q({ after: 100_001 })}`)),
      400,
      'after: must be at most 100000',
    );
  });

  it('a filter is at most 2000 characters', async () => {
    expect((await root('GET', `/rest/issue${q({ filter: ' '.repeat(2000) })}`)).status).toBe(200);
    expectXmlError(
      await refused(() => root('GET', `/rest/issue${q({ filter: ' '.repeat(2001) })}`)),
      400,
      'filter: must be at most 2000 characters',
    );
  });
});

describe('command text ≤ 2000 characters (caret ≤ 2000)', () => {
  const atBound = `Normal${' '.repeat(2000 - 'Normal'.length)}`;
  const pastBound = `${atBound} `;

  it('executes a 2000-character command; refuses 2001 with 400 and applies nothing', async () => {
    expect(atBound).toHaveLength(2000);
    const ok = await root('POST', `/rest/issue/${issue}/execute${q({ command: atBound })}`);
    expect(ok.status, ok.text).toBe(200);
    expectXmlError(
      await refused(() =>
        root('POST', `/rest/issue/${issue}/execute${q({ command: `Critical${pastBound}` })}`),
      ),
      400,
      'command: must be at most 2000 characters',
    );
    // The same limit for a form body and a JSON body.
    expectXmlError(
      await refused(() =>
        root('POST', `/rest/issue/${issue}/execute`, {
          contentType: 'application/x-www-form-urlencoded',
          body: new URLSearchParams({ command: `Critical${pastBound}` }).toString(),
        }),
      ),
      400,
      'command: must be at most 2000 characters',
    );
    expectXmlError(
      await refused(() =>
        root('POST', `/rest/issue/${issue}/execute`, {
          contentType: 'application/json',
          body: JSON.stringify({ command: `Critical${pastBound}` }),
        }),
      ),
      400,
      'command: must be at most 2000 characters',
    );
  });

  it('limits the assist routes and intellisense the same way', async () => {
    const paths = (command: string, caret?: number) => [
      ...['suggest', 'underline', 'underlineAndSuggest', 'underlineAndSuggestAndCommands'].map(
        (route) =>
          `/rest/command/${route}${q({ command, issueIds: issue, ...(caret !== undefined ? { caret } : {}) })}`,
      ),
      `/rest/issue/${issue}/execute/intellisense${q({ command, ...(caret !== undefined ? { caret } : {}) })}`,
    ];
    for (const path of paths(atBound, 2000)) expect((await root('GET', path)).status).toBe(200);
    for (const path of paths(pastBound)) {
      expectJsonError(
        await refused(() => root('GET', path, { accept: JSON_ACCEPT })),
        400,
        'VALIDATION_FAILED',
        'command: must be at most 2000 characters',
      );
    }
    expectXmlError(
      await refused(() =>
        root('GET', `/rest/command/suggest${q({ command: 'x', caret: 2001 })}`, { accept: XML_ACCEPT }),
      ),
      400,
      'caret: must be at most 2000',
    );
  });

  it('limits /trpc command input too', async () => {
    const res = await refused(() =>
      root('POST', '/trpc/issues.execute', {
        contentType: 'application/json',
        body: JSON.stringify({ issue, command: pastBound }),
      }),
    );
    expect(res.status).toBe(400);
    expect(res.json().error.message).toBe('command: must be at most 2000 characters');
  });
});

/** A request over node:http with a chunked body (no Content-Length): the limit counts bytes read. */
function chunked(path: string, headers: Record<string, string>, size: number) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const target = new URL(path, server.url);
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: 'POST',
        path: `${target.pathname}${target.search}`,
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    // The server may answer and close before the whole body is sent.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' ? undefined : reject(error)));
    const piece = Buffer.alloc(64 * 1024, 'a');
    let left = size;
    const write = () => {
      while (left > 0) {
        const part = piece.subarray(0, Math.min(piece.length, left));
        left -= part.length;
        if (!req.write(part)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

describe('body size: 1 MiB on /rest and /trpc, 64 KiB on the login form (413)', () => {
  it('/rest: accepts exactly 1 MiB; refuses one byte more with 413, declared or chunked', async () => {
    const ok = await root('PUT', '/rest/user/tag/big-ok', {
      contentType: 'text/plain',
      body: 'a'.repeat(MiB),
    });
    expect(ok.status, ok.text).toBe(201);
    expectJsonError(
      await refused(() =>
        root('PUT', '/rest/user/tag/too-big', {
          contentType: 'text/plain',
          body: 'a'.repeat(MiB + 1),
          accept: JSON_ACCEPT,
        }),
      ),
      413,
      'PAYLOAD_TOO_LARGE',
      `Request body exceeds ${MiB} bytes.`,
    );
    const before = await dbSnapshot(server.orm);
    const res = await chunked(
      `/rest/issue/${issue}/execute?command=Critical`,
      {
        authorization: basic('root', ROOT_PASSWORD),
        'content-type': 'text/plain',
        'transfer-encoding': 'chunked',
      },
      MiB + 1,
    );
    expect(res.status, res.text).toBe(413);
    expect(changedTables(before, await dbSnapshot(server.orm))).toEqual([]);
  });

  it('/trpc: refuses a body over 1 MiB with 413', async () => {
    const res = await refused(() =>
      root('POST', '/trpc/folders.createTag', {
        contentType: 'application/json',
        body: JSON.stringify({ name: 'trpc-big', padding: 'a'.repeat(MiB) }),
      }),
    );
    expect(res.status).toBe(413);
    expect(res.json().error.data).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      errorCode: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('login: reads at most 64 KiB (413 past it, no session created)', async () => {
    const field = (size: number) => `login=root&password=${'a'.repeat(size - 'login=root&password='.length)}`;
    const form = 'application/x-www-form-urlencoded';
    const atBound = await server.request('POST', '/rest/user/login', {
      contentType: form,
      body: field(64 * 1024),
    });
    expect(atBound.status).toBe(401);
    expectXmlError(
      await refused(() =>
        server.request('POST', '/rest/user/login', { contentType: form, body: field(64 * 1024 + 1) }),
      ),
      413,
      `Request body exceeds ${64 * 1024} bytes.`,
    );
    const res = await chunked('/rest/user/login', { 'content-type': form }, 64 * 1024 + 1);
    expect(res.status).toBe(413);
  });
});

describe('/trpc batches', () => {
  const batch = (n: number) =>
    root(
      'GET',
      `/trpc/${Array(n).fill('folders.tags').join(',')}?batch=1&input=${encodeURIComponent(
        JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [i, {}]))),
      )}`,
    );

  it('carry at most 100 calls (400 beyond)', async () => {
    expect((await batch(100)).status).toBe(200);
    const res = await batch(101);
    expect(res.status).toBe(400);
    expect(res.json().error.message).toMatch(/batch/i);
  });
});

describe('hygiene', () => {
  // Error responses only: a successful suggestion list legitimately offers the Type `Exception`.
  it('no error response of this suite carried a stack trace', () => {
    const errors = server.responses.filter((r) => r.status >= 400);
    expect(errors.length).toBeGreaterThan(10);
    expect(errors.filter((r) => STACK_TRACE.test(r.text)).map((r) => `${r.path}: ${r.text}`)).toEqual([]);
  });
});
