import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth/actor.js';
import { addUserToGroup, createGroup } from '../../groups/groups.js';
import type { Orm } from '../../orm/open-orm.js';
import { createProject } from '../../projects/projects.js';
import { addProjectAssignee } from './assignees.js';
import { addBundleGroup, updateBundleValue } from './bundles.js';
import { createPrototype } from './custom-fields.js';
import { projectFieldOptions } from './field-options.js';
import {
  attachProjectCustomField,
  detachProjectCustomField,
  getProjectCustomField,
} from './project-custom-fields.js';
import { addFieldValue } from './project-fields.js';

describe('projectFieldOptions', () => {
  let orm: Orm;
  let root: Actor;

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'FO', name: 'Field options' });
    await createProject(fork(orm), root, { shortName: 'HID', name: 'Hidden' });
    await userWithRole(orm, 'zed', 'Developer', 'FO');
    await userWithRole(orm, 'amy', 'Developer', 'FO');
    await addProjectAssignee(fork(orm), root, 'FO', 'zed');
    await createGroup(fork(orm), root, 'Testers');
    await addUserToGroup(fork(orm), root, 'amy', 'Testers');
    const assignee = await getProjectCustomField(fork(orm), root, 'FO', 'Assignee');
    await addBundleGroup(fork(orm), root, assignee.bundle as string, 'Testers');
    const priority = await getProjectCustomField(fork(orm), root, 'FO', 'Priority');
    await updateBundleValue(fork(orm), root, 'bundle', priority.bundle as string, 'Critical', {
      colorIndex: 8,
    });
    await addFieldValue(fork(orm), root, 'FO', 'Fix versions', { name: '1.0' });
  });
  afterAll(() => orm.close(true));

  it('lists the project fields in order, each with the values it may take', async () => {
    const fields = await projectFieldOptions(fork(orm), root, 'fo');
    expect(fields.map((f) => f.name)).toEqual([
      'Priority',
      'Type',
      'State',
      'Assignee',
      'Subsystem',
      'Fix versions',
    ]);
    const priority = fields.find((f) => f.name === 'Priority');
    expect(priority).toMatchObject({ kind: 'enum', multi: false, canBeEmpty: false, emptyText: null });
    expect(priority?.values.map((v) => v.name)).toEqual([
      'Show-stopper',
      'Critical',
      'Major',
      'Normal',
      'Minor',
    ]);
    expect(priority?.values.find((v) => v.name === 'Critical')?.colorIndex).toBe(8);
    expect(priority?.values.find((v) => v.name === 'Major')).not.toHaveProperty('colorIndex');
    const state = fields.find((f) => f.name === 'State');
    expect(state?.values.find((v) => v.name === 'Fixed')?.resolved).toBe(true);
    expect(state?.values.find((v) => v.name === 'Open')?.resolved).toBe(false);
    expect(fields.find((f) => f.name === 'Fix versions')).toMatchObject({
      kind: 'version',
      multi: true,
      emptyText: 'Unscheduled',
      values: [{ name: '1.0', archived: false }],
    });
  });

  it('gives user fields their individual users and the members of their groups, by login', async () => {
    const assignee = (await projectFieldOptions(fork(orm), root, 'FO')).find((f) => f.name === 'Assignee');
    // root leads the project (a lead is an assignee); amy comes with the group Testers.
    expect(assignee?.values.map((v) => v.name)).toEqual(['amy', 'root', 'zed']);
    expect(assignee?.values.every((v) => typeof v.fullName === 'string' && v.fullName.length > 0)).toBe(true);
    expect(assignee?.emptyText).toBe('Unassigned');
  });

  it('lists a private field only to PRIVATE_READ_ISSUE holders in the project', async () => {
    await createPrototype(fork(orm), root, { name: 'Customer', type: 'string', isPrivate: true });
    await attachProjectCustomField(fork(orm), root, 'FO', 'Customer', {});
    try {
      expect((await projectFieldOptions(fork(orm), root, 'FO')).map((f) => f.name)).toContain('Customer');
      // A Developer reads private fields; an Observer does not.
      const zed = await actorFor(orm, 'zed');
      expect((await projectFieldOptions(fork(orm), zed, 'FO')).map((f) => f.name)).toContain('Customer');
      const observer = await userWithRole(orm, 'obs', 'Observer', 'FO');
      expect((await projectFieldOptions(fork(orm), observer, 'FO')).map((f) => f.name)).not.toContain(
        'Customer',
      );
    } finally {
      await detachProjectCustomField(fork(orm), root, 'FO', 'Customer');
    }
  });

  it('answers a project the caller cannot read as missing', async () => {
    const zed = await actorFor(orm, 'zed');
    await expect(projectFieldOptions(fork(orm), zed, 'HID')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(projectFieldOptions(fork(orm), zed, 'NOPE')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await projectFieldOptions(fork(orm), zed, 'FO')).length).toBe(6);
  });
});
