import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import { createOrm } from '../model/create-orm.js';
import { dialectOf, type Orm } from '../orm/open-orm.js';
import { createProject } from '../projects/projects.js';
import { addComment } from './apply-command.js';
import { createIssue } from './create-issue.js';
import { executeCommand } from './execute-command.js';
import { addProjectAssignee } from './fields/assignees.js';
import { createPrototype } from './fields/custom-fields.js';
import { attachProjectCustomField } from './fields/project-custom-fields.js';
import { addFieldValue } from './fields/project-fields.js';
import { getIssue } from './get-issue.js';
import { loadIssueViews } from './issue-view.js';

/**
 * One issue read by its readable id (on PostgreSQL one statement with its values as JSON and the
 * project's fields remembered under the vocabulary epoch, issue-view-pg.ts) gives the same view
 * as the read of issues by database id (fields and values in statements of their own), for
 * every viewer, and a change to the fields from anywhere is seen on the next read.
 */
describe('the one-issue read', () => {
  let orm: Orm;
  let root: Actor;
  let dev: Actor;
  let observer: Actor;

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'VEW', name: 'Views' });
    await createProject(fork(orm), root, { shortName: 'BARE', name: 'Bare' });
    dev = await userWithRole(orm, 'v_dev', 'Developer', 'VEW');
    observer = await userWithRole(orm, 'v_obs', 'Observer', 'VEW');
    await addProjectAssignee(fork(orm), root, 'VEW', 'v_dev');
    await addFieldValue(fork(orm), root, 'VEW', 'Fix versions', { name: '1.0' });
    await addFieldValue(fork(orm), root, 'VEW', 'Fix versions', { name: '2.0' });
    await createPrototype(fork(orm), root, { name: 'Customer', type: 'string', isPrivate: true });
    await attachProjectCustomField(fork(orm), root, 'VEW', 'Customer', {});
    for (let i = 1; i <= 3; i++) await createIssue(fork(orm), root, { project: 'VEW', summary: `view ${i}` });
    await createIssue(fork(orm), root, { project: 'BARE', summary: 'bare' });
    await executeCommand(
      fork(orm),
      dev,
      ['VEW-1'],
      'Priority Critical Assignee v_dev Fix versions 2.0 Fix versions 1.0 Customer Acme tag urgent relates to VEW-2',
    );
    await executeCommand(fork(orm), dev, ['VEW-1'], 'star vote');
    await addComment(fork(orm), dev, 'VEW-1', 'a comment');
  });
  afterAll(() => orm.close(true));

  const byDbId = async (actor: Actor, id: string) => {
    const view = await getIssue(fork(orm), actor, id);
    const [again] = await loadIssueViews(fork(orm), actor, [view.dbId]);
    return { view, again };
  };

  it('reads fields with several values, users, private fields, counts, tags, links and the updater alike', async () => {
    for (const actor of [root, dev, observer]) {
      const { view, again } = await byDbId(actor, 'VEW-1');
      expect(view).toEqual(again);
    }
    const { view } = await byDbId(dev, 'VEW-1');
    const values = (name: string) => view.fields.find((f) => f.name === name)?.values;
    expect(values('Fix versions')?.map((v) => v.name)).toEqual(['1.0', '2.0']);
    expect(values('Assignee')).toEqual([{ name: 'v_dev', fullName: expect.any(String) }]);
    expect(values('Customer')).toEqual([{ name: 'Acme' }]);
    expect(values('State')?.[0]).toMatchObject({ resolved: false });
    expect(view).toMatchObject({ stars: 1, starredByMe: true, votes: 1, votedByMe: true });
    expect(view.updater?.login).toBe('v_dev');
    // `star` tags the issue with the viewer's own Star tag.
    expect(view.tags.map((t) => t.name)).toEqual(['Star', 'urgent']);
    expect(view.links.map((l) => l.issue.id)).toEqual(['VEW-2']);
    expect(view.comments.map((c) => c.text)).toEqual(['a comment']);
    // The private field is left out for a viewer without PRIVATE_READ_ISSUE.
    const seen = (await getIssue(fork(orm), observer, 'VEW-1')).fields.map((f) => f.name);
    expect(seen).not.toContain('Customer');
    expect(seen).toContain('Fix versions');
  });

  it('reads an issue without values and its empty fields alike', async () => {
    for (const id of ['VEW-3', 'BARE-1']) {
      const { view, again } = await byDbId(root, id);
      expect(view).toEqual(again);
      const assignee = view.fields.find((f) => f.name === 'Assignee');
      expect(assignee).toMatchObject({ values: [], emptyText: 'Unassigned' });
    }
  });

  it('sees a change to the project’s fields made elsewhere (another ORM, plain SQL) on the next read', async () => {
    // Another ORM on the same database stands for another server process (SQLite: the same one).
    const other =
      dialectOf(orm) === 'postgresql'
        ? await createOrm({ kind: 'postgresql', url: String(orm.config.get('clientUrl')), poolSize: 1 })
        : orm;
    const sql = (text: string) => fork(other).getConnection().execute(text, [], 'run');
    const field = async (actor: Actor, name: string) =>
      (await getIssue(fork(orm), actor, 'VEW-3')).fields.find((f) => f.name === name);
    try {
      // Read (and remembered) first.
      expect(await field(root, 'Assignee')).toMatchObject({ emptyText: 'Unassigned' });
      expect(await field(observer, 'Type')).toBeDefined();
      await sql("update project_fields set empty_text = 'Nobody' where name_key = 'assignee'");
      expect(await field(root, 'Assignee')).toMatchObject({ emptyText: 'Nobody' });
      await sql("update custom_fields set is_private = true where name_key = 'type'");
      expect(await field(observer, 'Type')).toBeUndefined();
      expect(await field(root, 'Type')).toBeDefined();
      await sql("update custom_fields set is_private = false where name_key = 'type'");
      expect(await field(observer, 'Type')).toBeDefined();
      await createPrototype(fork(other), root, { name: 'Budget', type: 'string' });
      await attachProjectCustomField(fork(other), root, 'VEW', 'Budget', {});
      expect(await field(root, 'Budget')).toMatchObject({ values: [] });
      const { view, again } = await byDbId(root, 'VEW-3');
      expect(view).toEqual(again);
    } finally {
      await fork(orm)
        .getConnection()
        .execute(
          "update project_fields set empty_text = 'Unassigned' where name_key = 'assignee'",
          [],
          'run',
        );
      if (other !== orm) await other.close(true);
    }
  });

  it('answers an unreadable or missing issue as missing', async () => {
    await expect(getIssue(fork(orm), observer, 'BARE-1')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(getIssue(fork(orm), root, 'VEW-99')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(getIssue(fork(orm), root, 'NOPE-1')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
