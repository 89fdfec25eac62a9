import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import type { Orm } from '../orm/open-orm.js';
import { createProject } from '../projects/projects.js';
import { applyCommandToSelection } from './apply-to-selection.js';
import { createIssue } from './create-issue.js';
import { getIssue } from './get-issue.js';
import type { IssueView } from './issue-view.js';

const priorityOf = (issue: IssueView) => issue.fields.find((f) => f.name === 'Priority')?.values[0]?.name;

describe('applyCommandToSelection', () => {
  let orm: Orm;
  let root: Actor;
  let dev: Actor;

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'SEL', name: 'Selection' });
    await createProject(fork(orm), root, { shortName: 'OTH', name: 'Other' });
    dev = await userWithRole(orm, 'dev', 'Developer', 'SEL');
    for (let i = 1; i <= 4; i++)
      await createIssue(fork(orm), root, { project: 'SEL', summary: `selected ${i}` });
    await createIssue(fork(orm), root, { project: 'OTH', summary: 'elsewhere' });
  });
  afterAll(() => orm.close(true));

  it('applies a command to the named issues and answers them as they are now, in the order named', async () => {
    const { issues: changed } = await applyCommandToSelection(fork(orm), dev, {
      issues: ['SEL-3', 'sel-1'],
      command: 'Priority Critical',
    });
    expect(changed.map((i) => [i.id, priorityOf(i)])).toEqual([
      ['SEL-3', 'Critical'],
      ['SEL-1', 'Critical'],
    ]);
    expect(priorityOf(await getIssue(fork(orm), root, 'SEL-2'))).toBe('Normal');
  });

  it('applies a command to every issue a query matches, with its comment', async () => {
    const { issues: changed } = await applyCommandToSelection(fork(orm), dev, {
      query: 'project: SEL selected',
      command: 'Priority Minor',
      comment: 'all of them',
    });
    expect(changed.map((i) => i.id).sort()).toEqual(['SEL-1', 'SEL-2', 'SEL-3', 'SEL-4']);
    expect(changed.every((i) => priorityOf(i) === 'Minor')).toBe(true);
    expect(changed.every((i) => i.comments.some((c) => c.text === 'all of them'))).toBe(true);
  });

  it('changes nothing when one issue of the selection refuses a part (atomic)', async () => {
    await expect(
      applyCommandToSelection(fork(orm), dev, { issues: ['SEL-1', 'OTH-1'], command: 'Priority Major' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(priorityOf(await getIssue(fork(orm), root, 'SEL-1'))).toBe('Minor');
    expect(priorityOf(await getIssue(fork(orm), root, 'OTH-1'))).toBe('Normal');
  });

  it('refuses an empty selection, a query matching nothing, and an unknown word', async () => {
    await expect(applyCommandToSelection(fork(orm), dev, { command: 'Minor' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      issues: [{ field: 'issues' }],
    });
    await expect(
      applyCommandToSelection(fork(orm), dev, { query: 'project: SEL nothing-like-this', command: 'Minor' }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', issues: [{ field: 'query' }] });
    await expect(
      applyCommandToSelection(fork(orm), dev, { issues: ['SEL-1'], command: 'Priority Nonsense' }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', issues: [{ field: 'command' }] });
  });

  it('runs as another user only for LOW_LEVEL_ADMIN', async () => {
    await expect(
      applyCommandToSelection(fork(orm), dev, { issues: ['SEL-2'], command: 'Major', runAs: 'root' }),
    ).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    const {
      issues: [issue],
    } = await applyCommandToSelection(fork(orm), root, {
      issues: ['SEL-2'],
      command: 'Major',
      comment: 'as dev',
      runAs: 'dev',
    });
    expect(priorityOf(issue as IssueView)).toBe('Major');
    expect(issue?.comments.at(-1)?.author.login).toBe('dev');
  });

  it('answers the issues a `delete` command removed instead of failing to read them', async () => {
    await createIssue(fork(orm), root, { project: 'SEL', summary: 'to be deleted' });
    const { issues, deleted } = await applyCommandToSelection(fork(orm), root, {
      issues: ['SEL-5'],
      command: 'delete',
    });
    expect(issues).toEqual([]);
    expect(deleted).toEqual(['SEL-5']);
    await expect(getIssue(fork(orm), root, 'SEL-5')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
