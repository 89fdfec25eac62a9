import { Group, RoleGrant, User } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fork,
  JSON_ACCEPT,
  startTestServer,
  type TestServer,
  userWithRole,
  xmlError,
} from '../../harness.js';

/**
 * Issue 20, item 11: the built-in accounts `guest` and `deleted_user` absorbed merges (and with
 * them the merged account's grants, lent to every anonymous caller or deleted author), and group
 * names were not normalised (`All\u00a0Users` beside `All Users`).
 */
describe('issue 20 item 11: built-in accounts absorb no merge; group names are normalised', () => {
  let server: TestServer;
  const root = (method: string, path: string) =>
    server.request(method, path, { user: 'root', accept: JSON_ACCEPT });
  const grantsOf = async (login: string) =>
    (await fork(server.orm).find(RoleGrant, { user: { loginKey: login } }, { populate: ['role'] })).map(
      (g) => g.role.name,
    );

  beforeAll(async () => {
    server = await startTestServer();
    await userWithRole(server.orm, 'dev_one', 'Developer');
    await userWithRole(server.orm, 'dev_two', 'Developer');
  });
  afterAll(() => server.close());

  for (const builtIn of ['guest', 'deleted_user', 'system_user']) {
    it(`merging an account into ${builtIn} is refused (403); both stay as they were`, async () => {
      const res = await server.request('POST', `/rest/admin/user/${builtIn}/merge/dev_one`, { user: 'root' });
      expect(res.status, res.text).toBe(403);
      expect(xmlError(res.text)).toMatch(new RegExp(`merge into the \\w+ account \\[ ${builtIn} \\]`));
      expect(await fork(server.orm).findOne(User, { loginKey: 'dev_one' })).not.toBeNull();
      expect(await grantsOf(builtIn)).toEqual([]);
    });
  }

  it('an ordinary account still absorbs a merge', async () => {
    expect(
      (await server.request('POST', '/rest/admin/user/dev_two/merge/dev_one', { user: 'root' })).status,
    ).toBe(200);
    expect(await fork(server.orm).findOne(User, { loginKey: 'dev_one' })).toBeNull();
  });

  it('All\\u00a0Users, All  Users and All\\u2003Users are the seeded All Users (409 on create, found on read)', async () => {
    for (const spelling of ['All\u00a0Users', 'All  Users', ' All\u2003Users ', 'ALL\u202fUSERS']) {
      const path = `/rest/admin/group/${encodeURIComponent(spelling)}`;
      const created = await root('PUT', path);
      expect(created.status, `${JSON.stringify(spelling)}: ${created.text}`).toBe(409);
      const read = await root('GET', path);
      expect(read.status).toBe(200);
      expect(read.json().name).toBe('All Users');
    }
    expect(await fork(server.orm).count(Group, {})).toBe(1);
  });

  it('a new name is stored normalised (NFC, one space); renaming onto a look-alike is 409', async () => {
    const decomposed = 'Cafe\u0301\u00a0Team';
    expect((await root('PUT', `/rest/admin/group/${encodeURIComponent(decomposed)}`)).status).toBe(201);
    const group = await fork(server.orm).findOneOrFail(Group, { nameKey: 'café team' });
    expect(group.name).toBe('Café Team');
    expect((await root('PUT', `/rest/admin/group/${encodeURIComponent('Café Team')}`)).status).toBe(409);
    const rename = await root(
      'POST',
      `/rest/admin/group/${encodeURIComponent('Café Team')}?newName=All%C2%A0Users`,
    );
    expect(rename.status, rename.text).toBe(409);
  });

  it('invisible formatting characters (bidi override, zero width) in a group name are 400 naming the field', async () => {
    for (const name of ['Admins\u202e', 'All\u200bUsers']) {
      const res = await root('PUT', `/rest/admin/group/${encodeURIComponent(name)}`);
      expect(res.status, res.text).toBe(400);
      expect(res.json().value).toMatch(/^group: must not contain invisible formatting characters/);
    }
    const rename = await root(
      'POST',
      `/rest/admin/group/${encodeURIComponent('Café Team')}?newName=${encodeURIComponent('x\u202ey')}`,
    );
    expect(rename.status).toBe(400);
    expect(rename.json().value).toMatch(/^newName:/);
  });
});
