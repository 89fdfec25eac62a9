import { actorFor, createTestOrm, fork, op, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth/actor.js';
import { FieldValue } from '../../model/field.entity.js';
import type { Orm } from '../../orm/open-orm.js';
import { createProject } from '../../projects/projects.js';
import { grantRole } from '../../users/users.js';
import { applyCommand } from '../apply-command.js';
import { createIssue } from '../create-issue.js';
import { addProjectAssignee } from '../fields/assignees.js';
import { updateValueIn } from '../fields/bundles.js';
import { addFieldValue } from '../fields/project-fields.js';
import { countIssues, searchIssueIds, searchIssues, searchPage } from './search-issues.js';

describe('searchIssues', () => {
  let orm: Orm;
  let root: Actor;
  let dev: Actor;
  const ids = async (query: string, actor = dev, max = 100) =>
    (await searchIssues(fork(orm), actor, query, { max })).map((i) => i.id);

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'SP', name: 'Sample Project' });
    await createProject(fork(orm), root, { shortName: 'OT', name: 'Other' });
    await createProject(fork(orm), root, { shortName: 'HID', name: 'Hidden' });
    await userWithRole(orm, 'dev', 'Developer', 'SP');
    await grantRole(fork(orm), root, 'dev', 'Developer', 'OT');
    dev = await actorFor(orm, 'dev');
    await addProjectAssignee(fork(orm), root, 'SP', 'dev');
    await addFieldValue(fork(orm), root, 'SP', 'Fix versions', { name: '1.0' });
    await addFieldValue(fork(orm), root, 'SP', 'Subsystem', { name: 'User Interface' });
    const create = (project: string, summary: string, description = '', actor = root) =>
      createIssue(fork(orm), actor, { project, summary, description });
    await create('SP', 'Crash on startup', 'The app dies at launch'); // SP-1
    await create('SP', 'Typo in menu', 'Cosmetic 100% wrong_word'); // SP-2
    await create('SP', 'Slow search', '', dev); // SP-3
    await create('OT', 'Other crash'); // OT-1
    await create('HID', 'Hidden crash'); // HID-1
    await applyCommand(
      fork(orm),
      root,
      ['SP-1'],
      [op.set('State', 'Fixed'), op.set('Priority', 'Show-stopper')],
    );
    await applyCommand(
      fork(orm),
      root,
      ['SP-2'],
      [
        op.set('Assignee', 'dev'),
        op.set('Type', 'Cosmetics'),
        op.set('Subsystem', 'User Interface'),
        op.add('Fix versions', '1.0'),
        op.set('State', 'In Progress'),
      ],
    );
    await applyCommand(fork(orm), dev, ['SP-3'], [op.tag('perf work')]);
    await applyCommand(fork(orm), root, ['OT-1'], [op.set('State', "Won't fix"), op.tag('perf work')]);
  });
  afterAll(() => orm.close(true));

  // As `dev`, a Developer in SP and OT (HID is unreadable).
  it.each<[string, string[]]>([
    ['', ['OT-1', 'SP-3', 'SP-2', 'SP-1']],
    ['project: SP', ['SP-3', 'SP-2', 'SP-1']],
    ['project: {Sample Project}', ['SP-3', 'SP-2', 'SP-1']],
    ['project: sp, ot', ['OT-1', 'SP-3', 'SP-2', 'SP-1']],
    ['State: Fixed', ['SP-1']],
    ['state: fixed, {In Progress}', ['SP-2', 'SP-1']],
    ['Priority: {Show-stopper}', ['SP-1']],
    ['Type: Cosmetics', ['SP-2']],
    ['Subsystem: {User Interface}', ['SP-2']],
    ['Subsystem: {No subsystem} project: SP', ['SP-3', 'SP-1']],
    ['Fix versions: 1.0', ['SP-2']],
    ['#Unresolved', ['SP-3', 'SP-2']],
    ['#Resolved', ['OT-1', 'SP-1']],
    ['State: Unresolved', ['SP-3', 'SP-2']],
    ['#Fixed', ['SP-1']],
    ['#{In Progress}', ['SP-2']],
    ['#{perf work}', ['SP-3']],
    ['for: dev', ['SP-2']],
    ['for: me', ['SP-2']],
    ['Assignee: Unassigned project: SP', ['SP-3', 'SP-1']],
    ['#Unassigned project: SP', ['SP-3', 'SP-1']],
    ['reported by: dev', ['SP-3']],
    ['reported by: me', ['SP-3']],
    ['reported by: root project: OT', ['OT-1']],
    ['tag: {perf work}', ['SP-3']],
    ['SP-2', ['SP-2']],
    ['sp-2 SP-3', ['SP-3', 'SP-2']],
    ['crash', ['OT-1', 'SP-1']],
    ['CRASH startup', ['SP-1']],
    ['launch', ['SP-1']],
    ['{on startup}', ['SP-1']],
    ['"on startup"', ['SP-1']],
    ['100%', ['SP-2']],
    ['wrong_word', ['SP-2']],
    ['%', ['OT-1', 'SP-3', 'SP-2', 'SP-1']],
    ['wron*', ['SP-2']],
    ['crash and #Resolved', ['OT-1', 'SP-1']],
    ['crash project: OT', ['OT-1']],
    ['summary: typo', ['SP-2']],
    ['issue id: SP-1, OT-1', ['OT-1', 'SP-1']],
    ['sort by: summary', ['SP-1', 'OT-1', 'SP-3', 'SP-2']],
    ['project: SP sort by: {issue id} asc', ['SP-1', 'SP-2', 'SP-3']],
  ])('%s', async (query, expected) => {
    expect(await ids(query)).toEqual(expected);
  });

  it('uses the viewer: own private tags, readable projects only', async () => {
    // Each user sees their own private tag of the same name.
    expect(await ids('tag: {perf work}', root)).toEqual(['OT-1']);
    expect(await ids('crash', root)).toEqual(['HID-1', 'OT-1', 'SP-1']);
    expect(await ids('project: HID', root)).toEqual(['HID-1']);
    // An unreadable project is reported exactly like a missing one.
    const hidden = await searchIssues(fork(orm), dev, 'project: HID').catch((e) => e);
    const missing = await searchIssues(fork(orm), dev, 'project: NOPE').catch((e) => e);
    expect(hidden.message.replaceAll('HID', 'X')).toBe(missing.message.replaceAll('NOPE', 'X'));
    const nobody = await userWithRole(orm, 'nobody');
    expect(await ids('', nobody)).toEqual([]);
    expect(await countIssues(fork(orm), nobody, 'crash')).toBe(0);
  });

  it.each([
    ['Color: red', /Unknown search attribute \[ Color \] at position 0/],
    ['State: Nonsense', /Unknown value \[ Nonsense \] at position 7 of field \[ State \]/],
    ['State:', /Missing value of \[ State \] at position 0/],
    ['project: NOPE', /Unknown project \[ NOPE \] at position 9/],
    ['for: ghost', /Unknown user \[ ghost \] at position 5/],
    ['tag: nothing', /Unknown tag \[ nothing \] at position 5/],
    ['#nonsense', /Unknown value \[ nonsense \] at position 1/],
    ['{unclosed', /Missing } to close \[ \{unclosed \] at position 0/],
    ['"unclosed', /Missing '"' to close \[ "unclosed \] at position 0/],
    ['oops}', /Unexpected }.* at position 4/],
    ['#', /Missing value after \[ # \] at position 0/],
    [': x', /Missing attribute name before \[ : \] at position 0/],
    ['sort by: colour', /Cannot sort by \[ colour \] at position 9/],
  ])('rejects %s with VALIDATION_FAILED naming the term', async (query, message) => {
    const error = await searchIssues(fork(orm), root, query).catch((e) => e);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(error.message).toMatch(message);
  });

  it('never throws anything but VALIDATION_FAILED on odd input', async () => {
    const odd = [
      "'; drop table issues; --",
      '\\',
      '(((',
      'a:b:c',
      '%_!',
      '#{}',
      ',,,',
      '{}',
      '""',
      'x'.repeat(5000),
      '\u0000',
    ];
    for (const query of odd) {
      const result = await searchIssues(fork(orm), root, query).catch((e) => e);
      if (result instanceof Error) expect(result).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    expect(await countIssues(fork(orm), root, '')).toBe(5);
    expect(await countIssues(fork(orm), dev, '')).toBe(4);
  });

  it('pages newest first with bounded max, and counts', async () => {
    expect((await searchIssues(fork(orm), root, '', { skip: 1, max: 2 })).map((i) => i.id)).toEqual([
      'OT-1',
      'SP-3',
    ]);
    expect(await searchIssues(fork(orm), root, '')).toHaveLength(5);
    expect(searchPage({})).toEqual({ skip: 0, max: 10 });
    expect(searchPage({ skip: -5, max: 100_000 })).toEqual({ skip: 0, max: 500 });
    expect(searchPage({ skip: 2.7, max: 0 })).toEqual({ skip: 2, max: 10 });
    expect(await countIssues(fork(orm), root, 'project: SP #Unresolved')).toBe(2);
    expect(await searchIssueIds(fork(orm), dev, 'crash')).toEqual(['OT-1', 'SP-1']);
    const [full] = await searchIssues(fork(orm), root, 'SP-2');
    expect(full?.fields.find((f) => f.name === 'Assignee')?.values).toEqual([
      { name: 'dev', fullName: 'dev' },
    ]);
  });
});

describe('sort by a bundle field', () => {
  let orm: Orm;
  let root: Actor;
  const ids = async (query: string) =>
    (await searchIssues(fork(orm), root, query, { max: 100 })).map((i) => i.id);

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'ORD', name: 'Ordering' });
    // Twelve versions: by name `r10` < `r12` < `r2`; by bundle position r2 < r10 < r12.
    for (let n = 1; n <= 12; n++)
      await addFieldValue(fork(orm), root, 'ORD', 'Fix versions', { name: `r${n}` });
    // More subsystems than the sort spells out as positions (200): the value rows' positions are read then.
    for (let n = 1; n <= 205; n++)
      await addFieldValue(fork(orm), root, 'ORD', 'Subsystem', { name: `s${n}` });
    for (let n = 1; n <= 4; n++)
      await createIssue(fork(orm), root, { project: 'ORD', summary: `Issue ${n}` });
    const set = (id: string, ops: Parameters<typeof applyCommand>[3]) =>
      applyCommand(fork(orm), root, [id], ops);
    await set('ORD-1', [op.add('Fix versions', 'r10'), op.set('Subsystem', 's100')]);
    // Two versions: the issue sorts by its first in bundle order (r2), not by r12.
    await set('ORD-2', [
      op.add('Fix versions', 'r12'),
      op.add('Fix versions', 'r2'),
      op.set('Subsystem', 's9'),
    ]);
    await set('ORD-3', [op.add('Fix versions', 'r12'), op.set('Subsystem', 's205')]);
  });
  afterAll(() => orm.close(true));

  it.each([
    ['project: ORD sort by: {Fix versions}', ['ORD-2', 'ORD-1', 'ORD-3', 'ORD-4']],
    ['project: ORD sort by: {Fix versions} desc', ['ORD-3', 'ORD-1', 'ORD-2', 'ORD-4']],
    ['project: ORD sort by: Subsystem', ['ORD-2', 'ORD-1', 'ORD-3', 'ORD-4']],
    ['project: ORD sort by: Subsystem desc', ['ORD-3', 'ORD-1', 'ORD-2', 'ORD-4']],
  ])('%s: bundle order, numbers as numbers, issues without a value last', async (query, expected) => {
    expect(await ids(query)).toEqual(expected);
  });

  it('follows a value moved in its bundle', async () => {
    const before = await ids('project: ORD sort by: {Fix versions}');
    expect(before.slice(0, 2)).toEqual(['ORD-2', 'ORD-1']);
    // r2 renamed keeps its position: the sort reads positions, not names.
    const em = fork(orm);
    const r2 = await em.findOneOrFail(FieldValue, { nameKey: 'r2' }, { populate: ['bundle'] });
    await updateValueIn(em, r2.bundle, 'r2', { newName: 'zz' });
    expect(await ids('project: ORD sort by: {Fix versions}')).toEqual(before);
  });
});
