import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import type { Orm } from '../orm/create-orm.js';
import { actorFor, createTestOrm, fork, userWithRole } from '../test-support/test-orm.js';
import { Project } from './project.entity.js';
import { createProject, deleteProject, getReadableProject, listAccessibleProjects } from './projects.js';

describe('projects', () => {
  let orm: Orm;
  let root: Actor;
  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
  });
  afterAll(() => orm.close(true));

  it('creates a project with the caller as default lead', async () => {
    const p = await createProject(fork(orm), root, { shortName: 'Alpha', name: 'Alpha project' });
    const reread = await fork(orm).findOneOrFail(Project, { id: p.id }, { populate: ['lead'] });
    expect(reread).toMatchObject({
      shortName: 'Alpha',
      shortNameKey: 'ALPHA',
      startingNumber: 1,
      nextNumber: 1,
    });
    expect(reread.lead.login).toBe('root');
  });

  it('rejects a duplicate short name in any case and a duplicate name, with 409 codes', async () => {
    await expect(createProject(fork(orm), root, { shortName: 'ALPHA', name: 'Other' })).rejects.toMatchObject(
      {
        code: 'ALREADY_EXISTS',
      },
    );
    await expect(
      createProject(fork(orm), root, { shortName: 'Beta', name: 'alpha PROJECT' }),
    ).rejects.toMatchObject({
      code: 'ALREADY_EXISTS',
    });
  });

  it('rejects an unknown lead without creating anything', async () => {
    await expect(
      createProject(fork(orm), root, { shortName: 'Gamma', name: 'Gamma', leadLogin: 'nobody' }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', issues: [{ field: 'projectLeadLogin' }] });
    expect(await fork(orm).count(Project, { shortNameKey: 'GAMMA' })).toBe(0);
  });

  it('concurrent creation of the same project yields one row and conflicts for the rest', async () => {
    const attempts = await Promise.allSettled(
      Array.from({ length: 8 }, () => createProject(fork(orm), root, { shortName: 'Race', name: 'Race' })),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    for (const a of attempts.filter((x) => x.status === 'rejected')) {
      expect((a as PromiseRejectedResult).reason).toBeInstanceOf(DomainError);
      expect((a as PromiseRejectedResult).reason.code).toBe('ALREADY_EXISTS');
    }
    expect(await fork(orm).count(Project, { shortNameKey: 'RACE' })).toBe(1);
  });

  it('lists only readable projects and hides unreadable ones as not found', async () => {
    await createProject(fork(orm), root, { shortName: 'Own', name: 'Own' });
    const dev = await userWithRole(orm, 'dev1', 'Developer', 'Own');
    const names = (await listAccessibleProjects(fork(orm), dev)).map((p) => p.shortName);
    expect(names).toEqual(['Own']);
    await expect(getReadableProject(fork(orm), dev, 'Alpha')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(deleteProject(fork(orm), dev, 'Own')).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
  });

  it('deletes a project', async () => {
    await deleteProject(fork(orm), root, 'alpha');
    expect(await fork(orm).count(Project, { shortNameKey: 'ALPHA' })).toBe(0);
  });
});
