import { seed, User } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fork, JSON_ACCEPT, startTestServer, type TestServer, xmlError } from '../../harness.js';

/**
 * Issue 37, item 8: `PUT /rest/import/users` accepted the built-in `deleted_user` (its row has a
 * placeholder's type, which an import turns into the user it stood for), making it an ordinary
 * account whose full name every deleted user's content then showed; deleting it answered 500
 * (the foreign keys of what it stands for). It is refused like root, guest and system_user, and
 * deleting any built-in account answers 403, never 500.
 */
describe('issue 37 item 8: the built-in accounts are neither imported over nor deleted', () => {
  let server: TestServer;
  const account = (login: string) => fork(server.orm).findOneOrFail(User, { loginKey: login });

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('PUT /rest/import/users refuses deleted_user per item, like root, guest and system_user', async () => {
    const res = await server.request('PUT', '/rest/import/users', {
      user: 'root',
      accept: JSON_ACCEPT,
      contentType: 'application/xml',
      body:
        '<list><user login="deleted_user" fullName="Mallory was here" email="m@evil.example"/>' +
        '<user login="Guest" fullName="Guest too"/><user login="fresh_one" fullName="Fresh"/></list>',
    });
    expect(res.status, res.text).toBe(200);
    const [deleted, guest, fresh] = res.json();
    for (const [item, login] of [
      [deleted, 'deleted_user'],
      [guest, 'Guest'],
    ] as const) {
      expect(item).toMatchObject({ id: login, imported: false });
      expect(item.errors).toEqual([
        {
          message: `[ ${login} ] is a built-in account and is not changed by an import`,
          fieldName: 'login',
          value: login,
        },
      ]);
    }
    expect(fresh).toMatchObject({ id: 'fresh_one', imported: true });
    expect(await account('deleted_user')).toMatchObject({
      type: 'system',
      fullName: 'Deleted user',
      email: null,
    });
  });

  for (const login of ['deleted_user', 'root', 'guest', 'system_user']) {
    it(`DELETE /rest/admin/user/${login} answers 403, in XML and JSON, and keeps the account`, async () => {
      const xml = await server.request('DELETE', `/rest/admin/user/${login}`, { user: 'root' });
      expect(xml.status, xml.text).toBe(403);
      expect(xmlError(xml.text)).toMatch(new RegExp(`remove the \\w+ account \\[ ${login} \\]`));
      const json = await server.request('DELETE', `/rest/admin/user/${login}`, {
        user: 'root',
        accept: JSON_ACCEPT,
      });
      expect(json.status, json.text).toBe(403);
      expect(await account(login)).toBeTruthy();
    });
  }

  it('a deleted_user an older version made ordinary: DELETE and merging it away are 403, the seed restores it', async () => {
    await fork(server.orm).nativeUpdate(
      User,
      { loginKey: 'deleted_user' },
      { type: 'user', fullName: 'Mallory was here', email: 'm@evil.example', emailKey: 'm@evil.example' },
    );
    const removed = await server.request('DELETE', '/rest/admin/user/deleted_user', { user: 'root' });
    expect(removed.status, removed.text).toBe(403);
    expect(xmlError(removed.text)).toBe(
      'You have no rights to remove the built-in account [ deleted_user ].',
    );
    const merged = await server.request('POST', '/rest/admin/user/root/merge/deleted_user', { user: 'root' });
    expect(merged.status, merged.text).toBe(403);
    await seed(server.orm);
    expect(await account('deleted_user')).toMatchObject({
      type: 'system',
      fullName: 'Deleted user',
      email: null,
      emailKey: null,
      passwordHash: null,
    });
  });
});
