import { actorFor, createTestOrm, fork } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Orm } from '../orm/open-orm.js';
import { createProject } from '../projects/projects.js';
import { buildVocabulary } from './build-vocabulary.js';
import { createIssue } from './create-issue.js';
import { executeCommand, executionVocabulary } from './execute-command.js';
import { rememberedVocabulary } from './vocabulary-cache.js';

/** Remembered vocabularies are reused only while nothing they are built from has changed. */
describe('remembered command vocabularies', () => {
  let orm: Orm;
  let issue: string;
  beforeAll(async () => {
    orm = await createTestOrm();
    const root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'VC', name: 'Vocabulary' });
    issue = (await createIssue(fork(orm), root, { project: 'VC', summary: 'one' })).id;
  });
  afterAll(() => orm.close(true));

  const vocabulary = async () => executionVocabulary(fork(orm), await actorFor(orm, 'root'), [issue]);
  const priorities = async () =>
    (await vocabulary()).fields.find((f) => f.name === 'Priority')?.values.map((v) => v.name) ?? [];

  it('is the same vocabulary while nothing changed, and a new one with a value added by plain SQL', async () => {
    expect(await vocabulary()).toBe(await vocabulary());
    expect(await priorities()).not.toContain('Blocker');
    await fork(orm)
      .getConnection()
      .execute(
        "insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, released, archived) select pf.bundle_id, 'Blocker', 'blocker', '', 99, false, false, false from project_fields pf join projects p on p.id = pf.project_id where p.short_name_key = 'VC' and pf.name_key = 'priority'",
        [],
        'run',
      );
    expect(await priorities()).toContain('Blocker');
    await executeCommand(fork(orm), await actorFor(orm, 'root'), [issue], 'Priority Blocker');
  });

  it('is never kept from inside a transaction', async () => {
    const root = await actorFor(orm, 'root');
    // A new link type: what is remembered is stale, and inside the transaction nothing is kept.
    await fork(orm)
      .getConnection()
      .execute(
        "insert into issue_link_types (name, name_key, outward_name, inward_name, directed) values ('Trumps', 'trumps', 'trumps', 'is trumped by', true)",
        [],
        'run',
      );
    const [a, b] = await fork(orm).transactional(async (em) => [
      await executionVocabulary(em, root, [issue]),
      await executionVocabulary(em, root, [issue]),
    ]);
    expect(a).not.toBe(b);
    expect(await vocabulary()).not.toBe(a);
  });

  it('a suggestion vocabulary (issueMark) offers an issue the moment it exists, and stays the same object until then', async () => {
    const root = await actorFor(orm, 'root');
    const assist = () =>
      rememberedVocabulary(
        fork(orm),
        `test-assist|${root.userId}`,
        60_000,
        () => buildVocabulary(fork(orm), root, [issue]),
        {
          issueMark: true,
        },
      );
    const first = await assist();
    expect(await assist()).toBe(first);
    const created = (await createIssue(fork(orm), root, { project: 'VC', summary: 'just created' })).id;
    const next = await assist();
    expect(next.issueIds[0]).toBe(created);
    expect(first.issueIds).not.toContain(created);
    // A plain SQL insert (another process, an import) moves the mark as well.
    await fork(orm)
      .getConnection()
      .execute(
        "insert into issues (project_id, number_in_project, summary, description, reporter_id, created_at, updated_at) select project_id, 9999, 'raw', '', reporter_id, created_at, updated_at from issues where id = (select min(id) from issues)",
        [],
        'run',
      );
    expect((await assist()).issueIds[0]).toBe('VC-9999');
    // An execution vocabulary (no issue sample needed to parse) is not rebuilt by new issues.
    const exec = await vocabulary();
    await createIssue(fork(orm), root, { project: 'VC', summary: 'another' });
    expect(await vocabulary()).toBe(exec);
  });
});
