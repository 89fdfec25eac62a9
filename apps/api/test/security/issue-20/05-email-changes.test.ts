import { User } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fork,
  JSON_ACCEPT,
  startTestServer,
  type TestServer,
  userWithRole,
  xmlError,
} from '../../harness.js';
import { holderOf } from '../holders.js';

/**
 * Issue 20, item 5: `UPDATE_USER` alone changed any account's e-mail, root's included, and
 * `PUT /rest/import/users` did the same with `IMPORT_DATA`; the VCS committer match trusts
 * e-mails, so a push could then run commands as that account. Changing another account's
 * e-mail now needs everything that account holds (as delete and merge do), on both routes.
 */
describe('issue 20 item 5: another account’s e-mail is changed only by who covers it', () => {
  let server: TestServer;
  const user = async (login: string) => fork(server.orm).findOneOrFail(User, { loginKey: login });
  const importUsers = (as: string, body: string) =>
    server.request('PUT', '/rest/import/users', {
      user: as,
      accept: JSON_ACCEPT,
      body,
      contentType: 'application/xml',
    });

  beforeAll(async () => {
    server = await startTestServer();
    await holderOf(server, 'user_editor', ['UPDATE_USER', 'READ_USER']);
    await holderOf(server, 'importer', ['IMPORT_DATA']);
    await holderOf(server, 'low_level', ['LOW_LEVEL_ADMIN', 'READ_USER']);
    await userWithRole(server.orm, 'plain');
    await userWithRole(server.orm, 'developer', 'Developer');
    await userWithRole(server.orm, 'admin_person', 'Admin');
    const own = await server.request('POST', '/rest/admin/user/root?email=root@corp.example', {
      user: 'root',
    });
    expect(own.status, own.text).toBe(200);
  });
  afterAll(() => server.close());

  it('UPDATE_USER alone cannot change root’s (or a Developer’s) e-mail: 403, unchanged', async () => {
    for (const login of ['root', 'developer']) {
      const before = (await user(login)).email;
      const res = await server.request('POST', `/rest/admin/user/${login}?email=attacker@evil.example`, {
        user: 'user_editor',
      });
      expect(res.status, res.text).toBe(403);
      expect(xmlError(res.text)).toBe(
        `You have no rights to change the e-mail of user [ ${login} ]: they hold permissions you do not.`,
      );
      expect((await user(login)).email).toBe(before);
    }
  });

  it('the e-mail of an account it covers, and its own, are changed; the setter is recorded', async () => {
    const editor = await user('user_editor');
    const res = await server.request('POST', '/rest/admin/user/plain?email=plain@new.example', {
      user: 'user_editor',
    });
    expect(res.status, res.text).toBe(200);
    expect(await user('plain')).toMatchObject({ email: 'plain@new.example', emailSetBy: editor.id });
    const own = await server.request('POST', '/rest/admin/user/user_editor?email=me@new.example', {
      user: 'user_editor',
    });
    expect(own.status).toBe(200);
    expect(await user('user_editor')).toMatchObject({ email: 'me@new.example', emailSetBy: null });
    // The owner setting the same e-mail again makes it theirs.
    expect(
      (await server.request('POST', '/rest/admin/user/plain?email=plain@new.example', { user: 'plain' }))
        .status,
    ).toBe(200);
    expect((await user('plain')).emailSetBy).toBeNull();
  });

  it('PUT /rest/import/users with IMPORT_DATA alone: an administrator’s e-mail is refused per item, unchanged', async () => {
    const res = await importUsers(
      'importer',
      '<list><user login="admin_person" fullName="Admin" email="attacker@evil.example"/><user login="fresh" email="fresh@corp.example"/></list>',
    );
    expect(res.status, res.text).toBe(200);
    const [adminItem, freshItem] = res.json();
    expect(adminItem).toMatchObject({ id: 'admin_person', imported: false });
    expect(adminItem.errors).toEqual([
      {
        message: 'the e-mail of [ admin_person ] is changed only by who holds every permission it holds',
        fieldName: 'email',
        value: 'attacker@evil.example',
      },
    ]);
    expect(freshItem).toMatchObject({ id: 'fresh', imported: true });
    expect((await user('admin_person')).email).toBe('admin_person@example.com');
    expect(await user('fresh')).toMatchObject({
      email: 'fresh@corp.example',
      emailSetBy: (await user('importer')).id,
    });
  });

  it('the import still updates an account it covers, and an unchanged e-mail is no change', async () => {
    const res = await importUsers(
      'importer',
      '<list><user login="plain" email="plain@import.example"/><user login="admin_person" email="admin_person@example.com"/></list>',
    );
    expect(res.json().map((i: { imported: boolean }) => i.imported)).toEqual([true, true]);
    expect((await user('plain')).email).toBe('plain@import.example');
  });

  it('likewise another account’s password: LOW_LEVEL_ADMIN alone cannot take over root (403, unchanged)', async () => {
    const setPassword = (login: string) =>
      server.request('POST', `/rest/admin/user/${login}/password`, {
        user: 'low_level',
        contentType: 'application/x-www-form-urlencoded',
        body: new URLSearchParams({ newPassword: 'taken-over-123' }).toString(),
      });
    const before = (await user('root')).passwordHash;
    const refused = await setPassword('root');
    expect(refused.status, refused.text).toBe(403);
    expect(xmlError(refused.text)).toBe(
      'You have no rights to set the password of user [ root ]: they hold permissions you do not.',
    );
    expect((await user('root')).passwordHash).toBe(before);
    expect((await setPassword('plain')).status).toBe(200);
  });
});
