import { actorFor, createTestOrm, fork, op, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import { applyCommand } from '../issues/apply-command.js';
import { createIssue } from '../issues/create-issue.js';
import { addFieldValue } from '../issues/fields/project-fields.js';
import { getIssue } from '../issues/get-issue.js';
import { Project } from '../model/project.entity.js';
import type { Orm } from '../orm/open-orm.js';
import { createProject, deleteProject, getReadableProject, listAccessibleProjects } from './projects.js';
import { purgeProject } from './trash.js';

describe('projects', () => {
  let orm: Orm;
  let root: Actor;
  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
  });
  afterAll(() => orm.close(true));

  it('creates a project with the caller as default lead', async () => {
    const p = await createProject(fork(orm), root, { shortName: 'Alpha', name: 'Alpha project' });
    const reread = await fork(orm).findOneOrFail(Project, { id: p.id }, { populate: ['lead'] });
    expect(reread).toMatchObject({
      shortName: 'Alpha',
      shortNameKey: 'ALPHA',
      startingNumber: 1,
      nextNumber: 1,
    });
    expect(reread.lead.login).toBe('root');
  });

  it('rejects a duplicate short name in any case and a duplicate name, with 409 codes', async () => {
    await expect(createProject(fork(orm), root, { shortName: 'ALPHA', name: 'Other' })).rejects.toMatchObject(
      {
        code: 'ALREADY_EXISTS',
      },
    );
    await expect(
      createProject(fork(orm), root, { shortName: 'Beta', name: 'alpha PROJECT' }),
    ).rejects.toMatchObject({
      code: 'ALREADY_EXISTS',
    });
  });

  it('rejects an unknown lead without creating anything', async () => {
    await expect(
      createProject(fork(orm), root, { shortName: 'Gamma', name: 'Gamma', leadLogin: 'nobody' }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', issues: [{ field: 'projectLeadLogin' }] });
    expect(await fork(orm).count(Project, { shortNameKey: 'GAMMA' })).toBe(0);
  });

  it('concurrent creation of the same project yields one row and conflicts for the rest', async () => {
    const attempts = await Promise.allSettled(
      Array.from({ length: 8 }, () => createProject(fork(orm), root, { shortName: 'Race', name: 'Race' })),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    for (const a of attempts.filter((x) => x.status === 'rejected')) {
      expect((a as PromiseRejectedResult).reason).toBeInstanceOf(DomainError);
      expect((a as PromiseRejectedResult).reason.code).toBe('ALREADY_EXISTS');
    }
    expect(await fork(orm).count(Project, { shortNameKey: 'RACE' })).toBe(1);
  });

  it('lists only readable projects and hides unreadable ones as not found', async () => {
    await createProject(fork(orm), root, { shortName: 'Own', name: 'Own' });
    const dev = await userWithRole(orm, 'dev1', 'Developer', 'Own');
    const names = (await listAccessibleProjects(fork(orm), dev)).map((p) => p.shortName);
    expect(names).toEqual(['Own']);
    await expect(getReadableProject(fork(orm), dev, 'Alpha')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(deleteProject(fork(orm), dev, 'Own')).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
  });

  it('deleting a project moves it to the trash: it answers as missing, its row stays', async () => {
    await deleteProject(fork(orm), root, 'alpha');
    const after = await actorFor(orm, 'root');
    await expect(getReadableProject(fork(orm), after, 'alpha')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await fork(orm).count(Project, { shortNameKey: 'ALPHA', deletedAt: { $ne: null } })).toBe(1);
    // Deleting it again answers like a missing project.
    await expect(deleteProject(fork(orm), after, 'alpha')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('deletes everything hanging off the project and its issues in one go', async () => {
    await createProject(fork(orm), root, { shortName: 'Doomed', name: 'Doomed' });
    await createProject(fork(orm), root, { shortName: 'Kept', name: 'Kept' });
    await addFieldValue(fork(orm), root, 'Doomed', 'Fix versions', { name: '1.0' });
    await createIssue(fork(orm), root, { project: 'Doomed', summary: 'one' });
    await createIssue(fork(orm), root, { project: 'Doomed', summary: 'two' });
    await createIssue(fork(orm), root, { project: 'Kept', summary: 'kept' });
    await applyCommand(
      fork(orm),
      root,
      ['Doomed-1'],
      [
        op.add('Fix versions', '1.0'),
        op.tag('doom'),
        op.star(),
        op.vote(),
        op.link('Depend', 'Doomed-2'),
        op.link('Relates', 'Kept-1'),
        op.comment(),
      ],
      'bye',
    );
    await applyCommand(fork(orm), root, ['Kept-1'], [op.link('Depend', 'Doomed-2'), op.tag('doom')]);
    const project = await fork(orm).findOneOrFail(Project, { shortNameKey: 'DOOMED' });
    // Every `?` in these statements is the project's id.
    const count = async (sql: string) =>
      Number(
        (
          await fork(orm).execute(
            sql,
            sql
              .split('?')
              .slice(1)
              .map(() => project.id),
          )
        )[0]?.n,
      );
    const issuesOf = 'select id from issues where project_id = ?';
    const dependents = {
      issue_field_values: `select count(*) as n from issue_field_values where issue_id in (${issuesOf})`,
      issue_comments: `select count(*) as n from issue_comments where issue_id in (${issuesOf})`,
      issue_tags: `select count(*) as n from issue_tags where issue_id in (${issuesOf})`,
      issue_stars: `select count(*) as n from issue_stars where issue_id in (${issuesOf})`,
      issue_votes: `select count(*) as n from issue_votes where issue_id in (${issuesOf})`,
      issue_links: `select count(*) as n from issue_links where source_id in (${issuesOf}) or target_id in (${issuesOf})`,
      project_fields: 'select count(*) as n from project_fields where project_id = ?',
      // The project's own bundles (named after it) go with it; `? > 0` only consumes the id.
      bundles: "select count(*) as n from bundles where name_key like 'doomed: %' and ? > 0",
      field_values:
        "select count(*) as n from field_values where bundle_id in (select id from bundles where name_key like 'doomed: %') and ? > 0",
      bundle_users:
        "select count(*) as n from bundle_users where bundle_id in (select id from bundles where name_key like 'doomed: %') and ? > 0",
    };
    for (const [table, sql] of Object.entries(dependents)) expect(await count(sql), table).toBeGreaterThan(0);
    await deleteProject(fork(orm), root, 'doomed');
    // In the trash nothing is removed yet; purging removes it all.
    for (const [table, sql] of Object.entries(dependents)) expect(await count(sql), table).toBeGreaterThan(0);
    await purgeProject(fork(orm), await actorFor(orm, 'root'), 'doomed');
    for (const [table, sql] of Object.entries(dependents)) expect(await count(sql), table).toBe(0);
    expect(await count('select count(*) as n from issues where project_id = ?')).toBe(0);
    // The other project's issue lost its links to the deleted issues, and nothing else.
    const kept = await getIssue(fork(orm), root, 'Kept-1');
    expect(kept.links).toEqual([]);
    expect(kept.tags.map((t) => t.name)).toEqual(['doom']);
  });
});
