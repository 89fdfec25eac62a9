import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/auth/limits.js';
import {
  basic,
  JSON_ACCEPT,
  ROOT_PASSWORD,
  rawRequest,
  startTestServer,
  type TestServer,
  USER_PASSWORD,
  userWithRole,
} from '../harness.js';

/**
 * The response cache replayed authenticated GETs keyed on the raw Authorization header, URL and
 * Accept: a hit skipped the login lockout, ignored Host, and confused a blank Authorization
 * header plus a cookie with the blank header alone. Every answer is now computed.
 */
describe('hardening item 3: no response replay', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ handler: { limits: { logins: DEFAULT_LIMITS.logins } } });
    await userWithRole(server.orm, 'victim', 'Developer');
    await userWithRole(server.orm, 'locked', 'Developer');
  });
  afterAll(() => server.close());

  const form = (login: string, password: string) => ({
    contentType: 'application/x-www-form-urlencoded',
    body: new URLSearchParams({ login, password }).toString(),
  });

  it('after a login is locked out, a Basic GET that succeeded before answers 429', async () => {
    // The wall clock stands still: nothing remembered from the first reads can expire meanwhile.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    onTestFinished(() => void vi.useRealTimers());
    const read = () =>
      server.request('GET', '/rest/admin/user/locked', { user: 'locked', accept: JSON_ACCEPT });
    expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(200);
    const failures = await Promise.all(
      Array.from({ length: DEFAULT_LIMITS.logins.perLogin }, (_, i) =>
        server.request('POST', '/rest/user/login', form('locked', `wrong-${i}`)),
      ),
    );
    expect(failures.map((r) => r.status)).toEqual(failures.map(() => 401));
    const after = await read();
    expect(after.status, after.text).toBe(429);
    expect(after.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('a blank Authorization header with a victim’s cookie, then the same header alone: 401', async () => {
    const login = await server.request('POST', '/rest/user/login', form('victim', USER_PASSWORD));
    expect(login.status).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect(cookie).toMatch(/^JSESSIONID=/);
    const path = '/rest/admin/user/victim';
    const headers = { authorization: '\u00a0', accept: JSON_ACCEPT };
    const withCookie = await rawRequest(server.url, 'GET', path, { ...headers, cookie });
    expect(withCookie.status, withCookie.text).toBe(200);
    const alone = await rawRequest(server.url, 'GET', path, headers);
    expect(alone.status, alone.text).toBe(401);
    expect(alone.text).not.toContain('victim@example.com');
  });

  it('answers embed URLs from the current Host, not a previous request’s', async () => {
    const read = (host: string) =>
      rawRequest(server.url, 'GET', '/rest/admin/role/Developer', {
        host,
        accept: JSON_ACCEPT,
        authorization: basic('root', ROOT_PASSWORD),
      });
    const first = await read('first.example');
    expect(first.status).toBe(200);
    expect(JSON.parse(first.text).permissionsUrl).toBe(
      'http://first.example/rest/admin/role/Developer/permission',
    );
    const second = await read('second.example');
    expect(second.status).toBe(200);
    expect(JSON.parse(second.text).permissionsUrl).toBe(
      'http://second.example/rest/admin/role/Developer/permission',
    );
  });
});
