import { createOrm, grantRole, insertUser, migrate, type Orm, seed } from '@trackline/domain';
import { createScratchDatabase, type ScratchDatabase } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiProcess, startApi, stopApi } from '../../api-process.js';
import { actorFor, basic, fork, TEST_DIALECT, TEST_PG_URL } from '../../harness.js';

/**
 * Issue 20, item 4: on PostgreSQL the epoch triggers were `after delete` only, and TRUNCATE fires
 * no delete trigger: truncated sessions, tokens and grants kept working in every process that had
 * remembered them, until something unrelated moved the epoch. Two real API processes remember a
 * session, a token and a Basic pair's grants; each TRUNCATE must end them in both at once.
 */
const PASSWORD = 'truncate-root-password';
const DEV_PASSWORD = 'truncate-dev-password';

describe.skipIf(TEST_DIALECT !== 'postgresql')(
  'issue 20 item 4: TRUNCATE moves the authorisation epoch',
  () => {
    let db: ScratchDatabase;
    let orm: Orm;
    const apis: ApiProcess[] = [];
    let cookie = '';
    let token = '';

    const get = (api: ApiProcess, path: string, authorization: Record<string, string>) =>
      fetch(`${api.url}${path}`, { headers: { ...authorization, accept: 'application/json' } }).then(
        async (r) => {
          await r.text();
          return r.status;
        },
      );
    /** `path` read with `credentials` through both processes. */
    const both = (path: string, credentials: Record<string, string>) =>
      Promise.all(apis.map((api) => get(api, path, credentials)));
    const truncate = (table: string) =>
      fork(orm).getConnection().execute(`truncate table ${table}`, [], 'run');

    beforeAll(async () => {
      db = await createScratchDatabase(TEST_PG_URL);
      orm = await createOrm({ kind: 'postgresql', url: db.url, poolSize: 2 });
      await migrate(orm);
      await seed(orm, { adminPassword: PASSWORD });
      await insertUser(fork(orm), { login: 'dev', password: DEV_PASSWORD });
      await grantRole(fork(orm), await actorFor(orm, 'root'), 'dev', 'Developer');
      apis.push(
        ...(await Promise.all([
          startApi(db.url, { ADMIN_PASSWORD: PASSWORD, TRACKLINE_RATE_LIMIT: 'off' }),
          startApi(db.url, { ADMIN_PASSWORD: PASSWORD, TRACKLINE_RATE_LIMIT: 'off' }),
        ])),
      );
      const [a] = apis as [ApiProcess];
      const login = await fetch(`${a.url}/rest/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ login: 'dev', password: DEV_PASSWORD }).toString(),
      });
      expect(login.status).toBe(200);
      cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
      const created = await fetch(`${a.url}/rest/user/token/truncate`, {
        method: 'PUT',
        headers: { authorization: basic('dev', DEV_PASSWORD), accept: 'application/json' },
      });
      expect(created.status).toBe(201);
      token = (await created.json()).token;
    }, 90_000);
    afterAll(async () => {
      await Promise.all(apis.map(stopApi));
      await orm?.close(true);
      await db?.drop();
    });

    it('TRUNCATE role_grants: a remembered Basic pair loses its grants in both processes (403)', async () => {
      // READ_USER comes from the Developer grant; each process remembers the pair and its actor.
      const credentials = { authorization: basic('dev', DEV_PASSWORD) };
      expect(await both('/rest/admin/user/root', credentials)).toEqual([200, 200]);
      expect(await both('/rest/admin/user/root', credentials)).toEqual([200, 200]);
      await truncate('role_grants');
      expect(await both('/rest/admin/user/root', credentials)).toEqual([403, 403]);
    });

    it('TRUNCATE sessions: a remembered session ends in both processes (401)', async () => {
      expect(await both('/rest/user/current', { cookie })).toEqual([200, 200]);
      expect(await both('/rest/user/current', { cookie })).toEqual([200, 200]);
      await truncate('sessions');
      expect(await both('/rest/user/current', { cookie })).toEqual([401, 401]);
    });

    it('TRUNCATE permanent_tokens: a remembered token ends in both processes (401)', async () => {
      const bearer = { authorization: `Bearer ${token}` };
      expect(await both('/rest/user/current', bearer)).toEqual([200, 200]);
      expect(await both('/rest/user/current', bearer)).toEqual([200, 200]);
      await truncate('permanent_tokens');
      expect(await both('/rest/user/current', bearer)).toEqual([401, 401]);
    });
  },
);
