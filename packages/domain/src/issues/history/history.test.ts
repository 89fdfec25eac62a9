import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth/actor.js';
import { DomainError } from '../../errors.js';
import type { Orm } from '../../orm/open-orm.js';
import { createProject } from '../../projects/projects.js';
import { createIssue } from '../create-issue.js';
import { executeCommand } from '../execute-command.js';
import { addProjectAssignee } from '../fields/assignees.js';
import { updateIssueText } from '../issue-lifecycle.js';
import { listIssueChanges } from './history.js';

describe('issue history: every field change is recorded, once, by whoever made it', () => {
  let orm: Orm;
  let root: Actor;
  let dev: Actor;
  let issueId: string;
  const changes = async () =>
    (await listIssueChanges(fork(orm), root, issueId)).map((c) => ({
      by: c.updater.login,
      fields: c.fields,
    }));

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'HI', name: 'History' });
    dev = await userWithRole(orm, 'h_dev', 'Developer', 'HI');
    await addProjectAssignee(fork(orm), root, 'HI', 'h_dev');
    issueId = (await createIssue(fork(orm), root, { project: 'HI', summary: 'Original', description: '' }))
      .id;
  });
  afterAll(() => orm.close(true));

  it('a new issue has no history; a comment alone records nothing', async () => {
    expect(await changes()).toEqual([]);
    await executeCommand(fork(orm), root, [issueId], undefined, 'just talking');
    expect(await changes()).toEqual([]);
  });

  it('commands record custom fields by value names; an unchanged value records nothing', async () => {
    await executeCommand(fork(orm), dev, [issueId], 'Priority Major State Open');
    await executeCommand(fork(orm), dev, [issueId], 'Priority Major');
    await executeCommand(fork(orm), dev, [issueId], `for ${dev.login}`);
    const all = await changes();
    expect(all).toHaveLength(2);
    expect(all[0]?.by).toBe('h_dev');
    expect(all[0]?.fields).toEqual(
      expect.arrayContaining([
        { name: 'Priority', oldValues: ['Normal'], newValues: ['Major'] },
        { name: 'State', oldValues: ['Submitted'], newValues: ['Open'] },
      ]),
    );
    expect(all[0]?.fields).toHaveLength(2);
    expect(all[1]?.fields).toEqual([{ name: 'Assignee', oldValues: [], newValues: ['h_dev'] }]);
  });

  it('updates record summary and description, old and new', async () => {
    await updateIssueText(fork(orm), dev, issueId, { summary: 'Renamed', description: 'Now described' });
    await updateIssueText(fork(orm), dev, issueId, { summary: 'Renamed' });
    const last = (await changes()).at(-1);
    expect(last?.fields).toEqual([
      { name: 'summary', oldValues: ['Original'], newValues: ['Renamed'] },
      { name: 'description', oldValues: [], newValues: ['Now described'] },
    ]);
    expect(await changes()).toHaveLength(3);
  });

  it('a hidden issue’s history is NOT_FOUND', async () => {
    const stranger = await userWithRole(orm, 'h_stranger');
    await expect(listIssueChanges(fork(orm), stranger, issueId)).rejects.toBeInstanceOf(DomainError);
  });
});
