import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { createScratchDatabase } from '@trackline/domain/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LimitsStore, type LimitsStoreConfig, openLimitsStore } from '../../src/auth/limit-stores.js';
import { DEFAULT_LIMITS } from '../../src/auth/limits.js';
import { basic, startTestServer, type TestServer, userWithRole } from '../harness.js';

/**
 * A failure used to be recorded only after scrypt finished, so 30 parallel wrong passwords for
 * one login were all checked (the limit is 10). An attempt is now reserved before the check,
 * on the login form and over HTTP Basic, and with a shared store (PostgreSQL, Redis) the
 * counts are shared by every server using it.
 */
const PARALLEL = 30;
const PER_LOGIN = DEFAULT_LIMITS.logins.perLogin;
// The per-IP limit is not under test here (every request comes from 127.0.0.1).
const LOGINS = { ...DEFAULT_LIMITS.logins, perIp: 10_000 };

const formLogin = (server: TestServer, login: string, password: string) =>
  server.request('POST', '/rest/user/login', {
    contentType: 'application/x-www-form-urlencoded',
    body: new URLSearchParams({ login, password }).toString(),
  });
const basicGet = (server: TestServer, login: string, password: string) =>
  server.request('GET', `/rest/admin/user/${login}`, { headers: { authorization: basic(login, password) } });

/** Status -> count; wrong passwords that were checked answer 401, refused ones 429. */
function tally(statuses: number[]) {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

const PG_URL = process.env.TRACKLINE_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432';
const REDIS_URL = process.env.TRACKLINE_TEST_REDIS_URL || 'redis://127.0.0.1:6379';

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: `${PG_URL}/postgres`, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

function redisReachable(): Promise<boolean> {
  const { hostname, port } = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379), timeout: 1000 });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

describe('hardening item 2: parallel wrong passwords are counted before they are checked', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ handler: { limits: { logins: LOGINS } } });
    await userWithRole(server.orm, 'target', 'Developer');
    await userWithRole(server.orm, 'basic_target', 'Developer');
  });
  afterAll(() => server.close());

  it(`${PARALLEL} parallel wrong passwords on the login form: ${PER_LOGIN} checked, the rest 429`, async () => {
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => formLogin(server, 'target', `wrong-${i}`)),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 401: PER_LOGIN, 429: PARALLEL - PER_LOGIN });
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    }
    // Locked: the right password is refused as well, without a check.
    expect((await formLogin(server, 'target', 'password-1')).status).toBe(429);
  });

  it(`${PARALLEL} parallel wrong passwords over HTTP Basic: ${PER_LOGIN} checked, the rest 429`, async () => {
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => basicGet(server, 'basic_target', `wrong-${i}`)),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 401: PER_LOGIN, 429: PARALLEL - PER_LOGIN });
    expect((await basicGet(server, 'basic_target', 'password-1')).status).toBe(429);
  });

  it('a success gives the reserved attempt back: the login’s count restarts', async () => {
    await userWithRole(server.orm, 'fine', 'Developer');
    for (let round = 0; round < 2; round++) {
      const failures = await Promise.all(
        Array.from({ length: PER_LOGIN - 1 }, (_, i) => formLogin(server, 'fine', `wrong-${i}`)),
      );
      expect(failures.map((f) => f.status)).toEqual(failures.map(() => 401));
      expect((await formLogin(server, 'fine', 'password-1')).status).toBe(200);
    }
  });
});

/**
 * Two servers (as two processes would) with their own connections to one shared store. Each
 * server has its own database: unknown logins count like known ones, and the user `budget` has
 * the same id in both, so the counters meet only in the store.
 */
function sharedStoreSuite(
  kind: 'postgres' | 'redis',
  reachable: boolean,
  open: () => Promise<{ config: LimitsStoreConfig; drop?: () => Promise<void> }>,
) {
  describe.skipIf(!reachable)(`hardening item 2: two servers share the ${kind} limits store`, () => {
    const stores: LimitsStore[] = [];
    const servers: TestServer[] = [];
    let drop: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      const shared = await open();
      drop = shared.drop;
      for (let i = 0; i < 2; i++) {
        const store = await openLimitsStore(shared.config);
        stores.push(store);
        // 4 requests per 8 s window for each user, shared.
        const requests = { perSecond: 0.5, burst: 4 };
        servers.push(await startTestServer({ handler: { limits: { logins: LOGINS, requests, store } } }));
      }
      // A user without IMPORT_DATA or LOW_LEVEL_ADMIN (root is not limited), created first in both
      // databases: the same user id in both.
      for (const server of servers) await userWithRole(server.orm, 'budget', 'Developer');
    });
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.close()));
      await Promise.all(stores.map((s) => s.close()));
      await drop?.();
    });

    it(`${PARALLEL} wrong passwords split over both: ${PER_LOGIN} checked in all`, async () => {
      const [a, b] = servers as [TestServer, TestServer];
      expect(stores.map((s) => s.kind)).toEqual([kind, kind]);
      const login = `nobody_${randomBytes(4).toString('hex')}`;
      const answers = await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          i % 2 === 0 ? formLogin(a, login, `wrong-${i}`) : basicGet(b, login, `wrong-${i}`),
        ),
      );
      expect(tally(answers.map((a) => a.status))).toEqual({ 401: PER_LOGIN, 429: PARALLEL - PER_LOGIN });
      // Locked on both.
      expect((await formLogin(b, login, 'x')).status).toBe(429);
      expect((await basicGet(a, login, 'x')).status).toBe(429);
    });

    it('the per-user request budget is shared too', async () => {
      const [a, b] = servers as [TestServer, TestServer];
      const statuses = [];
      for (const server of [a, b, a, b])
        statuses.push((await server.request('GET', '/rest/admin/user/budget', { user: 'budget' })).status);
      expect(statuses).toEqual([200, 200, 200, 200]);
      const over = await b.request('GET', '/rest/admin/user/budget', { user: 'budget' });
      expect(over.status).toBe(429);
      expect(over.text).toContain('Too many requests');
    });
  });
}

const [pgUp, redisUp] = await Promise.all([postgresReachable(), redisReachable()]);
sharedStoreSuite('postgres', pgUp, async () => {
  const db = await createScratchDatabase(PG_URL);
  return { config: { kind: 'postgres', url: db.url }, drop: () => db.drop() };
});
// Keys of their own: other runs (and other checkouts) may share this Redis.
sharedStoreSuite('redis', redisUp, async () => ({
  config: { kind: 'redis', url: REDIS_URL, namespace: `trackline-test-${randomBytes(6).toString('hex')}` },
}));
