import { createIssue, createProject, Issue } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actorFor,
  basic,
  createToken,
  fork,
  ROOT_PASSWORD,
  rawRequest,
  startTestServer,
  type TestServer,
} from '../../harness.js';

/**
 * Issue 37, item 6, the rule byte by byte (the browser attack itself: apps/web/e2e/csrf.e2e.test.ts).
 * A state-changing request signed in by the session cookie alone, and the login form, must come
 * from this server's pages (Sec-Fetch-Site same-origin, an Origin that is this server's or listed
 * in TRACKLINE_ALLOWED_ORIGINS, or the X-Trackline-Client header); Basic, Bearer and `perm:`
 * requests, and requests without Origin (legacy clients), are unchanged.
 */
describe('issue 37 item 6: cross-site requests with the session cookie are refused', () => {
  let server: TestServer;
  let cookie = '';
  let host = '';
  const FOREIGN = 'http://127.0.0.1:18399';
  const ALLOWED = 'https://tools.example.com';
  const form = 'application/x-www-form-urlencoded';
  const issues = () => fork(server.orm).count(Issue, {});
  const create = (headers: Record<string, string>, summary = 'forged') =>
    rawRequest(server.url, 'POST', `/rest/issue?project=CS&summary=${summary}`, headers);
  const comment = (headers: Record<string, string>) =>
    rawRequest(
      server.url,
      'POST',
      '/rest/issue/CS-1/execute',
      { 'content-type': 'text/plain', ...headers },
      'comment=hi',
    );

  beforeAll(async () => {
    server = await startTestServer({ handler: { allowedOrigins: [ALLOWED] } });
    await createProject(fork(server.orm), await actorFor(server.orm, 'root'), {
      shortName: 'CS',
      name: 'CSRF',
    });
    await createIssue(fork(server.orm), await actorFor(server.orm, 'root'), {
      project: 'CS',
      summary: 'one',
    });
    const login = await rawRequest(
      server.url,
      'POST',
      '/rest/user/login',
      { 'content-type': form },
      `login=root&password=${ROOT_PASSWORD}`,
    );
    expect(login.status).toBe(200);
    cookie = String(login.headers['set-cookie']).split(';')[0] as string;
    host = new URL(server.url).host;
  });
  afterAll(() => server.close());

  it('the session cookie from another origin (another port of the host): 403, nothing created', async () => {
    const before = await issues();
    for (const headers of <Record<string, string>[]>[
      { cookie, origin: FOREIGN },
      { cookie, origin: FOREIGN, 'sec-fetch-site': 'same-site', 'content-type': form },
      { cookie, origin: 'null' },
      { cookie, 'sec-fetch-site': 'cross-site' },
    ]) {
      const res = await create(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.text).toContain('Cross-site request refused');
    }
    expect((await comment({ cookie, origin: FOREIGN })).status).toBe(403);
    expect(await issues()).toBe(before);
  });

  it('from this server’s own pages, a listed origin, or with X-Trackline-Client: accepted', async () => {
    for (const headers of <Record<string, string>[]>[
      { cookie, origin: `http://${host}` },
      { cookie, 'sec-fetch-site': 'same-origin', origin: `http://${host}` },
      { cookie, origin: ALLOWED, 'sec-fetch-site': 'cross-site' },
      { cookie, origin: FOREIGN, 'x-trackline-client': 'typed' },
    ]) {
      const res = await create(headers, 'fine');
      expect(res.status, `${JSON.stringify(headers)}: ${res.text}`).toBe(201);
    }
  });

  it('legacy clients are unchanged: a cookie without Origin, Basic and Bearer from anywhere', async () => {
    const token = await createToken(server, 'root', 'csrf-test', ROOT_PASSWORD);
    for (const headers of <Record<string, string>[]>[
      { cookie },
      { authorization: basic('root', ROOT_PASSWORD), origin: FOREIGN },
      { authorization: `Bearer ${token}`, origin: FOREIGN, cookie },
    ]) {
      const res = await create(headers, 'legacy');
      expect(res.status, `${JSON.stringify(headers)}: ${res.text}`).toBe(201);
    }
  });

  it('reads are not changes: GET with the cookie from another origin still answers', async () => {
    const res = await rawRequest(server.url, 'GET', '/rest/issue/CS-1', { cookie, origin: FOREIGN });
    expect(res.status).toBe(200);
  });

  it('tRPC mutations follow the same rule (a text/plain body is 415 there already)', async () => {
    const call = (headers: Record<string, string>) =>
      rawRequest(
        server.url,
        'POST',
        '/trpc/issues.create',
        { 'content-type': 'application/json', ...headers },
        JSON.stringify({ project: 'CS', summary: 'via trpc' }),
      );
    expect((await call({ cookie, origin: FOREIGN })).status).toBe(403);
    expect((await call({ cookie, origin: `http://${host}` })).status).toBe(200);
  });

  it('the login form from another origin is refused (no session is set); without Origin it works', async () => {
    const body = `login=root&password=${ROOT_PASSWORD}`;
    const forged = await rawRequest(
      server.url,
      'POST',
      '/rest/user/login',
      { 'content-type': form, origin: FOREIGN },
      body,
    );
    expect(forged.status).toBe(403);
    expect(forged.headers['set-cookie']).toBeUndefined();
    const own = await rawRequest(
      server.url,
      'POST',
      '/rest/user/login',
      { 'content-type': form, origin: `http://${host}` },
      body,
    );
    expect(own.status).toBe(200);
  });
});
