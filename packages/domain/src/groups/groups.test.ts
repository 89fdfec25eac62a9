import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, can, inGroup } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import { createIssue } from '../issues/create-issue.js';
import { getIssue } from '../issues/get-issue.js';
import { searchIssues } from '../issues/search/search-issues.js';
import type { Orm } from '../orm/open-orm.js';
import { createProject } from '../projects/projects.js';
import { addRolePermission, createRole } from '../roles/roles.js';
import { grantRole, insertUser } from '../users/users.js';
import {
  addUserToGroup,
  createGroup,
  deleteGroup,
  grantGroupRole,
  listGroupRoles,
  listUserGroups,
  removeUserFromGroup,
  revokeGroupRole,
  updateGroup,
} from './groups.js';

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (error instanceof DomainError ? error.code : String(error)),
  );

describe('groups: roles granted to a group hold for its members', () => {
  let orm: Orm;
  let root: Actor;
  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'GA', name: 'Group A' });
    await createProject(fork(orm), root, { shortName: 'GB', name: 'Group B' });
    await createGroup(fork(orm), root, 'devs-a', { description: 'developers of A' });
    await grantGroupRole(fork(orm), root, 'devs-a', 'Developer', ['GA']);
    await createGroup(fork(orm), root, 'readers');
    await grantGroupRole(fork(orm), root, 'readers', 'Observer');
    await createGroup(fork(orm), root, 'empty');
    for (const login of ['g_own', 'g_member', 'g_both', 'g_two', 'g_emptyonly', 'g_none']) {
      await insertUser(fork(orm), { login });
    }
    await grantRole(fork(orm), root, 'g_own', 'Developer', 'GA');
    await addUserToGroup(fork(orm), root, 'g_member', 'devs-a');
    await grantRole(fork(orm), root, 'g_both', 'Observer', 'GB');
    await addUserToGroup(fork(orm), root, 'g_both', 'devs-a');
    await addUserToGroup(fork(orm), root, 'g_two', 'devs-a');
    await addUserToGroup(fork(orm), root, 'g_two', 'readers');
    await addUserToGroup(fork(orm), root, 'g_emptyonly', 'empty');
  });
  afterAll(() => orm.close(true));

  /** What loadActor gives each user: `can` without a project, in GA, in GB (written by hand). */
  const T = true;
  const F = false;
  // biome-ignore format: one row per user and permission, aligned for reading
  const TABLE: [login: string, permission: 'READ_ISSUE' | 'UPDATE_ISSUE', answers: [boolean, boolean, boolean]][] = [
    ['g_own',       'READ_ISSUE',   [F, T, F]],
    ['g_own',       'UPDATE_ISSUE', [F, T, F]],
    ['g_member',    'READ_ISSUE',   [F, T, F]],
    ['g_member',    'UPDATE_ISSUE', [F, T, F]],
    ['g_both',      'READ_ISSUE',   [F, T, T]],
    ['g_both',      'UPDATE_ISSUE', [F, T, F]],
    ['g_two',       'READ_ISSUE',   [T, T, T]],
    ['g_two',       'UPDATE_ISSUE', [F, T, F]],
    ['g_emptyonly', 'READ_ISSUE',   [F, F, F]],
    ['g_none',      'READ_ISSUE',   [F, F, F]],
  ];
  for (const [login, permission, answers] of TABLE) {
    it(`loadActor: ${login} / ${permission}: ${answers.map((a) => (a ? 'T' : 'F')).join(' ')}`, async () => {
      const actor = await actorFor(orm, login);
      const [ga, gb] = await Promise.all(
        ['GA', 'GB'].map((s) =>
          fork(orm).getConnection().execute(`select id from projects where short_name = '${s}'`),
        ),
      );
      const ids = [undefined, Number(ga?.[0]?.id), Number(gb?.[0]?.id)];
      expect(ids.map((id) => can(actor, permission, id))).toEqual(answers);
    });
  }

  it('the actor knows its groups, even one without roles', async () => {
    const emptyOnly = await actorFor(orm, 'g_emptyonly');
    // Every user is in the seeded auto-join group All Users.
    expect(emptyOnly.groups?.size).toBe(2);
    const none = await actorFor(orm, 'g_none');
    expect(none.groups?.size).toBe(1);
    const groups = await listUserGroups(fork(orm), root, 'g_emptyonly');
    expect(groups.map((g) => g.name)).toEqual(['All Users', 'empty']);
    expect(groups.every((g) => inGroup(emptyOnly, g.id))).toBe(true);
  });

  it('a use case sees the group role: a member reads and creates issues, and loses them on leaving', async () => {
    await insertUser(fork(orm), { login: 'g_leaver' });
    await addUserToGroup(fork(orm), root, 'g_leaver', 'devs-a');
    const member = await actorFor(orm, 'g_leaver');
    const issue = await createIssue(fork(orm), member, { project: 'GA', summary: 'by a group member' });
    expect(await codeOf(getIssue(fork(orm), member, issue.id))).toBe('ok');
    await removeUserFromGroup(fork(orm), root, 'g_leaver', 'devs-a');
    const left = await actorFor(orm, 'g_leaver');
    expect(await codeOf(getIssue(fork(orm), left, issue.id))).toBe('NOT_FOUND');
  });

  it('granting a group a role needs what the role carries, like granting a user', async () => {
    // A project admin of GA may grant Developer there, but not Admin; not globally either.
    const padmin = await userWithRole(orm, 'g_padmin', 'Project Admin', 'GA');
    const granter = { ...padmin, global: new Set([...padmin.global, 'UPDATE_USERGROUP' as const]) };
    expect(await codeOf(grantGroupRole(fork(orm), padmin, 'empty', 'Developer', ['GA']))).toBe('ok');
    expect(await codeOf(grantGroupRole(fork(orm), padmin, 'empty', 'Admin', ['GA']))).toBe(
      'PERMISSION_DENIED',
    );
    expect(await codeOf(grantGroupRole(fork(orm), padmin, 'empty', 'Developer'))).toBe('PERMISSION_DENIED');
    expect(await codeOf(grantGroupRole(fork(orm), granter, 'empty', 'Developer'))).toBe('PERMISSION_DENIED');
    expect(await codeOf(grantGroupRole(fork(orm), padmin, 'empty', 'Developer', ['GB']))).toBe('NOT_FOUND');
    expect(await listGroupRoles(fork(orm), root, 'empty')).toEqual([{ role: 'Developer', projects: ['GA'] }]);
    await revokeGroupRole(fork(orm), root, 'empty', 'Developer');
    expect(await listGroupRoles(fork(orm), root, 'empty')).toEqual([]);
  });

  it('joining a group is a grant of its roles: UPDATE_USERGROUP alone cannot join anyone to an admin group', async () => {
    await createGroup(fork(orm), root, 'admins');
    await grantGroupRole(fork(orm), root, 'admins', 'Admin');
    await createRole(fork(orm), root, 'GroupKeeper');
    await addRolePermission(fork(orm), root, 'GroupKeeper', 'UPDATE_USERGROUP');
    const keeper = await userWithRole(orm, 'g_keeper', 'GroupKeeper');
    expect(await codeOf(addUserToGroup(fork(orm), keeper, 'g_keeper', 'admins'))).toBe('PERMISSION_DENIED');
    expect(await codeOf(addUserToGroup(fork(orm), keeper, 'g_keeper', 'empty'))).toBe('ok');
    expect(await codeOf(deleteGroup(fork(orm), root, 'admins'))).toBe('ok');
  });

  it('names are unique regardless of case; unknown users and groups are NOT_FOUND; adding twice is fine', async () => {
    expect(await codeOf(createGroup(fork(orm), root, 'DEVS-A'))).toBe('ALREADY_EXISTS');
    expect(await codeOf(updateGroup(fork(orm), root, 'readers', { newName: 'Devs-A' }))).toBe(
      'ALREADY_EXISTS',
    );
    expect(await codeOf(addUserToGroup(fork(orm), root, 'nobody_here', 'devs-a'))).toBe('NOT_FOUND');
    expect(await codeOf(addUserToGroup(fork(orm), root, 'g_none', 'no-such-group'))).toBe('NOT_FOUND');
    expect(await codeOf(addUserToGroup(fork(orm), root, 'g_member', 'devs-a'))).toBe('ok');
    expect(await codeOf(removeUserFromGroup(fork(orm), root, 'g_none', 'devs-a'))).toBe('NOT_FOUND');
    const stranger = await actorFor(orm, 'g_none');
    expect(await codeOf(createGroup(fork(orm), stranger, 'mine'))).toBe('PERMISSION_DENIED');
    expect(await codeOf(listUserGroups(fork(orm), stranger, 'g_member'))).toBe('PERMISSION_DENIED');
    expect(await codeOf(listUserGroups(fork(orm), stranger, 'g_none'))).toBe('ok');
  });

  it('auto-join groups get every new user (the seeded All Users among them)', async () => {
    await createGroup(fork(orm), root, 'newcomers', { autoJoin: true });
    await insertUser(fork(orm), { login: 'g_new' });
    const names = (await listUserGroups(fork(orm), root, 'g_new')).map((g) => g.name);
    expect(names).toEqual(['All Users', 'newcomers']);
    // System accounts join nothing: a group's roles must not reach them unasked.
    expect(await listUserGroups(fork(orm), root, 'guest')).toEqual([]);
  });

  it('search sees a group role too: a member finds the project’s issues', async () => {
    const issue = await createIssue(fork(orm), root, { project: 'GA', summary: 'findable by the group' });
    const member = await actorFor(orm, 'g_member');
    const found = await searchIssues(fork(orm), member, 'findable');
    expect(found.map((i) => i.id)).toEqual([issue.id]);
    const outsider = await actorFor(orm, 'g_none');
    expect(await searchIssues(fork(orm), outsider, 'findable')).toEqual([]);
  });
});
