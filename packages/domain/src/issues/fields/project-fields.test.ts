import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth/actor.js';
import type { Orm } from '../../orm/open-orm.js';
import { createProject } from '../../projects/projects.js';
import { addProjectAssignee, listProjectAssignees, removeProjectAssignee } from './assignees.js';
import { addFieldValue, listProjectFields } from './project-fields.js';

describe('project fields and assignees', () => {
  let orm: Orm;
  let root: Actor;
  let admin: Actor;
  let dev: Actor;
  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'PF', name: 'Fields' });
    admin = await userWithRole(orm, 'padmin', 'Project Admin', 'PF');
    dev = await userWithRole(orm, 'pdev', 'Developer', 'PF');
  });
  afterAll(() => orm.close(true));

  const values = async (field: string) =>
    (await listProjectFields(fork(orm), root, 'PF')).find((f) => f.name === field)?.values.map((v) => v.name);

  it('adds values after the existing ones (UPDATE_PROJECT), unique per field regardless of case', async () => {
    await addFieldValue(fork(orm), admin, 'PF', 'fix versions', { name: '1.0' });
    await addFieldValue(fork(orm), admin, 'PF', 'Fix versions', { name: '1.1' });
    expect(await values('Fix versions')).toEqual(['1.0', '1.1']);
    const state = await addFieldValue(fork(orm), admin, 'PF', 'State', { name: 'Deployed', resolved: true });
    expect(state).toMatchObject({ name: 'Deployed', resolved: true });
    expect((await values('State'))?.at(-1)).toBe('Deployed');
  });

  it.each([
    ['a duplicate', 'Priority', 'normal', 'ALREADY_EXISTS'],
    ['an unknown field', 'Colour', 'Red', 'NOT_FOUND'],
    ['a user field', 'Assignee', 'someone', 'VALIDATION_FAILED'],
    ['an empty name', 'Subsystem', '  ', 'VALIDATION_FAILED'],
    ["the field's empty text", 'Subsystem', 'No subsystem', 'VALIDATION_FAILED'],
  ])('rejects %s', async (_, field, name, code) => {
    await expect(addFieldValue(fork(orm), admin, 'PF', field, { name })).rejects.toMatchObject({ code });
  });

  it('keeps concurrent additions of one value to one row', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => addFieldValue(fork(orm), admin, 'PF', 'Subsystem', { name: 'Core' })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await values('Subsystem')).toEqual(['Core']);
  });

  it('needs UPDATE_PROJECT', async () => {
    await expect(addFieldValue(fork(orm), dev, 'PF', 'Subsystem', { name: 'X' })).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    await expect(addProjectAssignee(fork(orm), dev, 'PF', 'pdev')).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    const outsider = await userWithRole(orm, 'outsider');
    await expect(listProjectFields(fork(orm), outsider, 'PF')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('adds and removes assignees idempotently', async () => {
    expect(await listProjectAssignees(fork(orm), dev, 'PF')).toEqual([
      { login: 'root', fullName: 'root', isFromGroup: false },
    ]);
    await addProjectAssignee(fork(orm), admin, 'PF', 'PDEV');
    await addProjectAssignee(fork(orm), admin, 'PF', 'pdev');
    expect((await listProjectAssignees(fork(orm), dev, 'PF')).map((u) => u.login)).toEqual(['pdev', 'root']);
    expect(await values('Assignee')).toEqual(['pdev', 'root']);
    await removeProjectAssignee(fork(orm), admin, 'PF', 'pdev');
    await expect(removeProjectAssignee(fork(orm), admin, 'PF', 'pdev')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(addProjectAssignee(fork(orm), admin, 'PF', 'ghost')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await values('Assignee')).toEqual(['root']);
  });
});
