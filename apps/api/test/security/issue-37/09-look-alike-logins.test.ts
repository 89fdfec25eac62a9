import { createProject, seed, User } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actorFor,
  fork,
  JSON_ACCEPT,
  startTestServer,
  type TestServer,
  userWithRole,
} from '../../harness.js';

/**
 * Issue 37, item 9: the import accepted `ɾoot` (U+027E, Latin only, NFKC-stable) and an
 * all-Cyrillic `гоот` beside `root`; neither mixes scripts, so the imported-login rule let them
 * through. A login whose look-alike skeleton (Unicode TR39's confusables, case-insensitive) equals
 * another account's is now refused, by the user import, the logins an issue import references and
 * account creation alike.
 */
describe('issue 37 item 9: a login that looks like another account’s is refused', () => {
  let server: TestServer;
  const exists = async (login: string) =>
    (await fork(server.orm).findOne(User, { loginKey: login })) !== null;
  const importUsers = (body: string) =>
    server.request('PUT', '/rest/import/users', {
      user: 'root',
      accept: JSON_ACCEPT,
      contentType: 'application/xml',
      body,
    });

  beforeAll(async () => {
    server = await startTestServer();
    await createProject(fork(server.orm), await actorFor(server.orm, 'root'), {
      shortName: 'LA',
      name: 'Look-alikes',
    });
    await userWithRole(server.orm, 'mary');
  });
  afterAll(() => server.close());

  it('PUT /rest/import/users refuses ɾoot and гоот beside root, per user; others are imported', async () => {
    const res = await importUsers(
      '<list><user login="ɾoot"/><user login="гоот"/><user login="Gоот"/><user login="plain_new"/></list>',
    );
    expect(res.status, res.text).toBe(200);
    const items = res.json() as { id: string; imported: boolean; errors?: unknown[] }[];
    expect(items.map((i) => [i.id, i.imported])).toEqual([
      ['ɾoot', false],
      ['гоот', false],
      ['Gоот', false],
      ['plain_new', true],
    ]);
    expect(items[0]?.errors).toEqual([
      {
        message: 'login looks like the existing login [ root ] (Unicode confusables)',
        fieldName: 'login',
        value: 'ɾoot',
      },
    ]);
    for (const login of ['ɾoot', 'гоот']) expect(await exists(login)).toBe(false);
  });

  it('two new logins alike in one request: the second is refused', async () => {
    const res = await importUsers('<list><user login="Петр"/><user login="nетр"/></list>');
    expect((res.json() as { imported: boolean }[]).map((i) => i.imported)).toEqual([true, false]);
  });

  it('an issue import naming a look-alike reporter refuses that issue and creates no placeholder', async () => {
    const issue = (number: number, reporter: string) =>
      `<issue><field name="numberInProject"><value>${number}</value></field><field name="summary"><value>s</value></field>` +
      `<field name="created"><value>1400000000000</value></field><field name="reporterName"><value>${reporter}</value></field></issue>`;
    const res = await server.request('PUT', '/rest/import/LA/issues', {
      user: 'root',
      accept: JSON_ACCEPT,
      contentType: 'application/xml',
      body: `<issues>${issue(1, 'ɾoot')}${issue(2, 'someone_new')}</issues>`,
    });
    expect(res.status, res.text).toBe(200);
    const items = res.json() as { id: string; imported: boolean; errors?: { message: string }[] }[];
    expect(items.map((i) => [i.id, i.imported])).toEqual([
      ['1', false],
      ['2', true],
    ]);
    expect(items[0]?.errors?.[0]?.message).toBe(
      'login [ ɾoot ] looks like the existing login [ root ] (Unicode confusables)',
    );
    expect(await exists('ɾoot')).toBe(false);
    expect(await exists('someone_new')).toBe(true);
  });

  it('creating an account: rnary beside mary is 409 (TR39 draws m as rn); a distinct login is created', async () => {
    const res = await server.request(
      'PUT',
      '/rest/admin/user/rnary?fullName=R&password=Passw0rd-long-enough',
      {
        user: 'root',
        accept: JSON_ACCEPT,
      },
    );
    expect(res.status, res.text).toBe(409);
    expect(res.json().value).toBe(
      'User [ rnary ] looks like the existing login [ mary ] (Unicode confusables).',
    );
    expect(await exists('rnary')).toBe(false);
    const ok = await server.request(
      'PUT',
      '/rest/admin/user/marta?fullName=M&password=Passw0rd-long-enough',
      {
        user: 'root',
        accept: JSON_ACCEPT,
      },
    );
    expect(ok.status, ok.text).toBe(201);
  });

  it('users stored before skeletons were recorded get theirs at the next start (the seed)', async () => {
    await fork(server.orm).nativeUpdate(User, { loginKey: 'mary' }, { loginSkeleton: null });
    await seed(server.orm);
    const mary = await fork(server.orm).findOneOrFail(User, { loginKey: 'mary' });
    expect(mary.loginSkeleton).toMatch(/^[0-9a-f]{64}$/);
    const again = await importUsers('<list><user login="rnary"/></list>');
    expect((again.json() as { imported: boolean }[])[0]?.imported).toBe(false);
  });
});
