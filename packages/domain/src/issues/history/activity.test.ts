import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth/actor.js';
import { createTag, deleteTag } from '../../folders/tags.js';
import type { Orm } from '../../orm/open-orm.js';
import { createProject } from '../../projects/projects.js';
import { updateUser } from '../../users/user-admin.js';
import { createIssue } from '../create-issue.js';
import { executeCommand } from '../execute-command.js';
import { deleteIssue } from '../issue-lifecycle.js';
import { listIssueActivity } from './activity.js';

describe('listIssueActivity', () => {
  let orm: Orm;
  let root: Actor;
  let reader: Actor;

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await updateUser(fork(orm), root, 'root', { fullName: 'Rosa Root' });
    await createProject(fork(orm), root, { shortName: 'ACT', name: 'Activity' });
    await createProject(fork(orm), root, { shortName: 'SEC', name: 'Secret' });
    reader = await userWithRole(orm, 'reader', 'Developer', 'ACT');
    for (const summary of ['first', 'second'])
      await createIssue(fork(orm), root, { project: 'ACT', summary });
    await createIssue(fork(orm), root, { project: 'SEC', summary: 'hidden' });
    await createTag(fork(orm), root, { name: 'everyone', shared: true });
    await executeCommand(
      fork(orm),
      root,
      ['ACT-1'],
      'Assignee root depends on ACT-2 relates to SEC-1 tag mine tag everyone',
    );
    await executeCommand(fork(orm), root, ['ACT-1'], undefined, 'a comment');
    await executeCommand(fork(orm), root, ['ACT-1'], 'remove depends on ACT-2 untag mine');
  });
  afterAll(() => orm.close(true));

  it('tells field changes (users by full name), links, tags and comments, by full name, oldest first', async () => {
    const activity = await listIssueActivity(fork(orm), root, 'ACT-1');
    expect(activity.every((e) => e.by.fullName === 'Rosa Root')).toBe(true);
    const change = activity.find((e) => e.kind === 'change');
    expect(change).toMatchObject({ fields: [{ name: 'Assignee', oldValues: [], newValues: ['Rosa Root'] }] });
    expect(
      activity.map((e) => [e.kind, 'phrase' in e ? `${e.phrase} ${e.issue.id}` : 'tag' in e ? e.tag : '']),
    ).toEqual([
      ['change', ''],
      ['link-added', 'depends on ACT-2'],
      ['link-added', 'relates to SEC-1'],
      ['tag-added', 'mine'],
      ['tag-added', 'everyone'],
      ['comment', ''],
      ['link-removed', 'depends on ACT-2'],
      ['tag-removed', 'mine'],
    ]);
    // The other end reads the link from its side.
    const other = await listIssueActivity(fork(orm), root, 'ACT-2');
    expect(other.filter((e) => e.kind === 'link-added').map((e) => 'phrase' in e && e.phrase)).toEqual([
      'is required for',
    ]);
  });

  it('leaves out what the caller may not see: others’ private tags, links to issues it cannot read', async () => {
    const activity = await listIssueActivity(fork(orm), reader, 'ACT-1');
    const told = activity.map((e) =>
      'tag' in e ? `tag ${e.tag}` : 'issue' in e ? `link ${e.issue.id}` : e.kind,
    );
    expect(told).toContain('tag everyone');
    expect(told).not.toContain('tag mine');
    expect(told).not.toContain('link SEC-1');
    expect(told).toContain('link ACT-2');
  });

  it('forgets the events of an issue deleted, on both ends, and of a tag deleted', async () => {
    await deleteIssue(fork(orm), root, 'ACT-2');
    await deleteTag(fork(orm), root, 'everyone');
    const told = (await listIssueActivity(fork(orm), root, 'ACT-1')).map((e) =>
      'tag' in e ? `tag ${e.tag}` : 'issue' in e ? `link ${e.issue.id}` : e.kind,
    );
    expect(told).not.toContain('link ACT-2');
    expect(told).not.toContain('tag everyone');
    expect(told).toContain('link SEC-1');
    const left = await fork(orm).execute<{ n: number }[]>(
      "select count(*) as n from issue_events e join issues i on i.id = e.issue_id where i.summary = 'second'",
    );
    expect(Number(left[0]?.n)).toBe(0);
  });
});
