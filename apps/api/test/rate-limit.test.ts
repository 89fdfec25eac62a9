import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Orm } from '@trackline/domain';
import { addRolePermission, createRole } from '@trackline/domain';
import { actorFor, fork } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_LIMITS, type LimitsOptions } from '../src/auth/limits.js';
import { limitsFromEnv, limitsStoreFromEnv, readEnv } from '../src/env.js';
import { createRequestHandler } from '../src/server.js';
import {
  basic,
  createTestOrm,
  expectJsonError,
  expectXmlError,
  JSON_ACCEPT,
  ROOT_PASSWORD,
  STACK_TRACE,
  type TestResponse,
  USER_PASSWORD,
  userWithRole,
  XML_ACCEPT,
} from './harness.js';

/**
 * Login throttling and per-user rate limits (`src/auth/limits.ts`, memory store). The harness
 * serves without limits, so these servers are built here. The limiters read the wall clock,
 * which stands still in this file (only `Date` is faked) and which the tests move.
 */

type LimitedServer = {
  url: string;
  orm: Orm;
  clock: { now: number };
  send(method: string, path: string, headers?: Record<string, string>, body?: string): Promise<TestResponse>;
  close(): Promise<void>;
};

const clock = {
  get now() {
    return Date.now();
  },
  set now(value: number) {
    vi.setSystemTime(value);
  },
};

async function startLimitedServer(limits: LimitsOptions, orm?: Orm): Promise<LimitedServer> {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  const db = orm ?? (await createTestOrm());
  const server: Server = createServer(createRequestHandler({ orm: db, logError: () => {}, limits }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    orm: db,
    clock,
    async send(method, path, headers = {}, body) {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { accept: '', ...headers },
        ...(body !== undefined ? { body } : {}),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!orm && (await db.isConnected())) await db.close(true);
    },
  };
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (login: string, password: string) => new URLSearchParams({ login, password }).toString();
const login = (s: LimitedServer, user: string, password: string, headers: Record<string, string> = {}) =>
  s.send('POST', '/rest/user/login', { ...FORM, ...headers }, form(user, password));
const asBasic = (s: LimitedServer, user: string, password: string, accept = '') =>
  s.send('GET', `/rest/admin/user/${user}`, { authorization: basic(user, password), accept });

function expectRetryAfter(res: TestResponse, seconds: number) {
  expect(res.status, res.text).toBe(429);
  expect(res.headers.get('retry-after')).toBe(String(seconds));
  expect(res.text).not.toMatch(STACK_TRACE);
}

const TOO_MANY_FAILURES = /^Too many failed login attempts; retry in \d+ s\.$/;

afterAll(() => void vi.useRealTimers());

describe('failed-login throttling (10 per login, 50 per IP, 5 minutes)', () => {
  let s: LimitedServer;
  beforeAll(async () => {
    s = await startLimitedServer({ logins: DEFAULT_LIMITS.logins });
    for (const name of ['alice', 'bob', 'carol']) await userWithRole(s.orm, name);
  });
  afterAll(() => s.close());

  it('answers 401 for ten failures, then 429 with Retry-After in XML and JSON, even for the right password', async () => {
    for (let i = 0; i < 10; i++) expect((await login(s, 'alice', `wrong-${i}`)).status).toBe(401);
    const xml = await login(s, 'alice', USER_PASSWORD);
    expectRetryAfter(xml, 300);
    expectXmlError(xml, 429, TOO_MANY_FAILURES);
    expect(xml.headers.get('set-cookie')).toBeNull();
    s.clock.now += 100_000;
    const json = await login(s, 'Alice', USER_PASSWORD, { accept: JSON_ACCEPT });
    expectRetryAfter(json, 200);
    expectJsonError(json, 429, 'RATE_LIMITED', TOO_MANY_FAILURES);
    // Basic credentials of the throttled login are refused too, before any password check.
    const viaBasic = await asBasic(s, 'alice', USER_PASSWORD, JSON_ACCEPT);
    expectRetryAfter(viaBasic, 200);
    expectJsonError(viaBasic, 429, 'RATE_LIMITED', TOO_MANY_FAILURES);
    // Other logins are not affected.
    expect((await login(s, 'bob', USER_PASSWORD)).status).toBe(200);
    // Once the window has passed, the right password works.
    s.clock.now += 200_000;
    expect((await login(s, 'alice', USER_PASSWORD)).status).toBe(200);
  });

  it('a success resets the login’s count', async () => {
    for (let i = 0; i < 9; i++) expect((await login(s, 'bob', `wrong-${i}`)).status).toBe(401);
    expect((await login(s, 'bob', USER_PASSWORD)).status).toBe(200);
    for (let i = 0; i < 9; i++) expect((await login(s, 'bob', `wrong-${i}`)).status).toBe(401);
    expect((await login(s, 'bob', USER_PASSWORD)).status).toBe(200);
    s.clock.now += 300_000;
  });

  it('counts HTTP Basic failures with login-form failures, for unknown logins too', async () => {
    for (let i = 0; i < 5; i++) expect((await asBasic(s, 'carol', `wrong-${i}`)).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await login(s, 'carol', `wrong-${i}`)).status).toBe(401);
    const res = await asBasic(s, 'carol', USER_PASSWORD, XML_ACCEPT);
    expectRetryAfter(res, 300);
    expectXmlError(res, 429, TOO_MANY_FAILURES);
    expect(res.headers.get('www-authenticate')).toBeNull();
    // An unknown login locks like a known one (no way to tell them apart).
    for (let i = 0; i < 10; i++) expect((await asBasic(s, 'nobody', `wrong-${i}`)).status).toBe(401);
    expectRetryAfter(await asBasic(s, 'nobody', 'x'), 300);
    s.clock.now += 300_000;
  });
});

