import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import type { Orm } from '../orm/open-orm.js';
import { createProject } from '../projects/projects.js';
import { createIssue } from './create-issue.js';
import { listProjectFields } from './fields/project-fields.js';
import { getIssue } from './get-issue.js';

describe('issue creation', () => {
  let orm: Orm;
  let root: Actor;
  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'PRJ', name: 'Project', startingNumber: 100 });
    await createProject(fork(orm), root, { shortName: 'OTH', name: 'Other' });
  });
  afterAll(() => orm.close(true));

  it('gives a new project the default fields', async () => {
    const fields = await listProjectFields(fork(orm), root, 'prj');
    expect(fields.map((f) => [f.name, f.kind, f.multi, f.emptyText])).toEqual([
      ['Priority', 'enum', false, null],
      ['Type', 'enum', false, null],
      ['State', 'state', false, null],
      ['Assignee', 'user', false, 'Unassigned'],
      ['Subsystem', 'ownedField', false, 'No subsystem'],
      ['Fix versions', 'version', true, 'Unscheduled'],
    ]);
    const state = fields.find((f) => f.name === 'State');
    expect(state?.values.filter((v) => v.resolved).map((v) => v.name)).toEqual([
      'Fixed',
      'Verified',
      'Duplicate',
      "Won't fix",
      'Incomplete',
      'Obsolete',
      "Can't Reproduce",
    ]);
    expect(state?.values.filter((v) => !v.resolved).map((v) => v.name)).toEqual([
      'Submitted',
      'Open',
      'In Progress',
      'To be discussed',
      'Reopened',
    ]);
    expect(fields.find((f) => f.name === 'Priority')?.values.map((v) => v.name)).toEqual([
      'Show-stopper',
      'Critical',
      'Major',
      'Normal',
      'Minor',
    ]);
    // The lead is the first assignee.
    expect(fields.find((f) => f.name === 'Assignee')?.values.map((v) => v.name)).toEqual(['root']);
  });

  it('numbers issues from the starting number with the default field values', async () => {
    const issue = await createIssue(fork(orm), root, {
      project: 'prj',
      summary: '  First  ',
      description: 'Body',
    });
    expect(issue).toMatchObject({
      id: 'PRJ-100',
      numberInProject: 100,
      summary: 'First',
      description: 'Body',
      project: { shortName: 'PRJ', name: 'Project' },
      reporter: { login: 'root', fullName: 'root' },
      resolved: null,
      tags: [],
      stars: 0,
      votes: 0,
      comments: [],
      links: [],
    });
    expect(issue.created).toBeGreaterThan(Date.now() - 60_000);
    expect(issue.updated).toBe(issue.created);
    const values = Object.fromEntries(issue.fields.map((f) => [f.name, f.values.map((v) => v.name)]));
    expect(values).toEqual({
      Priority: ['Normal'],
      Type: ['Bug'],
      State: ['Submitted'],
      Assignee: [],
      Subsystem: [],
      'Fix versions': [],
    });
    expect((await createIssue(fork(orm), root, { project: 'OTH', summary: 'x' })).id).toBe('OTH-1');
    expect((await getIssue(fork(orm), root, 'prj-100')).summary).toBe('First');
  });

  it('gives 20 concurrent creators 20 distinct, consecutive numbers', async () => {
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        createIssue(fork(orm), root, { project: 'OTH', summary: `c${i}` }),
      ),
    );
    const numbers = created.map((i) => i.numberInProject).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
  });

  it('validates the summary', async () => {
    await expect(createIssue(fork(orm), root, { project: 'PRJ', summary: '   ' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      issues: [{ field: 'summary' }],
    });
  });

  it.each([
    ['Observer', 'PERMISSION_DENIED'],
    ['Reporter', null],
  ])('a %s in the project may create issues: %s', async (role, code) => {
    const user = await userWithRole(orm, `creator-${role}`, role, 'PRJ');
    const attempt = createIssue(fork(orm), user, { project: 'PRJ', summary: 'by role' });
    if (code) await expect(attempt).rejects.toMatchObject({ code });
    else await expect(attempt).resolves.toMatchObject({ reporter: { login: `creator-${role}` } });
  });

  it('hides projects and issues the actor cannot read as not found', async () => {
    const outsider = await userWithRole(orm, 'outsider', 'Developer', 'OTH');
    await expect(createIssue(fork(orm), outsider, { project: 'PRJ', summary: 'x' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const unreadable = await getIssue(fork(orm), outsider, 'PRJ-100').catch((e) => e);
    const missing = await getIssue(fork(orm), outsider, 'PRJ-99999').catch((e) => e);
    expect(unreadable).toMatchObject({ code: 'NOT_FOUND', message: 'Issue [ PRJ-100 ] not found.' });
    expect(missing).toMatchObject({ code: 'NOT_FOUND', message: 'Issue [ PRJ-99999 ] not found.' });
    await expect(getIssue(fork(orm), outsider, 'garbage')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
