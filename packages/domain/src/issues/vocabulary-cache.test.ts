import { actorFor, createTestOrm, fork } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Orm } from '../orm/open-orm.js';
import { createProject } from '../projects/projects.js';
import { createIssue } from './create-issue.js';
import { executeCommand, executionVocabulary } from './execute-command.js';

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
});
