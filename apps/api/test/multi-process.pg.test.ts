import { readdirSync } from 'node:fs';
import {
  addFieldValue,
  createOrm,
  createPermanentToken,
  createProject,
  insertUser,
  migrate,
  migrationsDir,
  type Orm,
  seed,
} from '@trackline/domain';
import { createScratchDatabase, type ScratchDatabase } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiProcess, startApi as startProcess, stopApi } from './api-process.js';
import { actorFor, basic, fork, TEST_DIALECT, TEST_PG_URL } from './harness.js';

/**
 * Two real API processes (`dist/main.js`) on one PostgreSQL database, as in a scaled-out
 * deployment: concurrent admin writes and command executions split across both must keep
 * names unique, lose nothing, and apply each idempotent command once. PostgreSQL only
 * (`TRACKLINE_TEST_DB=postgres`): SQLite is one process's embedded file.
 */

const PASSWORD = 'multi-process-password';
const AUTH = { authorization: basic('root', PASSWORD) };
/** Hundreds of requests from one user in a second: this is about the database, not limits. */
const startApi = (databaseUrl: string) =>
  startProcess(databaseUrl, { ADMIN_PASSWORD: PASSWORD, TRACKLINE_RATE_LIMIT: 'off' });

async function call(api: ApiProcess, method: string, path: string) {
  const res = await fetch(`${api.url}${path}`, { method, headers: { ...AUTH, accept: 'application/json' } });
  return { status: res.status, text: await res.text(), location: res.headers.get('location') };
}

/** Sends `paths[i]` to process `i % 2`, all at once. */
const acrossBoth = (apis: ApiProcess[], method: string, paths: string[]) =>
  Promise.all(paths.map((path, i) => call(apis[i % apis.length] as ApiProcess, method, path)));

const statusesOf = (responses: { status: number }[]) => responses.map((r) => r.status);

async function rows<T>(orm: Orm, sql: string, params: unknown[] = []): Promise<T[]> {
  return fork(orm).getConnection().execute<T[]>(sql, params);
}

