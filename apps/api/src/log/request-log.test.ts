import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_ACCEPT, ROOT_PASSWORD, startTestServer, type TestServer } from '../../test/harness.js';
import { createLogger } from './logger.js';

/**
 * The request log: one JSON line per answered request, with its request id (the one echoed in
 * `X-Request-Id`), method, route pattern, status, duration, user and client address; never the
 * query string or a path's values.
 */
type Line = Record<string, unknown>;

describe('the request log', () => {
  let server: TestServer;
  const lines: Line[] = [];
  const raw: string[] = [];
  const http = () => lines.filter((l) => l.log === 'http');
  const lineOf = (requestId: string | null) => http().find((l) => l.requestId === requestId);
  /** The line is written when the answer is finished: after fetch resolves, within a tick or two. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

  beforeAll(async () => {
    const destination = new Writable({
      write(chunk, _encoding, done) {
        raw.push(String(chunk));
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    server = await startTestServer({ handler: { logger: createLogger({ destination }) } });
  });
  afterAll(() => server.close());

  it('names the route pattern, the user, the status and the duration of each request', async () => {
    const res = await server.request('GET', '/rest/admin/role/Developer?secretish=hunter2', {
      user: 'root',
      accept: JSON_ACCEPT,
    });
    expect(res.status).toBe(200);
    await settle();
    const line = lineOf(res.headers.get('x-request-id'));
    expect(line).toMatchObject({
      level: 'info',
      method: 'GET',
      route: '/rest/admin/role/{role}',
      status: 200,
      user: 'root',
      clientIp: '127.0.0.1',
    });
    expect(typeof line?.durationMs).toBe('number');
    expect(raw.join('')).not.toContain('hunter2');
    expect(raw.join('')).not.toContain('Developer?');
  });

  it('logs refusals and unknown paths without the caller’s text, and login without the password', async () => {
    const missing = await server.request('GET', '/no/such/place?x=1');
    const anonymous = await server.request('GET', '/rest/admin/role');
    const login = await server.request('POST', '/rest/user/login', {
      contentType: 'application/x-www-form-urlencoded',
      body: `login=root&password=${encodeURIComponent(ROOT_PASSWORD)}`,
    });
    await settle();
    expect(lineOf(missing.headers.get('x-request-id'))).toMatchObject({ status: 404, route: '/no/…' });
    expect(lineOf(anonymous.headers.get('x-request-id'))).toMatchObject({
      status: 401,
      route: '/rest/admin/role',
    });
    expect(lineOf(anonymous.headers.get('x-request-id'))?.user).toBeUndefined();
    expect(lineOf(login.headers.get('x-request-id'))).toMatchObject({
      status: 200,
      route: '/rest/user/login',
    });
    expect(raw.join('')).not.toContain(ROOT_PASSWORD);
  });

  it('keeps a sane incoming request id, and names tRPC procedures', async () => {
    const res = await server.request('GET', '/trpc/roles.list?input=%7B%7D', {
      user: 'root',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
    await settle();
    expect(lineOf('abc-123')).toMatchObject({ route: '/trpc/roles.list', status: 200, user: 'root' });
  });
});
