import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import { createTag, updateTag } from '../folders/tags.js';
import type { Orm } from '../orm/open-orm.js';
import { createProject } from '../projects/projects.js';
import { grantRole } from '../users/users.js';
import { buildVocabulary } from './build-vocabulary.js';
import { createIssue } from './create-issue.js';
import { addProjectAssignee } from './fields/assignees.js';
import { addFieldValue } from './fields/project-fields.js';

describe('buildVocabulary', () => {
  let orm: Orm;
  let root: Actor;
  let dev: Actor;
  let reporter: Actor;

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'A', name: 'Alpha' });
    await createProject(fork(orm), root, { shortName: 'B', name: 'Beta' });
    await createProject(fork(orm), root, { shortName: 'C', name: 'Gamma' });
    await userWithRole(orm, 'dev', 'Developer', 'A');
    await grantRole(fork(orm), root, 'dev', 'Developer', 'B');
    await grantRole(fork(orm), root, 'dev', 'Reporter', 'C');
    dev = await actorFor(orm, 'dev');
    reporter = await userWithRole(orm, 'rep', 'Reporter', 'A');
    await addProjectAssignee(fork(orm), root, 'A', 'dev');
    await addFieldValue(fork(orm), root, 'A', 'Fix versions', { name: '1.0' });
    await addFieldValue(fork(orm), root, 'A', 'Fix versions', { name: '2.0' });
    await addFieldValue(fork(orm), root, 'B', 'Fix versions', { name: '2.0' });
    await addFieldValue(fork(orm), root, 'B', 'Fix versions', { name: '3.0' });
    for (const p of ['A', 'B', 'C']) await createIssue(fork(orm), root, { project: p, summary: p });
    await createTag(fork(orm), dev, { name: 'mine' });
    await createTag(fork(orm), reporter, { name: 'reporters-private' });
    const shared = await createTag(fork(orm), root, { name: 'Shared' });
    await updateTag(fork(orm), root, shared.id, { shared: true });
  });
  afterAll(() => orm.close(true));

  const field = (v: Awaited<ReturnType<typeof buildVocabulary>>, name: string) =>
    v.fields.find((f) => f.name === name);

  it('lists the fields, values and assignees of the context issue', async () => {
    const v = await buildVocabulary(fork(orm), dev, ['A-1']);
    expect(v.me).toBe('dev');
    expect(v.fields.map((f) => f.name)).toEqual([
      'Priority',
      'Type',
      'State',
      'Assignee',
      'Subsystem',
      'Fix versions',
    ]);
    expect(field(v, 'State')?.values.find((x) => x.name === 'Fixed')).toEqual({
      name: 'Fixed',
      resolved: true,
    });
    expect(field(v, 'Fix versions')).toMatchObject({ kind: 'version', multi: true, canBeEmpty: true });
    expect(field(v, 'Fix versions')?.values.map((x) => x.name)).toEqual(['1.0', '2.0']);
    expect(field(v, 'Assignee')).toMatchObject({ kind: 'user', emptyText: 'Unassigned', canBeEmpty: true });
    expect(field(v, 'Assignee')?.values).toEqual([
      { name: 'dev', description: 'dev' },
      { name: 'root', description: 'root' },
    ]);
    expect(field(v, 'Priority')).toMatchObject({ canBeEmpty: false });
    expect(v.users.map((u) => u.login)).toEqual(['dev', 'root']);
    expect(v.tags.map((t) => t.name)).toEqual(['mine', 'Shared']);
    expect(v.linkTypes.map((t) => t.outwardName)).toEqual([
      'depends on',
      'duplicates',
      'relates to',
      'parent for',
    ]);
    expect(v.issueIds).toEqual(['C-1', 'B-1', 'A-1']);
    expect(v.can).toEqual({
      update: true,
      link: true,
      comment: true,
      tag: true,
      vote: true,
      star: true,
      delete: true,
      visibility: true,
      work: true,
    });
  });

  it('offers only what applies to every context issue', async () => {
    const v = await buildVocabulary(fork(orm), dev, ['A-1', 'B-1']);
    expect(field(v, 'Fix versions')?.values.map((x) => x.name)).toEqual(['2.0']);
    expect(field(v, 'Assignee')?.values.map((x) => x.name)).toEqual(['root']);
  });

  it('without UPDATE_ISSUE offers no fields; without LINK_ISSUE no link types', async () => {
    const mixed = await buildVocabulary(fork(orm), dev, ['A-1', 'C-1']);
    expect(mixed.fields).toEqual([]);
    expect(mixed.can).toMatchObject({ update: false, link: true, comment: true });
    const rep = await buildVocabulary(fork(orm), reporter, ['A-1']);
    expect(rep.fields).toEqual([]);
    expect(rep.users).toEqual([{ login: 'rep', fullName: 'rep' }]);
    expect(rep.tags.map((t) => t.name)).toEqual(['reporters-private', 'Shared']);
    const observer = await userWithRole(orm, 'obs', 'Observer', 'A');
    const obs = await buildVocabulary(fork(orm), observer, ['A-1']);
    expect(obs).toMatchObject({ fields: [], linkTypes: [], issueIds: [] });
    expect(obs.can).toEqual({
      update: false,
      link: false,
      comment: false,
      tag: true,
      vote: true,
      star: true,
      delete: false,
      visibility: false,
      work: false,
    });
  });

  it('without issue context unites the fields of every project the actor may update', async () => {
    const v = await buildVocabulary(fork(orm), dev, null);
    expect(field(v, 'Fix versions')?.values.map((x) => x.name)).toEqual(['1.0', '2.0', '3.0']);
    expect(v.can.update).toBe(true);
    const rep = await buildVocabulary(fork(orm), reporter, null);
    expect(rep.fields).toEqual([]);
    expect(rep.can.update).toBe(false);
  });

  it('treats unreadable context issues as not found', async () => {
    await expect(buildVocabulary(fork(orm), reporter, ['B-1'])).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
