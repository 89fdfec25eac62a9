import { actorFor, createTestOrm, fork, op, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth/actor.js';
import type { Orm } from '../../orm/open-orm.js';
import { createProject } from '../../projects/projects.js';
import { applyCommand } from '../apply-command.js';
import { createIssue } from '../create-issue.js';
import { addFieldValue } from '../fields/project-fields.js';
import { assistSearchQuery } from './query-assist.js';

describe('assistSearchQuery', () => {
  let orm: Orm;
  let root: Actor;
  let dev: Actor;
  const options = async (query: string, actor = dev, caret?: number) =>
    (await assistSearchQuery(fork(orm), actor, { query, caret, optionsLimit: 100 })).items.map(
      (i) => i.option,
    );

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'SP', name: 'Sample Project' });
    await createProject(fork(orm), root, { shortName: 'HID', name: 'Hidden' });
    await userWithRole(orm, 'dev', 'Developer', 'SP');
    dev = await actorFor(orm, 'dev');
    await addFieldValue(fork(orm), root, 'SP', 'Subsystem', { name: 'User Interface' });
    await addFieldValue(fork(orm), root, 'HID', 'Subsystem', { name: 'Classified' });
    await createIssue(fork(orm), root, { project: 'SP', summary: 'one' });
    await createIssue(fork(orm), root, { project: 'HID', summary: 'two' });
    await applyCommand(fork(orm), root, ['HID-1'], [op.tag('rootonly')]);
  });
  afterAll(() => orm.close(true));

  it('completes attribute names at a term start, with ": " as suffix and style field', async () => {
    const result = await assistSearchQuery(fork(orm), dev, { query: 'Sub' });
    const item = result.items.find((i) => i.option === 'Subsystem');
    expect(item).toMatchObject({ styleClass: 'field', suffix: ': ', completionStart: 0, completionEnd: 3 });
    expect(item?.caret).toBe('Subsystem: '.length);
  });

  it('completes several-word attribute names from their first words', async () => {
    expect(await options('Fix v')).toContain('Fix versions');
    expect(await options('reported b')).toContain('reported by');
  });

  it('offers values of the attribute before the colon, braced when they hold spaces', async () => {
    const result = await assistSearchQuery(fork(orm), dev, { query: 'Subsystem: Us' });
    const item = result.items.find((i) => i.option === 'User Interface');
    expect(item).toMatchObject({ styleClass: 'value', prefix: '{', suffix: '} ', completionStart: 11 });
    expect(await options('State: ')).toEqual(
      expect.arrayContaining(['Submitted', 'Fixed', 'Resolved', 'Unresolved']),
    );
  });

  it('offers me for user attributes and fields only, and no built-in account', async () => {
    expect(await options('State: ')).not.toContain('me');
    expect(await options('Priority: ')).not.toContain('me');
    for (const query of ['Assignee: ', 'for: ', 'reported by: ']) {
      const offered = await options(query, root);
      expect(offered).toEqual(expect.arrayContaining(['me', 'root', 'dev']));
      for (const builtIn of ['guest', 'deleted_user', 'system_user']) expect(offered).not.toContain(builtIn);
    }
  });

  it('offers # keywords and values', async () => {
    expect(await options('#Unr')).toContain('Unresolved');
    expect(await options('#Subm')).toContain('Submitted');
  });

  it('offers only what the caller may read: projects, field values, tags', async () => {
    expect(await options('project: ')).toEqual(['SP']);
    expect(await options('project: ', root)).toEqual(['HID', 'SP']);
    expect(await options('Subsystem: ')).not.toContain('Classified');
    expect(await options('tag: ')).toEqual([]);
    expect(await options('tag: ', root)).toContain('rootonly');
  });

  it('uses the caret, not the end of the text', async () => {
    expect(await options('Sta Subsystem: User', dev, 3)).toContain('State');
  });

  it('highlights attribute names as fields and # terms as keywords', async () => {
    const { ranges } = await assistSearchQuery(fork(orm), dev, { query: 'State: Fixed #Unresolved' });
    expect(ranges).toEqual([
      { start: 0, end: 5, style: 'field' },
      { start: 7, end: 12, style: 'value' },
      { start: 13, end: 24, style: 'keyword' },
    ]);
  });

  it('underlines what does not parse or resolve, at its position', async () => {
    const errors = async (query: string) =>
      (await assistSearchQuery(fork(orm), dev, { query })).ranges.filter((r) => r.style === 'error');
    expect(await errors('Color: red')).toEqual([{ start: 0, end: 5, style: 'error' }]);
    expect(await errors('State: Nonsense')).toEqual([{ start: 7, end: 15, style: 'error' }]);
    expect(await errors('(State: Fixed')).toEqual([{ start: 0, end: 1, style: 'error' }]);
    expect(await errors('project: HID')).toEqual([{ start: 9, end: 12, style: 'error' }]);
    expect(await errors('State: Fixed or #Unresolved')).toEqual([]);
  });

  it('completes the whole grammar: has:, dates, sort keys and their order, operators', async () => {
    expect(await options('has: ')).toEqual(
      expect.arrayContaining(['attachments', 'comments', 'star', 'Subsystem']),
    );
    expect(await options('created: ')).toEqual(expect.arrayContaining(['Today', 'This week', 'Last month']));
    expect(await options('sort by: ')).toEqual(expect.arrayContaining(['created', 'votes', 'Priority']));
    expect(await options('sort by: created ')).toEqual(['asc', 'desc']);
    expect(await options('State: Fixed ')).toEqual(expect.arrayContaining(['and', 'or', 'project']));
    expect(await options('rel')).toContain('relates to');
  });

  it('highlights operators, values and text', async () => {
    const { ranges } = await assistSearchQuery(fork(orm), dev, { query: 'crash or -Fixed' });
    expect(ranges).toEqual([
      { start: 0, end: 5, style: 'text' },
      { start: 6, end: 8, style: 'keyword' },
      { start: 9, end: 15, style: 'keyword' },
    ]);
  });
});
