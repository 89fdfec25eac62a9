import { addRolePermission, createRole, grantRole } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorFor, adminSnapshot, fork, startTestServer, type TestServer, xmlError } from '../harness.js';
import { createIssue, issueSnapshot, PRJ, setUpWorld } from '../issue-fixtures.js';
import { holderOf as holdersOf } from './holders.js';

/**
 * Single administrative permissions must not be stepping stones to more: nobody grants,
 * revokes, adds or removes a permission they do not hold themselves (in the scope concerned),
 * runAs never lends more than the caller holds, and root cannot be locked out.
 */

let server: TestServer;
let issueId: string;

/** A role made of exactly `permissions`, granted to a new user (globally, or in `project`). */
const holderOf = (login: string, permissions: string[], project?: string) =>
  holdersOf(server, login, permissions, project);

beforeAll(async () => {
  server = await startTestServer();
  await setUpWorld(server);
  issueId = await createIssue(server, 'escalation target');
  await holderOf('role_editor', ['UPDATE_ROLE', 'READ_ROLE']);
  await holderOf('user_editor', ['UPDATE_USER', 'READ_USER']);
  await holderOf('lla', ['LOW_LEVEL_ADMIN', 'READ_ISSUE', 'READ_PROJECT', 'UPDATE_ISSUE']);
  await holderOf('lla_global_reader', ['LOW_LEVEL_ADMIN', 'READ_ISSUE', 'READ_PROJECT']);
  await holderOf('updater', ['READ_ISSUE', 'READ_PROJECT', 'UPDATE_ISSUE'], PRJ);
  // Administers PRJ (may grant there) without holding what Developer carries.
  await holderOf('prj_manager', ['READ_PROJECT', 'UPDATE_PROJECT'], PRJ);
});
afterAll(() => server.close());

/** Sends the request as `user`, expects 403 and proves the admin data and issues did not change. */
async function expectRefused(user: string, method: string, path: string, message: RegExp) {
  const before = { admin: await adminSnapshot(server.orm), issues: await issueSnapshot(server) };
  const res = await server.request(method, path, { user });
  expect(res.status, res.text).toBe(403);
  expect(xmlError(res.text)).toMatch(message);
  expect({ admin: await adminSnapshot(server.orm), issues: await issueSnapshot(server) }).toEqual(before);
}

describe('hardening item 5: permission escalation', () => {
  it('UPDATE_ROLE alone cannot add LOW_LEVEL_ADMIN (or anything it lacks) to its own role', async () => {
    await expectRefused(
      'role_editor',
      'POST',
      '/rest/admin/role/Only_role_editor/permission/LOW_LEVEL_ADMIN',
      /^You have no rights to add permission \[ LOW_LEVEL_ADMIN \] to a role: you do not hold it globally\.$/,
    );
    await expectRefused(
      'role_editor',
      'POST',
      '/rest/admin/role/Observer/permission/UPDATE_USER',
      /UPDATE_USER/,
    );
    // ... and so cannot go on to run commands as root.
    await expectRefused(
      'role_editor',
      'POST',
      `/rest/issue/${issueId}/execute?command=Critical&runAs=root`,
      /LOW_LEVEL_ADMIN/,
    );
  });

  it('UPDATE_ROLE alone cannot strip administrators of what it does not hold', async () => {
    await expectRefused(
      'role_editor',
      'DELETE',
      '/rest/admin/role/Admin/permission/UPDATE_USER',
      /^You have no rights to remove permission \[ UPDATE_USER \] from a role: you do not hold it globally\.$/,
    );
  });

  it('a permission the caller holds globally may still be added and removed', async () => {
    let res = await server.request('POST', '/rest/admin/role/Observer/permission/READ_ROLE', {
      user: 'role_editor',
    });
    expect(res.status, res.text).toBe(200);
    res = await server.request('DELETE', '/rest/admin/role/Observer/permission/READ_ROLE', {
      user: 'role_editor',
    });
    expect(res.status, res.text).toBe(200);
  });

  it('UPDATE_USER alone cannot grant Admin (to itself or anyone), nor revoke it from root', async () => {
    await expectRefused(
      'user_editor',
      'POST',
      '/rest/admin/user/user_editor/role/Admin',
      /^You have no rights to grant or revoke role \[ Admin \] globally: it carries \w+, which you do not hold there\.$/,
    );
    await expectRefused('user_editor', 'POST', '/rest/admin/user/u_none/role/Developer', /Developer/);
    await expectRefused('user_editor', 'DELETE', '/rest/admin/user/root/role/Admin', /Admin/);
  });

  it('UPDATE_PROJECT in a project cannot grant there a role carrying more than the caller holds there', async () => {
    await expectRefused(
      'prj_manager',
      'POST',
      `/rest/admin/user/prj_manager/role/Developer?project=${PRJ}`,
      /^You have no rights to grant or revoke role \[ Developer \] in project \[ PRJ \]: it carries \w+, which you do not hold there\.$/,
    );
    // A role within what it holds there is fine.
    const root = await actorFor(server.orm, 'root');
    await createRole(fork(server.orm), root, 'Prj viewer', 'reads');
    await addRolePermission(fork(server.orm), root, 'Prj viewer', 'READ_PROJECT');
    const res = await server.request('POST', `/rest/admin/user/u_none/role/Prj%20viewer?project=${PRJ}`, {
      user: 'prj_manager',
    });
    expect(res.status, res.text).toBe(200);
  });

  it('runAs never lends more than the caller holds', async () => {
    // LOW_LEVEL_ADMIN with a few permissions: not root, who holds everything.
    await expectRefused(
      'lla',
      'POST',
      `/rest/issue/${issueId}/execute?command=Critical&runAs=root`,
      /^You have no rights to run commands as \[ root \]: they hold permissions you do not\.$/,
    );
    // Not a PRJ developer either, whose UPDATE_ISSUE in PRJ this caller lacks.
    await expectRefused(
      'lla_global_reader',
      'POST',
      `/rest/issue/${issueId}/execute?command=Critical&runAs=u_dev`,
      /run commands as \[ u_dev \]/,
    );
    // Someone whose permissions it holds too is fine.
    const res = await server.request(
      'POST',
      `/rest/issue/${issueId}/execute?command=Critical&runAs=updater`,
      {
        user: 'lla',
      },
    );
    expect(res.status, res.text).toBe(200);
  });

  it('root cannot lock itself out: without UPDATE_ROLE in any role and without grants it still administers', async () => {
    const asRoot = (method: string, path: string) => server.request(method, path, { user: 'root' });
    expect((await asRoot('DELETE', '/rest/admin/role/Admin/permission/UPDATE_ROLE')).status).toBe(200);
    expect((await asRoot('DELETE', '/rest/admin/user/root/role/Admin')).status).toBe(200);
    // Root holds every permission whatever its grants: it can put everything back.
    expect((await asRoot('POST', '/rest/admin/role/Admin/permission/UPDATE_ROLE')).status).toBe(200);
    expect((await asRoot('POST', '/rest/admin/user/root/role/Admin')).status).toBe(200);
    const snapshot = await adminSnapshot(server.orm);
    expect(snapshot.grants).toContain('root|Admin|*');
    expect(snapshot.roles.find((r) => r.startsWith('Admin|'))).toContain('UPDATE_ROLE');
  });

  it('a global grant of a role holding everything remains possible for root', async () => {
    await grantRole(fork(server.orm), await actorFor(server.orm, 'root'), 'u_none', 'Admin');
    const snapshot = await adminSnapshot(server.orm);
    expect(snapshot.grants).toContain('u_none|Admin|*');
  });
});
