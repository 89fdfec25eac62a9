import { actorFor, createTestOrm, fork } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import { addUserToGroup, createGroup, grantGroupRole } from '../groups/groups.js';
import type { Orm } from '../orm/create-orm.js';
import { Project } from '../projects/project.entity.js';
import { createProject } from '../projects/projects.js';
import { Role } from '../roles/role.entity.js';
import { insertUser } from '../users/users.js';
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