describe.skipIf(TEST_DIALECT !== 'postgresql')('two API processes on one PostgreSQL database', () => {
  describe('starting together on an empty database', () => {
    let db: ScratchDatabase;
    const apis: ApiProcess[] = [];
    beforeAll(async () => {
      db = await createScratchDatabase(TEST_PG_URL);
    });
    afterAll(async () => {
      await Promise.all(apis.map(stopApi));
      await db?.drop();
    });

    it('one migrates and seeds (advisory locks), the other waits; both serve', async () => {
      const started = await Promise.allSettled([startApi(db.url), startApi(db.url)]);
      for (const s of started) if (s.status === 'fulfilled') apis.push(s.value);
      expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'ok'))).toEqual(['ok', 'ok']);

      const outputs = apis.map((api) => api.output());
      expect(outputs.filter((o) => o.includes('applied migrations'))).toHaveLength(1);
      for (const output of outputs) {
        expect(output).not.toMatch(/error|exception|generated password/i);
      }
      for (const api of apis) expect((await call(api, 'GET', '/rest/admin/role')).status).toBe(200);

      const orm = await createOrm({ kind: 'postgresql', url: db.url, poolSize: 1 });
      try {
        const files = readdirSync(migrationsDir('postgresql')).filter((f) => f.endsWith('.sql'));
        expect(await rows(orm, 'select name from trackline_migrations order by name')).toEqual(
          files.sort().map((name) => ({ name })),
        );
        expect(await rows(orm, "select login from users where login_key = 'root'")).toEqual([
          { login: 'root' },
        ]);
        const roles = await rows<{ n: unknown }>(orm, 'select count(*) as n from roles group by name_key');
        expect(roles.length).toBeGreaterThan(0);
        expect(roles.every((r) => Number(r.n) === 1)).toBe(true);
      } finally {
        await orm.close(true);
      }
    });
  });

  describe('concurrent writes split across both', () => {
    let db: ScratchDatabase;
    let orm: Orm;
    const apis: ApiProcess[] = [];

    beforeAll(async () => {
      db = await createScratchDatabase(TEST_PG_URL);
      orm = await createOrm({ kind: 'postgresql', url: db.url, poolSize: 2 });
      await migrate(orm);
      await seed(orm, { adminPassword: PASSWORD });
      apis.push(...(await Promise.all([startApi(db.url), startApi(db.url)])));
    });
    afterAll(async () => {
      await Promise.all(apis.map(stopApi));
      await orm?.close(true);
      await db?.drop();
    });

    it('a change made through one process is visible at once through the other (no response cache)', async () => {
      const [a, b] = apis as [ApiProcess, ApiProcess];
      const created = await fetch(`${a.url}/rest/admin/role/Shared?description=before`, {
        method: 'PUT',
        headers: AUTH,
      });
      expect(created.status).toBe(201);
      const read = async (api: ApiProcess) => {
        const res = await fetch(`${api.url}/rest/admin/role/Shared`, {
          headers: { ...AUTH, accept: 'application/json' },
        });
        return (await res.json()).description as string;
      };
      expect(await read(a)).toBe('before');
      const updated = await fetch(`${b.url}/rest/admin/role/Shared?description=after`, {
        method: 'POST',
        headers: AUTH,
      });
      expect(updated.status).toBe(200);
      expect(await read(a)).toBe('after');
    });

    it('20 creates of one project name: exactly one 201, the rest 409, one row', async () => {
      const responses = await acrossBoth(
        apis,
        'PUT',
        Array.from({ length: 20 }, () => '/rest/admin/project/SAME?projectName=Same'),
      );
      const statuses = statusesOf(responses);
      expect(
        statuses.filter((s) => s === 201),
        statuses.join(','),
      ).toHaveLength(1);
      expect(
        statuses.filter((s) => s === 409),
        statuses.join(','),
      ).toHaveLength(19);
      expect(await rows(orm, "select short_name from projects where short_name_key = 'SAME'")).toEqual([
        { short_name: 'SAME' },
      ]);
    });

    it('50 distinct projects and 50 distinct roles at once: all created, all present', async () => {
      const names = Array.from({ length: 50 }, (_, i) => `M${i}`);
      const responses = await Promise.all([
        acrossBoth(
          apis,
          'PUT',
          names.map((n) => `/rest/admin/project/${n}?projectName=Many%20${n}`),
        ),
        acrossBoth(
          apis,
          'PUT',
          names.map((n) => `/rest/admin/role/Role${n}`),
        ),
      ]);
      for (const batch of responses) {
        expect(statusesOf(batch), batch.map((r) => r.text).join('\n')).toEqual(names.map(() => 201));
      }
      const projects = await rows<{ short_name: string }>(
        orm,
        "select short_name from projects where short_name like 'M%' order by short_name",
      );
      expect(projects.map((p) => p.short_name)).toEqual([...names].sort());
      const roles = await rows<{ name: string }>(
        orm,
        "select name from roles where name like 'RoleM%' order by name",
      );
      expect(roles.map((r) => r.name)).toEqual(names.map((n) => `Role${n}`).sort());
      // Each process sees every project the other created.
      for (const api of apis) {
        const listed = JSON.parse((await call(api, 'GET', '/rest/admin/project')).text) as { id: string }[];
        expect(listed.filter((p) => /^M\d+$/.test(p.id))).toHaveLength(50);
      }
    });

    it('40 issues created at once in one project: 40 distinct numbers, no gaps', async () => {
      expect(
        (
          await call(
            apis[0] as ApiProcess,
            'PUT',
            '/rest/admin/project/NUM?projectName=Numbered&startingNumber=5',
          )
        ).status,
      ).toBe(201);
      const responses = await acrossBoth(
        apis,
        'PUT',
        Array.from({ length: 40 }, (_, i) => `/rest/issue?project=NUM&summary=Issue%20${i}`),
      );
      expect(statusesOf(responses), responses.map((r) => r.text).join('\n')).toEqual(
        responses.map(() => 201),
      );
      const ids = responses.map((r) => decodeURIComponent(r.location?.split('/').pop() ?? ''));
      expect(new Set(ids).size).toBe(40);
      const numbers = await rows<{ number_in_project: unknown; summary: string }>(
        orm,
        "select i.number_in_project, i.summary from issues i join projects p on p.id = i.project_id where p.short_name_key = 'NUM' order by i.number_in_project",
      );
      expect(numbers.map((r) => Number(r.number_in_project))).toEqual(
        Array.from({ length: 40 }, (_, i) => i + 5),
      );
      expect(new Set(numbers.map((r) => r.summary)).size).toBe(40);
      expect([...ids].sort()).toEqual(numbers.map((r) => `NUM-${Number(r.number_in_project)}`).sort());
    });

    it('the same idempotent commands and comments sent to both at once: each applied once', async () => {
      expect(
        (await call(apis[0] as ApiProcess, 'PUT', '/rest/admin/project/CMD?projectName=Commands')).status,
      ).toBe(201);
      await addFieldValue(fork(orm), await actorFor(orm, 'root'), 'CMD', 'Fix versions', { name: '1.0' });
      const created = await call(apis[1] as ApiProcess, 'PUT', '/rest/issue?project=CMD&summary=Target');
      expect(created.status).toBe(201);
      const id = 'CMD-1';
      const execute = (params: Record<string, string>) =>
        `/rest/issue/${id}/execute?${new URLSearchParams(params).toString()}`;
      const EACH = 10;
      const paths = [
        ...Array.from({ length: EACH }, () => execute({ command: 'tag x' })),
        ...Array.from({ length: EACH }, () => execute({ command: 'vote' })),
        ...Array.from({ length: EACH }, () => execute({ command: 'star' })),
        ...Array.from({ length: EACH }, () => execute({ command: 'add Fix versions 1.0' })),
        ...Array.from({ length: EACH }, () => execute({ command: 'Priority Major tag x' })),
        ...Array.from({ length: EACH }, (_, i) => execute({ comment: `comment ${i}` })),
      ];
      const responses = await acrossBoth(apis, 'POST', paths);
      expect(
        responses.filter((r) => r.status !== 200).map((r) => `${r.status} ${r.text}`),
        'every command succeeds',
      ).toEqual([]);

      const issue = `(select i.id from issues i join projects p on p.id = i.project_id where p.short_name_key = 'CMD' and i.number_in_project = 1)`;
      const count = async (sql: string) => Number((await rows<{ n: unknown }>(orm, sql))[0]?.n);
      expect(await count("select count(*) as n from tags where name_key = 'x'")).toBe(1);
      // Tag x once, and the starring user's own Star tag once (a star is that tag).
      const tagged = (name: string) =>
        count(
          `select count(*) as n from issue_tags it join tags t on t.id = it.tag_id where it.issue_id = ${issue} and t.name_key = '${name}'`,
        );
      expect(await tagged('x')).toBe(1);
      expect(await tagged('star')).toBe(1);
      expect(await count(`select count(*) as n from issue_tags where issue_id = ${issue}`)).toBe(2);
      expect(await count(`select count(*) as n from issue_votes where issue_id = ${issue}`)).toBe(1);
      expect(await count(`select count(*) as n from issue_stars where issue_id = ${issue}`)).toBe(1);
      const comments = await rows<{ text: string }>(
        orm,
        `select text from issue_comments where issue_id = ${issue} order by text`,
      );
      expect(comments.map((c) => c.text)).toEqual(
        Array.from({ length: EACH }, (_, i) => `comment ${i}`).sort(),
      );

      // Both processes read the same final issue.
      const views = await Promise.all(
        apis.map(async (api) => JSON.parse((await call(api, 'GET', `/rest/issue/${id}`)).text)),
      );
      for (const view of views) {
        const field = (name: string) => view.field.find((f: { name: string }) => f.name === name)?.value;
        expect(field('Fix versions')).toEqual(['1.0']);
        expect(field('Priority')).toEqual(['Major']);
        expect(field('votes')).toBe('1');
        expect(view.tag.map((t: { value: string }) => t.value)).toEqual(['Star', 'x']);
        expect(view.comment).toHaveLength(EACH);
      }
      expect(views[0]).toEqual(views[1]);
    });

    it('a token revoked or a grant changed through one process (or plain SQL) counts at once in the other', async () => {
      const [a, b] = apis as [ApiProcess, ApiProcess];
      const root = await actorFor(orm, 'root');
      await createProject(fork(orm), root, { shortName: 'EPO', name: 'Epochs' });
      await insertUser(fork(orm), { login: 'epo', email: 'epo@example.com' });
      const { token } = await createPermanentToken(fork(orm), await actorFor(orm, 'epo'), 'epo');
      const issue = await call(b, 'PUT', '/rest/issue?project=EPO&summary=Guarded');
      expect(issue.status).toBe(201);
      const read = async (api: ApiProcess) =>
        (await fetch(`${api.url}/rest/issue/EPO-1`, { headers: { authorization: `Bearer ${token}` } }))
          .status;
      // Remembered by process a (each read resolves the token and reads the epochs again).
      expect([await read(a), await read(a)]).toEqual([404, 404]);
      expect((await call(b, 'POST', '/rest/admin/user/epo/role/Observer?project=EPO')).status).toBeLessThan(
        300,
      );
      expect(await Promise.all([read(a), read(a), read(a)])).toEqual([200, 200, 200]);
      await rows(orm, "delete from permanent_tokens where name = 'epo'");
      expect(await Promise.all([read(a), read(b)])).toEqual([401, 401]);
    });

    it('neither process logged an error', () => {
      for (const api of apis) expect(api.output()).not.toMatch(/error|exception/i);
    });
  });
});
