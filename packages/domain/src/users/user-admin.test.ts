import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import { addUserToGroup, createGroup, grantGroupRole, listUserGroups } from '../groups/groups.js';
import { createIssue } from '../issues/create-issue.js';
import { executeCommand } from '../issues/execute-command.js';
import { IssueComment } from '../model/comment.entity.js';
import { Issue } from '../model/issue.entity.js';
import { User } from '../model/user.entity.js';
import type { Orm } from '../orm/open-orm.js';
import { createProject } from '../projects/projects.js';
import { mergeUsers } from './merge-users.js';
import { deleteUser, listUsers, updateUser } from './user-admin.js';
import { insertUser, listUserRoles } from './users.js';

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (error instanceof DomainError ? error.code : String(error)),
  );

describe('user administration: list, update, delete, merge', () => {
  let orm: Orm;
  let root: Actor;
  const logins = async (filter: Parameters<typeof listUsers>[2]) =>
    (await listUsers(fork(orm), root, filter)).map((u) => u.login);

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'UA', name: 'User admin' });
    await createProject(fork(orm), root, { shortName: 'UB', name: 'Other' });
    await insertUser(fork(orm), { login: 'ann', fullName: 'Ann Smith', email: 'ann@corp.example' });
    await insertUser(fork(orm), { login: 'bob', fullName: 'Bob Jones', email: 'bob@home.example' });
    await insertUser(fork(orm), { login: 'percent%', fullName: 'Odd Name' });
    await userWithRole(orm, 'dev_ua', 'Developer', 'UA');
    await userWithRole(orm, 'obs_ub', 'Observer', 'UB');
    await createGroup(fork(orm), root, 'committers');
    await grantGroupRole(fork(orm), root, 'committers', 'Developer', ['UB']);
    await addUserToGroup(fork(orm), root, 'bob', 'committers');
  });
  afterAll(() => orm.close(true));

  it('filters by q (login, full name, e-mail; like-wildcards are literal) and by group', async () => {
    expect(await logins({ q: 'SMITH' })).toEqual(['ann']);
    expect(await logins({ q: 'corp.example' })).toEqual(['ann']);
    expect(await logins({ q: '%' })).toEqual(['percent%']);
    expect(await logins({ group: 'Committers' })).toEqual(['bob']);
    expect(await logins({ group: 'committers', q: 'ann' })).toEqual([]);
    expect(await codeOf(listUsers(fork(orm), root, { group: 'nope' }))).toBe('NOT_FOUND');
  });

  it('filters by role, project and permission through own and group grants', async () => {
    expect(await logins({ role: 'Developer' })).toEqual(['bob', 'dev_ua']);
    expect(await logins({ role: 'Developer', project: 'UB' })).toEqual(['bob']);
    // root holds Admin globally, which holds in every project.
    expect(await logins({ project: 'UB' })).toEqual(['bob', 'obs_ub', 'root']);
    expect(await logins({ permission: 'UPDATE_ISSUE', project: 'UA' })).toEqual(['dev_ua', 'root']);
    expect(await codeOf(listUsers(fork(orm), root, { role: 'Nope' }))).toBe('NOT_FOUND');
    expect(await codeOf(listUsers(fork(orm), root, { permission: 'NOPE' }))).toBe('NOT_FOUND');
  });

  it('pages ten users by login from start', async () => {
    for (let i = 0; i < 12; i++) await insertUser(fork(orm), { login: `page_${String(i).padStart(2, '0')}` });
    const first = await logins({ q: 'page_' });
    const second = await logins({ q: 'page_', start: 10 });
    expect(first).toHaveLength(10);
    expect(second).toEqual(['page_10', 'page_11']);
    expect(await logins({ q: 'page_', start: 12 })).toEqual([]);
  });

  it('needs READ_USER to list, UPDATE_USER to update another user; one’s own profile is free', async () => {
    const ann = await actorFor(orm, 'ann');
    expect(await codeOf(listUsers(fork(orm), ann, {}))).toBe('PERMISSION_DENIED');
    expect(await codeOf(updateUser(fork(orm), ann, 'bob', { fullName: 'x' }))).toBe('PERMISSION_DENIED');
    const updated = await updateUser(fork(orm), ann, 'ann', {
      fullName: 'Ann S.',
      jabber: 'ann@xmpp.example',
    });
    expect([updated.fullName, updated.jabber]).toEqual(['Ann S.', 'ann@xmpp.example']);
    expect(await codeOf(updateUser(fork(orm), ann, 'ann', { password: 'new-password-1' }))).toBe(
      'VALIDATION_FAILED',
    );
    const bob = await updateUser(fork(orm), root, 'BOB', { email: 'Bob@New.example' });
    expect([bob.email, bob.emailKey]).toEqual(['Bob@New.example', 'bob@new.example']);
    expect(await codeOf(updateUser(fork(orm), root, 'ghost', { fullName: 'x' }))).toBe('NOT_FOUND');
  });

  it('deleting a user keeps their issues and comments, now by the deleted-user account', async () => {
    const leaver = await userWithRole(orm, 'leaver', 'Developer', 'UA');
    const issue = await createIssue(fork(orm), leaver, { project: 'UA', summary: 'reported by a leaver' });
    await executeCommand(fork(orm), leaver, [issue.id], undefined, 'a comment');
    await deleteUser(fork(orm), root, 'leaver');
    const em = fork(orm);
    expect(await em.findOne(User, { loginKey: 'leaver' })).toBeNull();
    const stored = await em.findOneOrFail(Issue, { id: issue.dbId }, { populate: ['reporter'] });
    expect(stored.reporter.login).toBe('deleted_user');
    const comments = await em.find(IssueComment, { issue: issue.dbId }, { populate: ['author'] });
    expect(comments.map((c) => `${c.author.login}: ${c.text}`)).toEqual(['deleted_user: a comment']);
  });

  it('refuses to delete root, system accounts, oneself, someone holding more, and unknown users', async () => {
    expect(await codeOf(deleteUser(fork(orm), root, 'root'))).toBe('PERMISSION_DENIED');
    expect(await codeOf(deleteUser(fork(orm), root, 'guest'))).toBe('PERMISSION_DENIED');
    expect(await codeOf(deleteUser(fork(orm), root, 'ghost'))).toBe('NOT_FOUND');
    const deleter = await userWithRole(orm, 'deleter', 'Admin');
    await userWithRole(orm, 'admin2', 'Admin');
    const weak = { ...(await actorFor(orm, 'ann')), global: new Set(['DELETE_USER' as const]) };
    expect(await codeOf(deleteUser(fork(orm), deleter, 'deleter'))).toBe('PERMISSION_DENIED');
    expect(await codeOf(deleteUser(fork(orm), weak, 'admin2'))).toBe('PERMISSION_DENIED');
    expect(await codeOf(deleteUser(fork(orm), weak, 'percent%'))).toBe('ok');
  });

  it('merging moves authorship, grants and memberships to the kept account and deletes the other', async () => {
    const twin = await userWithRole(orm, 'twin', 'Reporter', 'UA');
    await addUserToGroup(fork(orm), root, 'twin', 'committers');
    const issue = await createIssue(fork(orm), twin, { project: 'UA', summary: 'by the twin' });
    await mergeUsers(fork(orm), root, 'ann', 'twin');
    const em = fork(orm);
    expect(await em.findOne(User, { loginKey: 'twin' })).toBeNull();
    expect(
      (await em.findOneOrFail(Issue, { id: issue.dbId }, { populate: ['reporter'] })).reporter.login,
    ).toBe('ann');
    expect(await listUserRoles(fork(orm), root, 'ann')).toEqual([{ role: 'Reporter', projects: ['UA'] }]);
    expect((await listUserGroups(fork(orm), root, 'ann')).map((g) => g.name)).toEqual([
      'All Users',
      'committers',
    ]);
    expect(await codeOf(mergeUsers(fork(orm), root, 'ann', 'ann'))).toBe('VALIDATION_FAILED');
    expect(await codeOf(mergeUsers(fork(orm), root, 'ann', 'ghost'))).toBe('NOT_FOUND');
  });
});