describe('failed-login throttling per client IP', () => {
  let s: LimitedServer;
  beforeAll(async () => {
    s = await startLimitedServer({
      logins: { perLogin: 100, perIp: 5, windowSeconds: 60 },
      trustProxy: true,
    });
    await userWithRole(s.orm, 'dave');
  });
  afterAll(() => s.close());

  const from = (ip: string) => ({ 'x-forwarded-for': `203.0.113.9, ${ip}` });

  it('throttles an IP spraying one password over many logins; other IPs are not affected', async () => {
    for (let i = 0; i < 5; i++)
      expect((await login(s, `user${i}`, 'Winter2024', from('198.51.100.1'))).status).toBe(401);
    const refused = await login(s, 'dave', USER_PASSWORD, from('198.51.100.1'));
    expectRetryAfter(refused, 60);
    const basicRefused = await s.send('GET', '/rest/admin/user/dave', {
      authorization: basic('dave', USER_PASSWORD),
      ...from('198.51.100.1'),
    });
    expectRetryAfter(basicRefused, 60);
    // The IP's count is not reset by a success elsewhere, and another IP logs in.
    expect((await login(s, 'dave', USER_PASSWORD, from('198.51.100.2'))).status).toBe(200);
    expectRetryAfter(await login(s, 'dave', USER_PASSWORD, from('198.51.100.1')), 60);
    s.clock.now += 30_000;
    expectRetryAfter(await login(s, 'dave', USER_PASSWORD, from('198.51.100.1')), 30);
    s.clock.now += 30_000;
    expect((await login(s, 'dave', USER_PASSWORD, from('198.51.100.1'))).status).toBe(200);
  });
});

