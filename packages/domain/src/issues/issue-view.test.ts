import { actorFor, createTestOrm, fork, op, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import type { Orm } from '../orm/open-orm.js';
import { createProject } from '../projects/projects.js';
import { updateUser } from '../users/user-admin.js';
import { applyCommand } from './apply-command.js';
import { createIssue } from './create-issue.js';
import { addProjectAssignee } from './fields/assignees.js';
import { updateBundleValue } from './fields/bundles.js';
import { createPrototype } from './fields/custom-fields.js';
import { bundleTypeOf } from './fields/field-types.js';
import { attachProjectCustomField, getProjectCustomField } from './fields/project-custom-fields.js';
import { addFieldValue } from './fields/project-fields.js';
import { loadIssueViews, loadReadableIssueView } from './issue-view.js';

const valuesOf = (fields: { name: string; values: { name: string }[] }[], name: string) =>
  fields.find((f) => f.name === name)?.values.map((v) => v.name);

describe('issue views: the values of a field holding several', () => {
  let orm: Orm;
  let root: Actor;
  const ids: number[] = [];

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'ORD', name: 'Order' });
    for (const version of ['1.0', '2.0', '3.0'])
      await addFieldValue(fork(orm), root, 'ORD', 'Fix versions', { name: version });
    await userWithRole(orm, 'zed', 'Developer', 'ORD');
    await userWithRole(orm, 'amy', 'Developer', 'ORD');
    for (const login of ['zed', 'amy']) await addProjectAssignee(fork(orm), root, 'ORD', login);
    await createPrototype(fork(orm), root, { name: 'Reviewers', type: 'user[*]' });
    // Reviewers from the project's assignees (the Assignee field's bundle).
    const assignees = await getProjectCustomField(fork(orm), root, 'ORD', 'Assignee');
    await attachProjectCustomField(fork(orm), root, 'ORD', 'Reviewers', { bundle: assignees.bundle ?? '' });
    for (let i = 1; i <= 3; i++)
      ids.push((await createIssue(fork(orm), root, { project: 'ORD', summary: `issue ${i}` })).dbId);
    // Added one command at a time: each value takes the next slot, so slots run against the
    // bundle's order (3.0, 1.0, 2.0) and against the logins' (zed, amy).
    for (const value of ['3.0', '1.0', '2.0'])
      await applyCommand(fork(orm), root, ['ORD-1'], [op.add('Fix versions', value)]);
    for (const login of ['zed', 'amy'])
      await applyCommand(fork(orm), root, ['ORD-1'], [op.add('Reviewers', login)]);
    for (const value of ['2.0', '1.0'])
      await applyCommand(fork(orm), root, ['ORD-3'], [op.add('Fix versions', value)]);
  });
  afterAll(() => orm.close(true));

  it('come in the bundle order and by login, on a page as for one issue, whatever order they were added in', async () => {
    const page = await loadIssueViews(fork(orm), root, ids);
    expect(page.map((v) => v.id)).toEqual(['ORD-1', 'ORD-2', 'ORD-3']);
    expect(valuesOf(page[0]?.fields ?? [], 'Fix versions')).toEqual(['1.0', '2.0', '3.0']);
    expect(valuesOf(page[0]?.fields ?? [], 'Reviewers')).toEqual(['amy', 'zed']);
    expect(valuesOf(page[1]?.fields ?? [], 'Fix versions')).toEqual([]);
    expect(valuesOf(page[2]?.fields ?? [], 'Fix versions')).toEqual(['1.0', '2.0']);
    for (const view of page)
      expect(view.fields).toEqual((await loadReadableIssueView(fork(orm), root, view.id))?.fields);
  });

  it('show a renamed value and a renamed user on the next page, as one issue does', async () => {
    const before = await loadIssueViews(fork(orm), root, ids);
    expect(valuesOf(before[2]?.fields ?? [], 'Fix versions')).toEqual(['1.0', '2.0']);
    const versions = await getProjectCustomField(fork(orm), root, 'ORD', 'Fix versions');
    await updateBundleValue(fork(orm), root, bundleTypeOf('version'), versions.bundle ?? '', '2.0', {
      newName: '2.5',
    });
    await updateUser(fork(orm), root, 'amy', { fullName: 'Amy Renamed' });
    const page = await loadIssueViews(fork(orm), root, ids);
    expect(valuesOf(page[2]?.fields ?? [], 'Fix versions')).toEqual(['1.0', '2.5']);
    const reviewers = page[0]?.fields.find((f) => f.name === 'Reviewers')?.values;
    expect(reviewers).toEqual([
      { name: 'amy', fullName: 'Amy Renamed' },
      { name: 'zed', fullName: expect.any(String) },
    ]);
    for (const view of page)
      expect(view.fields).toEqual((await loadReadableIssueView(fork(orm), root, view.id))?.fields);
    // Inside a transaction, as creating an issue reads its view: the same values.
    const inside = await fork(orm).transactional((tx) => loadIssueViews(tx, root, ids));
    expect(inside.map((v) => v.fields)).toEqual(page.map((v) => v.fields));
  });
});
