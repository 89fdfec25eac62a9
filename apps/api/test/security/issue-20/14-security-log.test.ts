import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/auth/limits.js';
import { createLogger, type LogLevel } from '../../../src/log/logger.js';
import {
  basic,
  JSON_ACCEPT,
  ROOT_PASSWORD,
  rawRequest,
  startTestServer,
  type TestServer,
  USER_PASSWORD,
  userWithRole,
} from '../../harness.js';

/**
 * Issue 20, item 14: nothing was logged (an 11-attempt brute force left no trace). Security
 * events now go to a structured JSON log (pino): failed and throttled logins, permission refusals
 * on administrative routes, token and password changes, role and group changes, each with the
 * user, the client's address and the request id, and never a secret.
 */
type Line = Record<string, unknown> & { event?: string; level?: string; requestId?: string };

/** A server whose log lines are captured (parsed) in `lines`. */
async function loggedServer(level: LogLevel = 'info') {
  const lines: Line[] = [];
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      raw.push(String(chunk));
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const server = await startTestServer({
    handler: {
      logger: createLogger({ level, destination }),
      limits: { logins: { ...DEFAULT_LIMITS.logins, perIp: 10_000 } },
    },
  });
  return { server, lines, raw };
}

const SECRETS = [ROOT_PASSWORD, USER_PASSWORD, 'wrong-password', 'new-password-123', 'JSESSIONID', 'perm:'];

