import { actorFor, createTestOrm, fork, op, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTag, deleteTag } from '../folders/tags.js';
import { applyCommand } from '../issues/apply-command.js';
import { createIssue } from '../issues/create-issue.js';
import { getIssue } from '../issues/get-issue.js';
import { searchIssues } from '../issues/search/search-issues.js';
import { Project } from '../model/project.entity.js';
import type { Orm } from '../orm/open-orm.js';
import { createProject, deleteProject, getReadableProject, listAccessibleProjects } from './projects.js';
import { listTrashedProjects, purgeExpiredProjects, purgeProject, restoreProject } from './trash.js';

describe('the project trash', () => {
  let orm: Orm;
  const root = () => actorFor(orm, 'root');
  beforeAll(async () => {
    orm = await createTestOrm();
    const admin = await root();
    await createProject(fork(orm), admin, { shortName: 'Bin', name: 'Binned' });
    await createProject(fork(orm), admin, { shortName: 'Stay', name: 'Staying' });
    await createIssue(fork(orm), admin, { project: 'Bin', summary: 'binned issue' });
    await createIssue(fork(orm), admin, { project: 'Stay', summary: 'staying issue' });
    await applyCommand(fork(orm), admin, ['Stay-1'], [op.link('Relates', 'Bin-1')]);
    await userWithRole(orm, 'padmin', 'Project Admin', 'Bin');
  });
  afterAll(() => orm.close(true));

  it('a deleted project and its issues are invisible, even to root; cross-project links are hidden', async () => {
    await deleteProject(fork(orm), await actorFor(orm, 'padmin'), 'Bin');
    for (const actor of [await root(), await actorFor(orm, 'padmin')]) {
      await expect(getReadableProject(fork(orm), actor, 'Bin')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(getIssue(fork(orm), actor, 'Bin-1')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect((await listAccessibleProjects(fork(orm), actor)).map((p) => p.shortName)).not.toContain('Bin');
      expect((await searchIssues(fork(orm), actor, 'binned')).length).toBe(0);
    }
    expect((await getIssue(fork(orm), await root(), 'Stay-1')).links).toEqual([]);
    await expect(
      applyCommand(fork(orm), await root(), ['Stay-1'], [op.link('Depend', 'Bin-1')]),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('Bin-1') });
  });

  it('its names stay reserved while in the trash', async () => {
    await expect(
      createProject(fork(orm), await root(), { shortName: 'BIN', name: 'Another' }),
    ).rejects.toMatchObject({ code: 'ALREADY_EXISTS' });
  });

  it('only a global DELETE_PROJECT lists, restores and purges the trash', async () => {
    const padmin = await actorFor(orm, 'padmin');
    await expect(listTrashedProjects(fork(orm), padmin)).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await expect(restoreProject(fork(orm), padmin, 'Bin')).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    await expect(purgeProject(fork(orm), padmin, 'Bin')).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    const listed = await listTrashedProjects(fork(orm), await root(), 30);
    expect(listed).toEqual([expect.objectContaining({ shortName: 'Bin', name: 'Binned', issues: 1 })]);
    const [entry] = listed;
    expect((entry?.purgeAfter.getTime() ?? 0) - (entry?.deletedAt.getTime() ?? 0)).toBe(30 * 86_400_000);
  });

  it('restoring brings back the project with its issues, grants and cross-project links', async () => {
    await expect(restoreProject(fork(orm), await root(), 'Stay')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await restoreProject(fork(orm), await root(), 'bin');
    const padmin = await actorFor(orm, 'padmin');
    expect((await getReadableProject(fork(orm), padmin, 'Bin')).name).toBe('Binned');
    expect((await getIssue(fork(orm), padmin, 'Bin-1')).summary).toBe('binned issue');
    const links = (await getIssue(fork(orm), await root(), 'Stay-1')).links;
    expect(links.map((l) => l.issue.id)).toEqual(['Bin-1']);
    expect(await listTrashedProjects(fork(orm), await root())).toEqual([]);
  });

  it('a shared tag on issues the deleter cannot read is not deleted (403); nothing is untagged', async () => {
    await userWithRole(orm, 'sharer', 'Admin', 'Stay');
    const sharer = await actorFor(orm, 'sharer');
    await createTag(fork(orm), sharer, { name: 'team', shared: true });
    await applyCommand(fork(orm), await root(), ['Bin-1'], [op.tag('team')]);
    await expect(deleteTag(fork(orm), sharer, 'team')).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    expect((await getIssue(fork(orm), await root(), 'Bin-1')).tags.map((t) => t.name)).toEqual(['team']);
    // Once nothing unreadable carries it, the owner may delete it.
    await applyCommand(fork(orm), await root(), ['Bin-1'], [op.untag('team')]);
    await deleteTag(fork(orm), sharer, 'team');
  });

  it('expired projects are purged with everything in them; recent ones stay', async () => {
    await deleteProject(fork(orm), await root(), 'Bin');
    const now = new Date();
    expect(await purgeExpiredProjects(fork(orm), 30, now)).toEqual([]);
    expect(await purgeExpiredProjects(fork(orm), 30, new Date(now.getTime() + 31 * 86_400_000))).toEqual([
      'Bin',
    ]);
    expect(await fork(orm).count(Project, { shortNameKey: 'BIN' })).toBe(0);
    expect((await getIssue(fork(orm), await root(), 'Stay-1')).links).toEqual([]);
    // The short name is free again.
    await createProject(fork(orm), await root(), { shortName: 'Bin', name: 'Binned again' });
  });
});
