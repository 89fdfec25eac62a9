import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import { createGroup, grantGroupRole } from '../groups/groups.js';
import type { Orm } from '../orm/open-orm.js';
import { createProject } from '../projects/projects.js';
import { listProjectGrants } from './project-grants.js';

describe('listProjectGrants', () => {
  let orm: Orm;
  let root: Actor;
  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'GR', name: 'Grants' });
    await createProject(fork(orm), root, { shortName: 'OT', name: 'Other' });
    await userWithRole(orm, 'dev', 'Developer', 'GR');
    await userWithRole(orm, 'elsewhere', 'Developer', 'OT');
    await userWithRole(orm, 'everywhere', 'Observer');
    await createGroup(fork(orm), root, 'Testers');
    await grantGroupRole(fork(orm), root, 'Testers', 'Reporter', ['GR']);
  });
  afterAll(() => orm.close(true));

  it('lists the grants made in the project and everywhere, to users and groups', async () => {
    const grants = await listProjectGrants(fork(orm), root, 'GR');
    const told = grants.map((g) => `${g.holder.kind} ${g.holder.name} ${g.role} ${g.scope}`);
    expect(told).toEqual(
      expect.arrayContaining([
        'user dev Developer project',
        'user everywhere Observer everywhere',
        'group Testers Reporter project',
      ]),
    );
    expect(told.some((t) => t.includes('elsewhere'))).toBe(false);
  });

  it('is for the project’s administrators and those who read roles', async () => {
    await expect(listProjectGrants(fork(orm), await actorFor(orm, 'dev'), 'GR')).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    await expect(listProjectGrants(fork(orm), await actorFor(orm, 'elsewhere'), 'GR')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