describe('issue 20 item 14: the security log', () => {
  let server: TestServer;
  let lines: Line[];
  let raw: string[];
  const events = (name: string) => lines.filter((l) => l.event === name);
  /** Everything written so far holds no secret we sent or were given. */
  const expectNoSecrets = (extra: string[] = []) => {
    const text = raw.join('');
    for (const secret of [...SECRETS, ...extra]) expect(text).not.toContain(secret);
  };

  beforeAll(async () => {
    ({ server, lines, raw } = await loggedServer());
    await userWithRole(server.orm, 'victim', 'Developer');
    await userWithRole(server.orm, 'reporter', 'Reporter');
  });
  afterAll(() => server.close());

  it('an 11-attempt brute force over Basic: 10 login.failed, then login.throttled, with user, address and request id', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await server.request('GET', '/rest/user/current', {
        headers: { authorization: basic('victim', 'wrong-password') },
      });
      expect(res.status).toBe(i < 10 ? 401 : 429);
      ids.push(res.headers.get('x-request-id') as string);
    }
    const failed = events('login.failed');
    expect(failed).toHaveLength(10);
    expect(failed[0]).toMatchObject({
      level: 'warn',
      log: 'security',
      credential: 'basic',
      user: 'victim',
      clientIp: '127.0.0.1',
      requestId: ids[0],
    });
    expect(events('login.throttled')).toEqual([
      expect.objectContaining({
        user: 'victim',
        credential: 'basic',
        requestId: ids[10],
        retryAfter: expect.any(Number),
      }),
    ]);
    expect(typeof failed[0]?.time).toBe('string');
    expectNoSecrets();
  });

  it('the login form: failures and successes, never the password, the query string or the cookie', async () => {
    const form = (password: string) => ({
      contentType: 'application/x-www-form-urlencoded',
      body: new URLSearchParams({ login: 'reporter', password }).toString(),
    });
    expect(
      (await server.request('POST', '/rest/user/login?login=reporter', form('wrong-password'))).status,
    ).toBe(401);
    const ok = await server.request('POST', '/rest/user/login', form(USER_PASSWORD));
    expect(ok.status).toBe(200);
    const cookie = /JSESSIONID=([^;]+)/.exec(ok.headers.get('set-cookie') ?? '')?.[1] as string;
    expect(events('login.failed').at(-1)).toMatchObject({ credential: 'form', user: 'reporter' });
    expect(events('login.succeeded').at(-1)).toMatchObject({ credential: 'form', user: 'reporter' });
    expectNoSecrets([cookie]);
  });

  it('a permission refusal on an administrative route: access.denied with user, route and reason', async () => {
    const res = await server.request('GET', '/rest/admin/user?q=secret-query', { user: 'reporter' });
    expect(res.status).toBe(200); // Reporter holds READ_USER: a read, not an admin refusal
    const refused = await server.request('PUT', '/rest/admin/role/Sneaky', { user: 'reporter' });
    expect(refused.status).toBe(403);
    expect(events('access.denied').at(-1)).toMatchObject({
      level: 'warn',
      user: 'reporter',
      method: 'PUT',
      route: '/rest/admin/role/{role}',
      reason: expect.stringContaining('CREATE_ROLE'),
      requestId: refused.headers.get('x-request-id'),
      clientIp: '127.0.0.1',
    });
    expect(raw.join('')).not.toContain('secret-query');
    // The import's multipart route is served beside the procedures: refused and logged alike.
    const upload = new FormData();
    upload.append('files', new Blob(['x']), 'x.txt');
    const imported = await fetch(`${server.url}/rest/import/NOPE-1/attachment`, {
      method: 'POST',
      headers: { authorization: basic('reporter', USER_PASSWORD) },
      body: upload,
    });
    expect(imported.status).toBe(403);
    expect(events('access.denied').at(-1)).toMatchObject({
      user: 'reporter',
      route: '/rest/import/{issue}/attachment',
      reason: expect.stringContaining('IMPORT_DATA'),
    });
  });

  it('token and password changes, by name only', async () => {
    const created = await server.request('PUT', '/rest/user/token/ci', {
      user: 'reporter',
      accept: JSON_ACCEPT,
    });
    expect(created.status).toBe(201);
    const token = created.json().token as string;
    expect((await server.request('DELETE', '/rest/user/token/ci', { user: 'reporter' })).status).toBe(200);
    const changed = await server.request('POST', '/rest/admin/user/reporter/password', {
      user: 'reporter',
      contentType: 'application/x-www-form-urlencoded',
      body: new URLSearchParams({ password: USER_PASSWORD, newPassword: 'new-password-123' }).toString(),
    });
    expect(changed.status, changed.text).toBe(200);
    expect(events('token.created').at(-1)).toMatchObject({
      user: 'reporter',
      tokenName: 'ci',
      level: 'info',
    });
    expect(events('token.revoked').at(-1)).toMatchObject({ user: 'reporter', tokenName: 'ci' });
    expect(events('password.changed').at(-1)).toMatchObject({ user: 'reporter', target: 'reporter' });
    expectNoSecrets([token, token.split('.').at(-1) as string]);
  });

  it('role and group changes: who, what, where, with the request id', async () => {
    const root = (method: string, path: string) => server.request(method, path, { user: 'root' });
    const from = lines.length;
    const events = (name: string) => lines.slice(from).filter((l) => l.event === name);
    expect((await root('POST', '/rest/admin/user/victim/role/Observer')).status).toBe(200);
    expect((await root('PUT', '/rest/admin/group/auditors')).status).toBe(201);
    expect((await root('PUT', '/rest/admin/group/auditors/role/Observer')).status).toBe(200);
    const added = await root('POST', '/rest/admin/user/victim/group/auditors');
    expect(added.status).toBe(200);
    expect((await root('POST', '/rest/admin/role/Observer/permission/CREATE_ISSUE')).status).toBe(200);
    expect(events('role.granted')).toEqual([
      expect.objectContaining({ user: 'root', target: 'victim', role: 'Observer' }),
      expect.objectContaining({ user: 'root', group: 'auditors', role: 'Observer' }),
    ]);
    expect(events('group.created').at(-1)).toMatchObject({ user: 'root', group: 'auditors' });
    expect(events('group.member.added').at(-1)).toMatchObject({
      user: 'root',
      group: 'auditors',
      target: 'victim',
      requestId: added.headers.get('x-request-id'),
    });
    expect(events('role.permission.added').at(-1)).toMatchObject({
      role: 'Observer',
      permission: 'CREATE_ISSUE',
    });
    expectNoSecrets();
  });

  it('honours a sane incoming X-Request-Id, and replaces anything else', async () => {
    const sane = await rawRequest(server.url, 'GET', '/rest/user/current', {
      authorization: basic('nobody', 'wrong-password'),
      'x-request-id': 'edge-7f3a:42',
    });
    expect(sane.headers['x-request-id']).toBe('edge-7f3a:42');
    expect(events('login.failed').at(-1)).toMatchObject({ user: 'nobody', requestId: 'edge-7f3a:42' });
    const insane = await rawRequest(server.url, 'GET', '/rest/user/current', {
      'x-request-id': 'two words" {"event":"forged"}',
    });
    expect(insane.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(raw.join('')).not.toContain('forged');
  });
});

describe('issue 20 item 14: the log level', () => {
  it('at `error`, security warnings and changes are not written', async () => {
    const { server, lines } = await loggedServer('error');
    try {
      await server.request('GET', '/rest/user/current', {
        headers: { authorization: basic('root', 'wrong-password') },
      });
      expect((await server.request('PUT', '/rest/admin/group/quiet', { user: 'root' })).status).toBe(201);
      expect(lines).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
