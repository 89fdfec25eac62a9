import { Group, GroupMember, User } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fork, startTestServer, type TestServer, xmlError } from '../../harness.js';
import { holderOf } from '../holders.js';

/**
 * Issue 20, item 2: `UPDATE_USERGROUP` alone set `autoJoin=true` on a group holding Admin, and
 * every account created afterwards was Admin. Making a group auto-join, like adding a member,
 * now needs every permission its roles carry; so does creating an account that would join an
 * auto-join group (the creator chooses its password).
 */
describe('issue 20 item 2: auto-join cannot hand out roles the caller lacks', () => {
  let server: TestServer;
  const root = (method: string, path: string) => server.request(method, path, { user: 'root' });
  const isAutoJoin = async (name: string) =>
    (await fork(server.orm).findOneOrFail(Group, { nameKey: name })).autoJoin;
  const membersOf = async (name: string) =>
    (await fork(server.orm).find(GroupMember, { group: { nameKey: name } }, { populate: ['user'] }))
      .map((m) => m.user.login)
      .sort();

  beforeAll(async () => {
    server = await startTestServer();
    await holderOf(server, 'group_editor', ['UPDATE_USERGROUP', 'READ_USERGROUP']);
    await holderOf(server, 'user_creator', ['CREATE_USER', 'READ_USER']);
    expect((await root('PUT', '/rest/admin/group/admins')).status).toBe(201);
    expect((await root('PUT', '/rest/admin/group/admins/role/Admin')).status).toBe(200);
    expect((await root('PUT', '/rest/admin/group/plain')).status).toBe(201);
  });
  afterAll(() => server.close());

  it('UPDATE_USERGROUP alone cannot make a group holding Admin auto-join (403, unchanged)', async () => {
    const res = await server.request('POST', '/rest/admin/group/admins?autoJoin=true', {
      user: 'group_editor',
    });
    expect(res.status, res.text).toBe(403);
    expect(xmlError(res.text)).toMatch(/auto-join \[ admins \]: its role \[ Admin \] carries/);
    expect(await isAutoJoin('admins')).toBe(false);
    // Nor on creation with the flag and then a grant: granting Admin already needs Admin.
    expect((await root('PUT', '/rest/admin/user/newcomer?password=newcomer-password')).status).toBe(201);
    expect(await membersOf('admins')).toEqual([]);
  });

  it('a group whose roles the caller holds (none here) may become auto-join', async () => {
    const res = await server.request('POST', '/rest/admin/group/plain?autoJoin=true', {
      user: 'group_editor',
    });
    expect(res.status, res.text).toBe(200);
    expect(await isAutoJoin('plain')).toBe(true);
  });

  it('root may make the Admin group auto-join; then CREATE_USER alone cannot create accounts into it', async () => {
    expect((await root('POST', '/rest/admin/group/admins?autoJoin=true')).status).toBe(200);
    const refused = await server.request('PUT', '/rest/admin/user/sneaky?password=sneaky-password', {
      user: 'user_creator',
    });
    expect(refused.status, refused.text).toBe(403);
    expect(xmlError(refused.text)).toMatch(/create users: they would join auto-join group \[ admins \]/);
    expect(await fork(server.orm).findOne(User, { loginKey: 'sneaky' })).toBeNull();
    // Root holds Admin: its new accounts join as the administrator decided.
    expect((await root('PUT', '/rest/admin/user/chosen?password=chosen-password')).status).toBe(201);
    expect(await membersOf('admins')).toEqual(['chosen']);
  });
});
