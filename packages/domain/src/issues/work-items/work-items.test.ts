import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth/actor.js';
import type { Orm } from '../../orm/open-orm.js';
import { createProject } from '../../projects/projects.js';
import { createIssue } from '../create-issue.js';
import {
  createWorkItem,
  deleteWorkItem,
  getProjectTimeTracking,
  getTimeSettings,
  importWorkItems,
  listWorkItems,
  listWorkTypes,
  setProjectTimeTracking,
  setTimeSettings,
  updateWorkItem,
} from './work-items.js';

const DAY = Date.UTC(2020, 1, 3);

describe('work items', () => {
  let orm: Orm;
  let root: Actor;
  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'WI', name: 'Work items' });
    await createIssue(fork(orm), root, { project: 'WI', summary: 'one' });
  });
  afterAll(() => orm.close(true));

  it('creates, lists, updates and deletes with the work item permissions', async () => {
    const dev = await userWithRole(orm, 'wi_dev', 'Developer', 'WI');
    const observer = await userWithRole(orm, 'wi_observer', 'Observer', 'WI');
    const item = await createWorkItem(fork(orm), dev, 'WI-1', {
      date: DAY,
      duration: 90,
      description: 'fixing',
      workType: 'Development',
    });
    expect([item.duration, item.workType, item.author.login, item.date]).toEqual([
      90,
      'Development',
      'wi_dev',
      DAY,
    ]);
    expect((await listWorkItems(fork(orm), observer, 'WI-1')).map((w) => w.id)).toEqual([item.id]);
    await expect(createWorkItem(fork(orm), observer, 'WI-1', { duration: 5 })).rejects.toThrow(
      /no rights to add work items/,
    );
    await expect(createWorkItem(fork(orm), dev, 'WI-1', { duration: 0 })).rejects.toThrow(/duration/);
    expect((await updateWorkItem(fork(orm), dev, 'WI-1', item.id, { duration: 30 })).duration).toBe(30);
    // Someone else's item needs UPDATE_NOT_OWN_WORK_ITEM (the Developer role lacks it).
    const other = await userWithRole(orm, 'wi_dev2', 'Developer', 'WI');
    await expect(deleteWorkItem(fork(orm), other, 'WI-1', item.id)).rejects.toThrow(/others' work items/);
    await deleteWorkItem(fork(orm), dev, 'WI-1', item.id);
    expect(await listWorkItems(fork(orm), root, 'WI-1')).toEqual([]);
    expect((await listWorkTypes(fork(orm))).map((t) => t.name)).toEqual(['Development']);
  });

  it('imports per item, creating unknown authors and work types, and skips items already there', async () => {
    const batch = [
      {
        date: String(DAY),
        duration: '60',
        description: 'imported',
        worktype: 'Testing',
        author: 'gone_tester',
      },
      { date: 'yesterday', duration: '60' },
    ];
    const first = await importWorkItems(fork(orm), root, 'WI-1', batch);
    expect(first.map((r) => [r.id, r.imported])).toEqual([
      ['1', true],
      ['2', false],
    ]);
    await importWorkItems(fork(orm), root, 'WI-1', batch);
    const items = await listWorkItems(fork(orm), root, 'WI-1');
    expect(items.map((w) => [w.author.login, w.workType, w.duration, w.date])).toEqual([
      ['gone_tester', 'Testing', 60, DAY],
    ]);
  });

  it('keeps project and global settings', async () => {
    expect(await getProjectTimeTracking(fork(orm), root, 'WI')).toEqual({
      enabled: false,
      estimation: null,
      spentTime: null,
    });
    await setProjectTimeTracking(fork(orm), root, 'WI', { enabled: true, spentTime: 'Spent time' });
    expect(await setProjectTimeTracking(fork(orm), root, 'WI', { estimation: 'Estimation' })).toEqual({
      enabled: true,
      estimation: 'Estimation',
      spentTime: 'Spent time',
    });
    expect(await getTimeSettings(fork(orm))).toEqual({ hoursADay: 8, daysAWeek: 5 });
    expect(await setTimeSettings(fork(orm), root, { hoursADay: 6 })).toEqual({ hoursADay: 6, daysAWeek: 5 });
    const observer = await actorFor(orm, 'wi_observer');
    await expect(setTimeSettings(fork(orm), observer, { hoursADay: 7 })).rejects.toThrow(/LOW_LEVEL_ADMIN/);
    await expect(setProjectTimeTracking(fork(orm), observer, 'WI', { enabled: false })).rejects.toThrow(
      /no rights/,
    );
  });
});
