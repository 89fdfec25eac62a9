import { grantRole, insertUser } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/auth/limits.js';
import { actorFor, basic, fork, startTestServer, type TestServer } from '../../harness.js';

/**
 * Issue 20, item 13: 16 parallel `curl -u root:…` on a fresh server gave 10 x 200 and 6 x 429
 * "Too many failed login attempts", and again once the remembered pair expired: each request
 * reserved a throttle attempt before its own scrypt. Checks of the same credential now share one
 * verification, and only a failed one counts. The users here have production-cost hashes (not
 * the kit's cheap ones), so the parallel checks really overlap.
 */
const PARALLEL = 24;
const PER_LOGIN = DEFAULT_LIMITS.logins.perLogin;
// Every request comes from 127.0.0.1: the per-IP limit is not under test.
const LOGINS = { ...DEFAULT_LIMITS.logins, perIp: 10_000 };

// Production-cost scrypt, dozens of checks per test: more time than the suite's default on a loaded machine.
describe('issue 20 item 13: parallel requests with the right password are never locked out', {
  timeout: 120_000,
}, () => {
  let server: TestServer;
  const statuses = (login: string, password: string) =>
    Promise.all(
      Array.from({ length: PARALLEL }, () =>
        server.request('GET', '/rest/user/current', { headers: { authorization: basic(login, password) } }),
      ),
    ).then((answers) => answers.map((a) => a.status));
  const all = (status: number) => Array.from({ length: PARALLEL }, () => status);

  beforeAll(async () => {
    server = await startTestServer({ handler: { limits: { logins: LOGINS } } });
    for (const login of ['fresh', 'expired', 'failing', 'form'])
      await insertUser(fork(server.orm), { login, password: `${login}-password` });
  });
  afterAll(() => server.close());

  it(`${PARALLEL} parallel Basic requests with the right password on a fresh server: all 200`, async () => {
    expect(await statuses('fresh', 'fresh-password')).toEqual(all(200));
  });

  it('again once the remembered pair expired and the epoch moved: all 200', async () => {
    expect(await statuses('expired', 'expired-password')).toEqual(all(200));
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    onTestFinished(() => void vi.useRealTimers());
    // Any grant moves the epoch: the remembered actor goes too, so the password is checked again.
    await grantRole(fork(server.orm), await actorFor(server.orm, 'root'), 'fresh', 'Observer');
    expect(await statuses('expired', 'expired-password')).toEqual(all(200));
  });

  it(`after ${PER_LOGIN - 1} failures, parallel right passwords take one attempt and restart the count`, async () => {
    // Distinct wrong passwords, all checked (fewer than the limit): in parallel, as they are many scrypts.
    const failures = (prefix: string) =>
      Promise.all(
        Array.from({ length: PER_LOGIN - 1 }, (_, i) =>
          server.request('GET', '/rest/user/current', {
            headers: { authorization: basic('failing', `${prefix}-${i}`) },
          }),
        ),
      ).then((answers) => answers.map((a) => a.status));
    const nine = Array.from({ length: PER_LOGIN - 1 }, () => 401);
    expect(await failures('wrong')).toEqual(nine);
    expect(await statuses('failing', 'failing-password')).toEqual(all(200));
    // The success restarted the login's count: as many failures again are checked (401), not refused.
    expect(await failures('again')).toEqual(nine);
  });

  it(`${PARALLEL} parallel form logins with the right password: all 200, each its own session`, async () => {
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        server.request('POST', '/rest/user/login', {
          contentType: 'application/x-www-form-urlencoded',
          body: new URLSearchParams({ login: 'form', password: 'form-password' }).toString(),
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(all(200));
    expect(new Set(answers.map((a) => a.headers.get('set-cookie'))).size).toBe(PARALLEL);
  });
});
