import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputLimitsFromEnv, readEnv } from '../../src/env.js';
import {
  expectJsonError,
  expectNoStackTraces,
  expectXmlError,
  JSON_ACCEPT,
  startTestServer,
  type TestServer,
} from '../harness.js';
import { createProjectOverHttp, q } from '../issue-fixtures.js';

/** A form body of exactly 1 MiB carrying `keys` distinct names (`k0=&k1=&...`). */
function formBodyOf1MiB(keys: number): string {
  const body = Array.from({ length: keys }, (_, i) => `k${i}=`).join('&');
  const size = 1024 * 1024;
  if (body.length > size) throw new Error('too many keys for 1 MiB');
  return body + 'x'.repeat(size - body.length);
}

/** `{"a":{"a":...{"a":"x"}...}}`, `levels` objects deep (the outer one included). */
const nestedJson = (levels: number) => `${'{"a":'.repeat(levels)}"x"${'}'.repeat(levels)}`;

const FORM = 'application/x-www-form-urlencoded';
const TOO_MANY = 'Too many parameters: at most 1000 query and body parameters are accepted.';

describe('hardening item 1: unauthenticated freeze by form bodies and deep JSON', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await createProjectOverHttp(server, 'FRZ', 'Freeze');
  });
  afterAll(() => server.close());

  it('answers an unauthenticated 1 MiB form body of 100,000 keys with 401', async () => {
    const body = formBodyOf1MiB(100_000);
    expect(Buffer.byteLength(body)).toBe(1024 * 1024);
    const res = await server.request('PUT', '/rest/issue', { contentType: FORM, body });
    expectXmlError(res, 401, 'Authentication required.');
  });

  it('authenticates before reading the body: a malformed body without credentials is 401, not 400 or 415', async () => {
    const bad = [
      { contentType: 'application/json', body: '{"summary": ' },
      { contentType: 'application/x-unknown', body: 'whatever' },
      { contentType: 'application/json', body: nestedJson(10_000) },
    ];
    for (const { contentType, body } of bad) {
      const res = await server.request('PUT', '/rest/issue?project=FRZ', { contentType, body });
      expectXmlError(res, 401, 'Authentication required.');
      const wrong = await server.request('POST', '/rest/issue/FRZ-1/execute', {
        contentType,
        body,
        user: 'root',
        password: 'wrong-password',
        accept: JSON_ACCEPT,
      });
      expectJsonError(wrong, 401, 'UNAUTHENTICATED', 'Invalid credentials.');
    }
  });

  it('authenticates /trpc calls before reading their body (single and batched)', async () => {
    for (const path of ['/trpc/roles.create', '/trpc/roles.create,roles.create?batch=1']) {
      const res = await server.request('POST', path, { contentType: 'application/json', body: '{"role": ' });
      expect(res.status, res.text).toBe(401);
      expect(res.text).toContain('Authentication required.');
    }
    const batch = await server.request('POST', '/trpc/roles.create,roles.create?batch=1', {
      user: 'root',
      contentType: 'application/json',
      body: JSON.stringify({ 0: { role: 'Batched1' }, 1: { role: 'Batched2' } }),
    });
    expect(batch.status, batch.text).toBe(200);
  });

  it('still answers 404 for an unknown route without credentials', async () => {
    const res = await server.request('PUT', '/rest/no-such-route', { contentType: FORM, body: 'a=1' });
    expectXmlError(res, 404, 'No resource at PUT /no-such-route.');
  });

  it('refuses the same body with credentials: 400 naming the limit, and creates nothing', async () => {
    const res = await server.request('PUT', '/rest/issue', {
      user: 'root',
      contentType: FORM,
      body: formBodyOf1MiB(100_000),
      accept: JSON_ACCEPT,
    });
    expectJsonError(res, 400, 'VALIDATION_FAILED', TOO_MANY);
    const search = await server.request('GET', '/rest/issue/FRZ-1', { user: 'root' });
    expect(search.status).toBe(404);
  });

  it('counts query and body parameters together; repeated names each count', async () => {
    const query = `?${Array.from({ length: 600 }, (_, i) => `q${i}=1`).join('&')}`;
    const body = Array.from({ length: 401 }, () => 'summary=x').join('&');
    const res = await server.request('PUT', `/rest/issue${query}`, { user: 'root', contentType: FORM, body });
    expectXmlError(res, 400, TOO_MANY);
    const get = await server.request('GET', `/rest/issue/FRZ-1?${'a=1&'.repeat(1001)}`, { user: 'root' });
    expectXmlError(get, 400, TOO_MANY);
  });

  it('parses a form body as before: repeated names become arrays, the body wins over the query', async () => {
    const res = await server.request('PUT', `/rest/issue${q({ project: 'FRZ', summary: 'from query' })}`, {
      user: 'root',
      contentType: FORM,
      body: 'summary=from+body&description=d%C3%A9j%C3%A0',
    });
    expect(res.status, res.text).toBe(201);
    const issue = await server.request('GET', '/rest/issue/FRZ-1', { user: 'root', accept: JSON_ACCEPT });
    const fields = issue.json().field as { name: string; value: string }[];
    expect(fields.find((f) => f.name === 'summary')?.value).toBe('from body');
    expect(fields.find((f) => f.name === 'description')?.value).toBe('déjà');
  });

  it('refuses a login form of thousands of keys with 400 instead of parsing it quadratically', async () => {
    const body = `login=root&password=x&${Array.from({ length: 5_000 }, (_, i) => `k${i}=`).join('&')}`;
    const res = await server.request('POST', '/rest/user/login', { contentType: FORM, body });
    expectXmlError(res, 400, TOO_MANY);
  });

  it('answers JSON nested 10,000 levels with 400 (401 without credentials), on /rest and on /trpc, never 500', async () => {
    const deep = nestedJson(10_000);
    const rest = await server.request('POST', '/rest/issue/FRZ-1/execute', {
      user: 'root',
      contentType: 'application/json',
      body: deep,
      accept: JSON_ACCEPT,
    });
    expectJsonError(rest, 400, 'VALIDATION_FAILED', 'body: nests objects or arrays deeper than 64 levels');
    for (const user of [undefined, 'root']) {
      const trpc = await server.request('POST', '/trpc/roles.create', {
        ...(user ? { user } : {}),
        contentType: 'application/json',
        body: deep,
      });
      if (user) {
        expect(trpc.status, trpc.text).toBe(400);
        expect(trpc.json().error.data.errorCode).toBe('VALIDATION_FAILED');
        expect(trpc.json().error.message).toMatch(/deeper than 64 levels/);
      } else {
        // Without credentials the body is not even read.
        expect(trpc.status, trpc.text).toBe(401);
      }
      // As deep as a URL can carry (Node refuses headers beyond 16 KiB).
      const viaQuery = await server.request(
        'GET',
        `/trpc/roles.get?input=${encodeURIComponent(nestedJson(500))}`,
        {
          ...(user ? { user } : {}),
        },
      );
      expect(viaQuery.status, viaQuery.text).toBe(400);
    }
    const xml = `<issue>${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}</issue>`;
    const xmlRes = await server.request('PUT', '/rest/admin/project', {
      user: 'root',
      contentType: 'application/xml',
      body: xml,
    });
    expect(xmlRes.status, xmlRes.text).toBe(400);
    expectNoStackTraces(server);
  });

  it('takes the limit from TRACKLINE_MAX_PARAMETERS', async () => {
    expect(inputLimitsFromEnv(readEnv({})).maxParameters).toBe(1000);
    const limits = inputLimitsFromEnv(readEnv({ TRACKLINE_MAX_PARAMETERS: '5' }));
    expect(limits.maxParameters).toBe(5);
    const small = await startTestServer({ handler: { inputLimits: limits } });
    try {
      const res = await small.request('GET', '/rest/admin/project?a=1&b=2&c=3&d=4&e=5&f=6', { user: 'root' });
      expectXmlError(res, 400, 'Too many parameters: at most 5 query and body parameters are accepted.');
      expect((await small.request('GET', '/rest/admin/project?a=1', { user: 'root' })).status).not.toBe(400);
    } finally {
      await small.close();
    }
  });
});
