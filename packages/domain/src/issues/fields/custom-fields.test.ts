import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth/actor.js';
import { suggestCommand } from '../../commands/suggest.js';
import type { Orm } from '../../orm/open-orm.js';
import { createProject } from '../../projects/projects.js';
import { buildVocabulary } from '../build-vocabulary.js';
import { createIssue } from '../create-issue.js';
import { executeCommand } from '../execute-command.js';
import { findReadableIssue } from '../find-issues.js';
import { getIssue } from '../get-issue.js';
import { searchIssueIds } from '../search/search-issues.js';
import { addBundleValue, createBundle, deleteBundle, deleteBundleValue, getBundle } from './bundles.js';
import { createPrototype, deletePrototype, getPrototype, listPrototypes } from './custom-fields.js';
import { writeIssueFieldValues } from './field-value-texts.js';
import {
  attachProjectCustomField,
  detachProjectCustomField,
  getProjectCustomField,
  listProjectCustomFields,
} from './project-custom-fields.js';

describe('custom fields as data', () => {
  let orm: Orm;
  let root: Actor;
  let dev: Actor;

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'CF', name: 'Custom fields' });
    await createProject(fork(orm), root, { shortName: 'OTHER', name: 'Other' });
    dev = await userWithRole(orm, 'cfdev', 'Developer', 'CF');
    await createIssue(fork(orm), root, { project: 'CF', summary: 'first' });
    await createIssue(fork(orm), root, { project: 'CF', summary: 'second' });
  });
  afterAll(() => orm.close(true));

  it('lists the seeded prototypes with their types and default bundles', async () => {
    const prototypes = await listPrototypes(fork(orm), root);
    expect(prototypes.map((p) => [p.name, p.type, p.defaultBundle, p.autoAttached])).toEqual([
      ['Priority', 'enum[1]', 'Priorities', true],
      ['Type', 'enum[1]', 'Types', true],
      ['State', 'state[1]', 'States', true],
      ['Assignee', 'user[1]', 'Assignees', true],
      ['Subsystem', 'ownedField[1]', 'Subsystems', true],
      ['Fix versions', 'version[*]', 'Versions', true],
    ]);
  });

  it('a new enum field with its own bundle is settable by command, searchable, suggested and shown', async () => {
    await createBundle(fork(orm), root, 'bundle', {
      name: 'Severities',
      values: [{ name: 'Blocker', colorIndex: 3 }, { name: 'Major' }],
    });
    await addBundleValue(fork(orm), root, 'bundle', 'Severities', {
      name: 'Trivial',
      description: 'cosmetic',
    });
    await createPrototype(fork(orm), root, {
      name: 'Severity',
      type: 'enum[1]',
      defaultBundle: 'Severities',
    });
    await attachProjectCustomField(fork(orm), root, 'CF', 'Severity', {});
    expect(await getProjectCustomField(fork(orm), root, 'CF', 'severity')).toEqual({
      name: 'Severity',
      type: 'enum[1]',
      emptyText: '',
      canBeEmpty: true,
      bundle: 'Severities',
      defaultValues: [],
    });
    expect(await listProjectCustomFields(fork(orm), root, 'CF')).toContain('Severity');
    // Field settings are administration: a Developer reads the field through its issues only.
    await expect(listProjectCustomFields(fork(orm), dev, 'CF')).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });

    await executeCommand(fork(orm), dev, ['CF-1'], 'Severity Major');
    const issue = await getIssue(fork(orm), dev, 'CF-1');
    expect(issue.fields.find((f) => f.name === 'Severity')?.values).toEqual([{ name: 'Major' }]);
    expect(await searchIssueIds(fork(orm), dev, 'Severity: Major')).toEqual(['CF-1']);
    expect(await searchIssueIds(fork(orm), dev, '#Blocker')).toEqual([]);

    const vocabulary = await buildVocabulary(fork(orm), dev, ['CF-2']);
    const severity = vocabulary.fields.find((f) => f.name === 'Severity');
    expect(severity?.values.map((v) => v.name)).toEqual(['Blocker', 'Major', 'Trivial']);
    const offered = suggestCommand('Severity Tr', 11, vocabulary, 10).map((s) => s.option);
    expect(offered).toContain('Trivial');
    // The other project does not have the field.
    await createIssue(fork(orm), root, { project: 'OTHER', summary: 'other' });
    await expect(executeCommand(fork(orm), root, ['OTHER-1'], 'Severity Major')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  it('refuses to remove a value or bundle in use, and a prototype attached to projects', async () => {
    await expect(deleteBundleValue(fork(orm), root, 'bundle', 'Severities', 'Major')).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('used by 1 issue'),
    });
    await deleteBundleValue(fork(orm), root, 'bundle', 'Severities', 'Trivial');
    expect((await getBundle(fork(orm), root, 'bundle', 'severities')).values).toEqual([
      { name: 'Blocker', description: '', colorIndex: 3 },
      { name: 'Major', description: '' },
    ]);
    await expect(deleteBundle(fork(orm), root, 'bundle', 'Severities')).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(deletePrototype(fork(orm), root, 'Severity')).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('simple fields take typed values by command and by the shared field writer', async () => {
    await createPrototype(fork(orm), root, { name: 'Estimation', type: 'period' });
    await createPrototype(fork(orm), root, { name: 'Due Date', type: 'date' });
    await createPrototype(fork(orm), root, { name: 'Build number', type: 'integer' });
    await createPrototype(fork(orm), root, { name: 'Notes', type: 'string' });
    for (const name of ['Estimation', 'Due Date', 'Build number', 'Notes'])
      await attachProjectCustomField(fork(orm), root, 'CF', name, {});
    const ref = await findReadableIssue(fork(orm), root, 'CF-2');
    await writeIssueFieldValues(fork(orm), root.userId, [
      {
        ref,
        fields: [
          { field: 'estimation', values: ['1w 2d 3h'] },
          { field: 'Due Date', values: ['2026-11-23'] },
          { field: 'Build number', values: ['42'] },
          { field: 'Notes', values: ['needs a second look'] },
          { field: 'Severity', values: ['Blocker'] },
          { field: 'State', values: ['Fixed'] },
        ],
      },
    ]);
    const issue = await getIssue(fork(orm), root, 'CF-2');
    const value = (name: string) => issue.fields.find((f) => f.name === name)?.values.map((v) => v.name);
    expect(value('Estimation')).toEqual(['1w 2d 3h']);
    expect(value('Due Date')).toEqual([String(Date.UTC(2026, 10, 23))]);
    expect(value('Build number')).toEqual(['42']);
    expect(value('Notes')).toEqual(['needs a second look']);
    expect(value('Severity')).toEqual(['Blocker']);
    expect(issue.resolved).not.toBeNull();
    const rows = await fork(orm).execute<{ number: unknown }[]>(
      "select ifv.number from issue_field_values ifv join project_fields pf on pf.id = ifv.field_id where pf.name = 'Build number'",
    );
    expect(Number(rows[0]?.number)).toBe(42);

    await expect(
      writeIssueFieldValues(fork(orm), root.userId, [
        { ref, fields: [{ field: 'Build number', values: ['4x'] }] },
      ]),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('Build number') });
    await expect(
      writeIssueFieldValues(fork(orm), root.userId, [
        { ref, fields: [{ field: 'Severity', values: ['Huge'] }] },
      ]),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('Severity') });
    await expect(
      writeIssueFieldValues(fork(orm), root.userId, [{ ref, fields: [{ field: 'Nope', values: ['1'] }] }]),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('Nope') });
  });

  it('concurrent creators of one value, bundle or prototype: one succeeds, the others conflict', async () => {
    await createBundle(fork(orm), root, 'versionBundle', { name: 'Race' });
    const outcomes = async (run: () => Promise<unknown>) =>
      (await Promise.allSettled(Array.from({ length: 6 }, run))).map((r) =>
        r.status === 'fulfilled' ? 'ok' : (r.reason as { code?: string }).code,
      );
    const count = (list: (string | undefined)[], what: string) => list.filter((x) => x === what).length;
    const values = await outcomes(() =>
      addBundleValue(fork(orm), root, 'versionBundle', 'Race', { name: '1.0' }),
    );
    expect([count(values, 'ok'), count(values, 'ALREADY_EXISTS')]).toEqual([1, 5]);
    const bundles = await outcomes(() => createBundle(fork(orm), root, 'bundle', { name: 'Racing' }));
    expect([count(bundles, 'ok'), count(bundles, 'ALREADY_EXISTS')]).toEqual([1, 5]);
    const prototypes = await outcomes(() =>
      createPrototype(fork(orm), root, { name: 'Racer', type: 'string' }),
    );
    expect([count(prototypes, 'ok'), count(prototypes, 'ALREADY_EXISTS')]).toEqual([1, 5]);
    expect((await getBundle(fork(orm), root, 'versionBundle', 'Race')).values.map((v) => v.name)).toEqual([
      '1.0',
    ]);
  });

  it('validates prototypes: unknown type names the field, duplicates conflict, writes need the admin grant', async () => {
    await expect(createPrototype(fork(orm), root, { name: 'X', type: 'enum' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      issues: [{ field: 'type' }],
    });
    await expect(createPrototype(fork(orm), root, { name: 'X', type: 'state[*]' })).rejects.toMatchObject({
      issues: [{ field: 'type' }],
    });
    await expect(
      createPrototype(fork(orm), root, { name: 'severity', type: 'enum[1]' }),
    ).rejects.toMatchObject({
      code: 'ALREADY_EXISTS',
    });
    await expect(createPrototype(fork(orm), dev, { name: 'Mine', type: 'string' })).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    const created = await createPrototype(fork(orm), root, { name: 'Component', type: 'ownedField[*]' });
    expect(created).toMatchObject({
      type: 'ownedField[*]',
      defaultBundle: 'Component',
      attachBundlePolicy: 0,
    });
    expect((await getPrototype(fork(orm), root, 'component')).name).toBe('Component');
    await deletePrototype(fork(orm), root, 'Component');
  });

  it('detaching a field drops its issue values and the project-made bundle', async () => {
    await createPrototype(fork(orm), root, { name: 'Phase', type: 'state[1]', attachBundlePolicy: 2 });
    const attached = await attachProjectCustomField(fork(orm), root, 'CF', 'Phase', {});
    expect(attached.bundle).toBe('CF: Phase');
    await detachProjectCustomField(fork(orm), root, 'CF', 'Phase');
    await expect(getBundle(fork(orm), root, 'stateBundle', 'CF: Phase')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await detachProjectCustomField(fork(orm), root, 'CF', 'Severity');
    expect((await getIssue(fork(orm), root, 'CF-1')).fields.some((f) => f.name === 'Severity')).toBe(false);
    // A bundle made by the administrator stays.
    expect((await getBundle(fork(orm), root, 'bundle', 'Severities')).name).toBe('Severities');
  });
});