describe('per-user request limit (5 per 3 s window here)', () => {
  let s: LimitedServer;
  let token: string;
  beforeAll(async () => {
    s = await startLimitedServer({ requests: { perSecond: 2, burst: 5 } });
    await userWithRole(s.orm, 'erin');
    const created = await s.send('PUT', '/rest/user/token/bench', {
      authorization: basic('erin', USER_PASSWORD),
      accept: JSON_ACCEPT,
    });
    expect(created.status).toBe(201);
    token = created.json().token;
    s.clock.now += 10_000; // a new window
  });
  afterAll(() => s.close());

  const asErin = (accept = '') =>
    s.send('GET', '/rest/admin/user/erin', { authorization: `Bearer ${token}`, accept });

  it('allows the burst, then answers 429 with Retry-After in XML and JSON until the window ends', async () => {
    for (let i = 0; i < 4; i++) expect((await asErin()).status).toBe(200);
    // Basic credentials of the same user share the budget.
    const viaBasic = await s.send('GET', '/rest/admin/user/erin', {
      authorization: basic('erin', USER_PASSWORD),
    });
    expect(viaBasic.status).toBe(200);
    const xml = await asErin(XML_ACCEPT);
    expectRetryAfter(xml, 3);
    expectXmlError(xml, 429, 'Too many requests; retry in 3 s.');
    s.clock.now += 1000;
    const json = await asErin(JSON_ACCEPT);
    expectRetryAfter(json, 2);
    expectJsonError(json, 429, 'RATE_LIMITED', 'Too many requests; retry in 2 s.');
    // Other users have their own budget; unauthenticated requests are not charged (401).
    expect(
      (await s.send('GET', '/rest/admin/user/root', { authorization: basic('root', ROOT_PASSWORD) })).status,
    ).toBe(200);
    expect((await s.send('GET', '/rest/admin/user/erin')).status).toBe(401);
    s.clock.now += 2000;
    for (let i = 0; i < 5; i++) expect((await asErin()).status).toBe(200);
    expect((await asErin()).status).toBe(429);
    s.clock.now += 10_000;
  });

  it('applies to /trpc as well, with the tRPC error shape', async () => {
    for (let i = 0; i < 5; i++)
      expect(
        (await s.send('GET', '/trpc/users.tokens?input=%7B%7D', { authorization: `Bearer ${token}` })).status,
      ).toBe(200);
    const res = await s.send('GET', '/trpc/users.tokens?input=%7B%7D', { authorization: `Bearer ${token}` });
    expectRetryAfter(res, 3);
    expect(res.json().error).toMatchObject({
      message: 'Too many requests; retry in 3 s.',
      data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429, errorCode: 'RATE_LIMITED' },
    });
    s.clock.now += 10_000;
  });

  it('charges a /trpc batch one point per call; a refused batch costs nothing', async () => {
    const batch = (n: number) =>
      s.send(
        'GET',
        `/trpc/${Array(n).fill('users.tokens').join(',')}?batch=1&input=${encodeURIComponent(
          JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [i, {}]))),
        )}`,
        { authorization: `Bearer ${token}` },
      );
    expect((await batch(3)).status).toBe(200);
    // Two points left: a batch of three is refused, one of two passes.
    expectRetryAfter(await batch(3), 3);
    expect((await batch(2)).status).toBe(200);
    s.clock.now += 10_000;
  });

  it('in memory, per process: a second handler over the same database has its own counters', async () => {
    const other = await startLimitedServer({ requests: { perSecond: 2, burst: 5 } }, s.orm);
    try {
      for (let i = 0; i < 5; i++) expect((await asErin()).status).toBe(200);
      expect((await asErin()).status).toBe(429);
      const res = await other.send('GET', '/rest/admin/user/erin', { authorization: `Bearer ${token}` });
      expect(res.status).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('the default: sequential clients and importers are not limited (issue 22)', () => {
  let s: LimitedServer;
  beforeAll(async () => {
    s = await startLimitedServer({ requests: { perSecond: 2, burst: 5, sequential: 'free' } });
    await userWithRole(s.orm, 'fay');
    const root = await actorFor(s.orm, 'root');
    await createRole(fork(s.orm), root, 'Migrator');
    await addRolePermission(fork(s.orm), root, 'Migrator', 'IMPORT_DATA');
    await userWithRole(s.orm, 'mover', 'Migrator');
    s.clock.now += 10_000;
  });
  afterAll(() => s.close());
  const asFay = () => s.send('GET', '/rest/admin/user/fay', { authorization: basic('fay', USER_PASSWORD) });

  it('never stops a client that waits for each answer, however many requests it sends', async () => {
    // The python library's scripts send one request at a time and abort on a 429.
    for (let i = 0; i < 60; i++) expect((await asFay()).status).toBe(200);
  });

  it('charges requests sent while another of the same user is in flight', async () => {
    // One request held open: its body never ends until released.
    let release = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('fullName='));
        release = () => controller.close();
      },
    });
    const held = fetch(`${s.url}/rest/admin/user/fay`, {
      method: 'POST',
      headers: {
        authorization: basic('fay', USER_PASSWORD),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body,
      duplex: 'half',
    } as RequestInit);
    // Wait until the held request is authenticated (it is then in flight).
    await new Promise((resolve) => setTimeout(resolve, 200));
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await asFay()).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    release();
    await (await held).text();
    s.clock.now += 10_000;
    expect((await asFay()).status).toBe(200);
  });

  it('does not limit holders of IMPORT_DATA, even in parallel', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 40 }, () =>
        s.send('GET', '/rest/admin/user/mover', { authorization: basic('mover', USER_PASSWORD) }),
      ),
    );
    expect(new Set(statuses.map((r) => r.status))).toEqual(new Set([200]));
  });
});

