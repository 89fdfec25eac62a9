import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import {
  expectJsonError,
  JSON_ACCEPT,
  rawRequest,
  startTestServer,
  type TestServer,
  USER_PASSWORD,
  userWithRole,
} from '../harness.js';

/**
 * Sessions can be ended: logout, revocation of all of a user's sessions (own, or another's with
 * UPDATE_USER), and a password change ends every session of the user. The cookie is `Secure`
 * behind a trusted HTTPS proxy. The login password may come in the query string as the original
 * documented (issue 22), unless TRACKLINE_LOGIN_QUERY_PASSWORD=off; no log line ever holds it.
 */
describe('hardening item 6: sessions', () => {
  let server: TestServer;
  let proxied: TestServer;
  let strict: TestServer;
  const logged: string[] = [];
  beforeAll(async () => {
    const destination = new Writable({
      write(chunk, _encoding, done) {
        logged.push(String(chunk));
        done();
      },
    });
    server = await startTestServer({ handler: { logger: createLogger({ level: 'debug', destination }) } });
    proxied = await startTestServer({ handler: { limits: { trustProxy: true } } });
    strict = await startTestServer({ handler: { loginQueryPassword: false } });
    await userWithRole(strict.orm, 's_other', 'Developer');
    for (const login of ['s_out', 's_all', 's_admin', 's_pw', 's_other']) {
      await userWithRole(server.orm, login, 'Developer');
    }
  });
  afterAll(async () => {
    await server.close();
    await proxied.close();
    await strict.close();
  });

  const FORM = 'application/x-www-form-urlencoded';
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

  /** Logs in through the form; returns the `JSESSIONID=…` pair. */
  async function session(login: string, password = USER_PASSWORD, on = server) {
    const res = await on.request('POST', '/rest/user/login', {
      contentType: FORM,
      body: form({ login, password }),
    });
    expect(res.status, res.text).toBe(200);
    return (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
  }
  const me = (login: string, cookie: string) =>
    server.request('GET', `/rest/admin/user/${login}`, { headers: { cookie }, accept: JSON_ACCEPT });

  it('POST /rest/user/logout ends the current session only and clears the cookie', async () => {
    const first = await session('s_out');
    const second = await session('s_out');
    expect((await me('s_out', first)).status).toBe(200);
    const out = await server.request('POST', '/rest/user/logout', { headers: { cookie: first } });
    expect(out.status, out.text).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(
      /^JSESSIONID=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax$/,
    );
    expect((await me('s_out', first)).status).toBe(401);
    expect((await me('s_out', second)).status).toBe(200);
    // Over /trpc as well.
    const viaTrpc = await server.request('POST', '/trpc/users.logout', {
      headers: { cookie: second },
      contentType: 'application/json',
      body: '{}',
    });
    expect(viaTrpc.status, viaTrpc.text).toBe(200);
    expect(viaTrpc.headers.get('set-cookie')).toMatch(/^JSESSIONID=; .*Max-Age=0/);
    expect((await me('s_out', second)).status).toBe(401);
  });

  it('DELETE /rest/user/sessions ends every session of the caller; passwords and tokens still work', async () => {
    const sessions = [await session('s_all'), await session('s_all')];
    const revoked = await server.request('DELETE', '/rest/user/sessions', {
      headers: { cookie: sessions[0] as string },
      accept: JSON_ACCEPT,
    });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.json()).toEqual({ ended: 2 });
    for (const cookie of sessions) expect((await me('s_all', cookie)).status).toBe(401);
    expect((await server.request('GET', '/rest/admin/user/s_all', { user: 's_all' })).status).toBe(200);
  });

  it('an administrator ends another user’s sessions; without UPDATE_USER that is 403', async () => {
    const cookie = await session('s_admin');
    const refused = await server.request('DELETE', '/rest/admin/user/s_admin/sessions', {
      user: 's_other',
      accept: JSON_ACCEPT,
    });
    expectJsonError(refused, 403, 'PERMISSION_DENIED', /UPDATE_USER/);
    expect((await me('s_admin', cookie)).status).toBe(200);
    const done = await server.request('DELETE', '/rest/admin/user/s_admin/sessions', {
      user: 'root',
      accept: JSON_ACCEPT,
    });
    expect(done.json()).toEqual({ ended: 1 });
    expect((await me('s_admin', cookie)).status).toBe(401);
    expect(
      (await server.request('DELETE', '/rest/admin/user/nobody_here/sessions', { user: 'root' })).status,
    ).toBe(404);
  });

  it('a password change ends every session of the user and the remembered Basic pair', async () => {
    const cookies = [await session('s_pw'), await session('s_pw')];
    // Verified once: remembered for a minute unless the password changes.
    expect((await server.request('GET', '/rest/admin/user/s_pw', { user: 's_pw' })).status).toBe(200);
    const path = '/rest/admin/user/s_pw/password';
    const wrong = await server.request('POST', path, {
      headers: { cookie: cookies[0] as string },
      accept: JSON_ACCEPT,
      contentType: FORM,
      body: form({ password: 'not-it-at-all', newPassword: 'new-password-1' }),
    });
    expectJsonError(wrong, 400, 'VALIDATION_FAILED', 'password: is not your current password');
    const inQuery = await server.request('POST', `${path}?newPassword=new-password-1`, {
      headers: { cookie: cookies[0] as string },
      accept: JSON_ACCEPT,
      contentType: FORM,
      body: form({ password: USER_PASSWORD }),
    });
    expectJsonError(inQuery, 400, 'VALIDATION_FAILED', /^newPassword: must be sent in the request body/);
    for (const cookie of cookies) expect((await me('s_pw', cookie)).status).toBe(200);

    const changed = await server.request('POST', path, {
      headers: { cookie: cookies[0] as string },
      contentType: FORM,
      body: form({ password: USER_PASSWORD, newPassword: 'new-password-1' }),
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    for (const cookie of cookies) expect((await me('s_pw', cookie)).status).toBe(401);
    expect((await server.request('GET', '/rest/admin/user/s_pw', { user: 's_pw' })).status).toBe(401);
    const fresh = await session('s_pw', 'new-password-1');
    expect((await me('s_pw', fresh)).status).toBe(200);

    // Root sets it back (LOW_LEVEL_ADMIN, no current password needed): the new session ends too.
    const reset = await server.request('POST', path, {
      user: 'root',
      contentType: FORM,
      body: form({ newPassword: USER_PASSWORD }),
    });
    expect(reset.status, reset.text).toBe(200);
    expect((await me('s_pw', fresh)).status).toBe(401);
    // Another user without LOW_LEVEL_ADMIN cannot.
    const refused = await server.request('POST', path, {
      user: 's_other',
      accept: JSON_ACCEPT,
      contentType: FORM,
      body: form({ newPassword: 'taken-over-1' }),
    });
    expectJsonError(refused, 403, 'PERMISSION_DENIED', /LOW_LEVEL_ADMIN/);
  });

  it('the login password in the query string: accepted as the original did, never logged', async () => {
    const secret = 'Qu3ry-Secret-77';
    await userWithRole(server.orm, 's_query', 'Developer');
    const set = await server.request('POST', '/rest/admin/user/s_query/password', {
      user: 'root',
      contentType: FORM,
      body: form({ newPassword: secret }),
    });
    expect(set.status, set.text).toBe(200);
    const ok = await server.request(
      'POST',
      `/rest/user/login?${form({ login: 's_query', password: secret })}`,
    );
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('<login>ok</login>');
    expect(ok.headers.get('set-cookie')).toMatch(/^JSESSIONID=/);
    const wrong = await server.request(
      'POST',
      `/rest/user/login?${form({ login: 's_query', password: `${secret}x` })}`,
    );
    expect(wrong.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logged.length).toBeGreaterThan(0);
    for (const line of logged) expect(line).not.toContain(secret);
    expect(logged.join('\n')).toMatch(/"route":"\/rest\/user\/login"/);
  });

  it('TRACKLINE_LOGIN_QUERY_PASSWORD=off: in the query string it is 400 naming `password`', async () => {
    const inQuery = await strict.request(
      'POST',
      `/rest/user/login?${form({ login: 's_other', password: USER_PASSWORD })}`,
      { accept: JSON_ACCEPT },
    );
    const body = expectJsonError(inQuery, 400, 'VALIDATION_FAILED', /^password: /);
    expect(body.value).toMatch(/body/);
    expect(inQuery.headers.get('set-cookie')).toBeNull();
    // Even when the body carries it too.
    const both = await strict.request('POST', `/rest/user/login?password=${USER_PASSWORD}`, {
      contentType: FORM,
      body: form({ login: 's_other', password: USER_PASSWORD }),
    });
    expect(both.status).toBe(400);
    // `login` may still come in the query (legacy clients), the password in the body.
    const mixed = await strict.request('POST', '/rest/user/login?login=s_other', {
      contentType: FORM,
      body: form({ password: USER_PASSWORD }),
    });
    expect(mixed.status).toBe(200);
  });

  it('the cookie is Secure behind a trusted proxy saying https, not over plain HTTP', async () => {
    await userWithRole(proxied.orm, 'secure_user', 'Developer');
    const login = (headers: Record<string, string>) =>
      rawRequest(
        proxied.url,
        'POST',
        '/rest/user/login',
        { 'content-type': FORM, ...headers },
        form({ login: 'secure_user', password: USER_PASSWORD }),
      );
    const plain = await login({});
    expect(String(plain.headers['set-cookie'])).not.toMatch(/Secure/);
    const viaHttps = await login({ 'x-forwarded-proto': 'https' });
    expect(viaHttps.status).toBe(200);
    expect(String(viaHttps.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    // An untrusted client's header is ignored.
    const untrusted = await rawRequest(
      server.url,
      'POST',
      '/rest/user/login',
      { 'content-type': FORM, 'x-forwarded-proto': 'https' },
      form({ login: 's_other', password: USER_PASSWORD }),
    );
    expect(untrusted.status).toBe(200);
    expect(String(untrusted.headers['set-cookie'])).not.toMatch(/Secure/);
  });
});
