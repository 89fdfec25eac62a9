import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import { addUserToGroup, createGroup, grantGroupRole } from '../groups/groups.js';
import { Project } from '../model/project.entity.js';
import { Role } from '../model/role.entity.js';
import type { Orm } from '../orm/open-orm.js';
import { createProject } from '../projects/projects.js';
import { addRolePermission, createRole } from '../roles/roles.js';
import { deleteUser, updateUser } from '../users/user-admin.js';
import { grantRole, insertUser } from '../users/users.js';
import { findCommitter } from './committers.js';

describe('findCommitter: the committers role counts through groups too', () => {
  let orm: Orm;
  let root: Actor;
  let role: { id: number; name: string };
  let inProject: number;
  let elsewhere: number;

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'VC', name: 'Commits' });
    await createProject(fork(orm), root, { shortName: 'VO', name: 'Other' });
    const em = fork(orm);
    const developer = await em.findOneOrFail(Role, { nameKey: 'developer' });
    role = { id: developer.id, name: developer.name };
    inProject = (await em.findOneOrFail(Project, { shortNameKey: 'VC' })).id;
    elsewhere = (await em.findOneOrFail(Project, { shortNameKey: 'VO' })).id;
    await insertUser(fork(orm), { login: 'grouped_committer', email: 'gc@example.com' });
    await insertUser(fork(orm), { login: 'outsider', email: 'out@example.com' });
    await createGroup(fork(orm), root, 'committers-vc');
    await grantGroupRole(fork(orm), root, 'committers-vc', 'Developer', ['VC']);
    await addUserToGroup(fork(orm), root, 'grouped_committer', 'committers-vc');
  });
  afterAll(() => orm.close(true));

  it('matches a user holding the role through a group, in that project only', async () => {
    const found = await findCommitter(fork(orm), role, 'GC@example.com', inProject);
    expect(found.kind === 'matched' ? found.user.login : found.reason).toBe('grouped_committer');
    expect((await findCommitter(fork(orm), role, 'gc@example.com', elsewhere)).kind).toBe('unmatched');
    expect((await findCommitter(fork(orm), role, 'out@example.com', inProject)).kind).toBe('unmatched');
  });
});

describe('findCommitter: an e-mail set by someone else is trusted only while they cover the account', () => {
  let orm: Orm;
  let root: Actor;
  let role: { id: number; name: string };
  let project: number;
  const found = async (email: string) => {
    const committer = await findCommitter(fork(orm), role, email, project);
    return committer.kind === 'matched' ? committer.user.login : committer.reason;
  };

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'ET', name: 'E-mail trust' });
    const em = fork(orm);
    const developer = await em.findOneOrFail(Role, { nameKey: 'developer' });
    role = { id: developer.id, name: developer.name };
    project = (await em.findOneOrFail(Project, { shortNameKey: 'ET' })).id;
    await createRole(fork(orm), root, 'User editor', 'edits users');
    await addRolePermission(fork(orm), root, 'User editor', 'UPDATE_USER');
    await userWithRole(orm, 'editor', 'User editor');
    await insertUser(fork(orm), { login: 'later_dev' });
  });
  afterAll(() => orm.close(true));

  it('set while the account held nothing, then the account is granted more: untrusted until set again', async () => {
    const editor = await actorFor(orm, 'editor');
    await updateUser(fork(orm), editor, 'later_dev', { email: 'later@example.com' });
    await grantRole(fork(orm), root, 'later_dev', 'Developer', 'ET');
    expect(await found('later@example.com')).toBe(
      'the e-mail of [ later_dev ] was set by [ editor ], who does not hold everything [ later_dev ] holds; ' +
        '[ later_dev ] or an administrator holding everything it holds must set it again',
    );
    // An administrator covering the account confirms it.
    await updateUser(fork(orm), root, 'later_dev', { email: 'later@example.com' });
    expect(await found('later@example.com')).toBe('later_dev');
  });

  it('set by the owner: trusted; set by a setter since deleted: untrusted', async () => {
    const owner = await actorFor(orm, 'later_dev');
    await updateUser(fork(orm), owner, 'later_dev', { email: 'own@example.com' });
    expect(await found('own@example.com')).toBe('later_dev');
    await insertUser(fork(orm), { login: 'gone_admin' });
    await grantRole(fork(orm), root, 'gone_admin', 'Admin');
    await updateUser(fork(orm), await actorFor(orm, 'gone_admin'), 'later_dev', { email: 'set@example.com' });
    expect(await found('set@example.com')).toBe('later_dev');
    await deleteUser(fork(orm), root, 'gone_admin');
    expect(await found('set@example.com')).toMatch(/was set by an account that no longer exists/);
  });
});