describe('configuration', () => {
  it('is on by default (50 req/s, burst 200 on concurrent requests; 10 failures per login, 50 per IP, in 5 minutes)', () => {
    expect(limitsFromEnv(readEnv({}))).toEqual({
      requests: { perSecond: 50, burst: 200, sequential: 'free' },
      logins: { perLogin: 10, perIp: 50, windowSeconds: 300 },
      trustProxy: false,
    });
  });

  it('is tuned or switched off through the environment', () => {
    expect(
      limitsFromEnv(
        readEnv({
          TRACKLINE_RATE_LIMIT: 'off',
          TRACKLINE_LOGIN_THROTTLE: 'off',
          TRACKLINE_TRUST_PROXY: 'on',
        }),
      ),
    ).toEqual({ requests: undefined, logins: undefined, trustProxy: true });
    expect(
      limitsFromEnv(
        readEnv({
          TRACKLINE_RATE_LIMIT_PER_SECOND: '5',
          TRACKLINE_RATE_LIMIT_BURST: '10',
          TRACKLINE_RATE_LIMIT_SEQUENTIAL: 'charged',
          TRACKLINE_LOGIN_MAX_FAILURES: '3',
          TRACKLINE_LOGIN_MAX_FAILURES_PER_IP: '20',
          TRACKLINE_LOGIN_WINDOW_SECONDS: '60',
        }),
      ),
    ).toEqual({
      requests: { perSecond: 5, burst: 10, sequential: 'charged' },
      logins: { perLogin: 3, perIp: 20, windowSeconds: 60 },
      trustProxy: false,
    });
  });

  it('keeps the counters in Redis, PostgreSQL or memory: by default the first configured', () => {
    const pgUrl = 'postgres://db/trackline';
    const redisUrl = 'redis://127.0.0.1:6379';
    expect(limitsStoreFromEnv(readEnv({}))).toEqual({ kind: 'memory' });
    expect(limitsStoreFromEnv(readEnv({ DATABASE_URL: pgUrl }))).toEqual({ kind: 'postgres', url: pgUrl });
    expect(limitsStoreFromEnv(readEnv({ DATABASE_URL: pgUrl, REDIS_URL: redisUrl }))).toEqual({
      kind: 'redis',
      url: redisUrl,
    });
    expect(
      limitsStoreFromEnv(
        readEnv({ DATABASE_URL: pgUrl, REDIS_URL: redisUrl, TRACKLINE_LIMITS_STORE: 'memory' }),
      ),
    ).toEqual({ kind: 'memory' });
    expect(() => readEnv({ TRACKLINE_LIMITS_STORE: 'postgres' })).toThrow(
      /TRACKLINE_LIMITS_STORE.*DATABASE_URL/,
    );
    expect(() => readEnv({ TRACKLINE_LIMITS_STORE: 'redis' })).toThrow(/TRACKLINE_LIMITS_STORE.*REDIS_URL/);
    expect(() => readEnv({ TRACKLINE_LIMITS_STORE: 'disk' })).toThrow(/TRACKLINE_LIMITS_STORE/);
    expect(() => readEnv({ REDIS_URL: 'http://x' })).toThrow(/REDIS_URL/);
  });

  it('refuses nonsense values at start-up', () => {
    expect(() => readEnv({ TRACKLINE_RATE_LIMIT: 'maybe' })).toThrow(/TRACKLINE_RATE_LIMIT/);
    expect(() => readEnv({ TRACKLINE_RATE_LIMIT_BURST: '0' })).toThrow(/TRACKLINE_RATE_LIMIT_BURST/);
    expect(() => readEnv({ TRACKLINE_LOGIN_WINDOW_SECONDS: 'soon' })).toThrow(
      /TRACKLINE_LOGIN_WINDOW_SECONDS/,
    );
  });

  it('without limits (the benchmark setting) many requests from one user all pass', async () => {
    const s = await startLimitedServer({});
    try {
      const statuses = await Promise.all(
        Array.from({ length: 300 }, () =>
          s.send('GET', '/rest/admin/user/root', { authorization: basic('root', ROOT_PASSWORD) }),
        ),
      );
      expect(new Set(statuses.map((r) => r.status))).toEqual(new Set([200]));
    } finally {
      await s.close();
    }
  });
});
