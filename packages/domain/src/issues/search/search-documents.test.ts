import { actorFor, createTestOrm, fork, TEST_DIALECT } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth/actor.js';
import { type ImportedIssue, importIssues } from '../../import/import-issues.js';
import type { Em } from '../../orm/em.js';
import type { Orm } from '../../orm/open-orm.js';
import { readRows } from '../../orm/statements.js';
import { createProject } from '../../projects/projects.js';
import { addComment } from '../apply-command.js';
import { createIssue } from '../create-issue.js';
import { updateIssueText } from '../issue-lifecycle.js';
import { runSearchStatement } from './search-engine.js';
import { countIssues, searchIssues } from './search-issues.js';
import { estimateStatement, type Leaf } from './search-plan.js';
import { textLeaf, textPart } from './search-text.js';

/**
 * PostgreSQL keeps the text documents out of line (migration 0055): a row of `issue_search` is its
 * issue id and a pointer into TOAST, so a count over the GIN index visits few heap pages. Every
 * writer keeps them there (import, creation, edits, comments), and every search still reads the
 * words right, those rechecked from the documents too (phrases, words of one column).
 */
describe.skipIf(TEST_DIALECT !== 'postgresql')('text documents out of line (PostgreSQL)', () => {
  let orm: Orm;
  let root: Actor;
  // 150 words that the `english` stemmer keeps apart, about 1,500 bytes of document per issue.
  const filler = (n: number) =>
    Array.from({ length: 150 }, (_, k) => `zq${(n * 151 + k * 7) % 997}word${k}`).join(' ');
  const imported = (n: number): ImportedIssue => ({
    fields: Object.entries({
      numberInProject: String(n),
      summary: n % 4 === 0 ? `Kettle number ${n}` : `Issue number ${n}`,
      created: String(Date.UTC(2022, 0, 1) + n * 60_000),
      reporterName: 'root',
      description: `${n % 2 === 0 ? 'the copper kettle boils' : 'a kettle of copper'} ${filler(n)}`,
    }).map(([name, values]) => ({ name, values: [values] })),
    comments:
      n % 3 === 0
        ? [{ author: 'root', text: `brass whistle ${n}`, created: String(Date.UTC(2022, 0, 2)) }]
        : [],
  });

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'DOC', name: 'Documents' });
    for (let first = 1; first <= 200; first += 100)
      await importIssues(fork(orm), root, {
        project: 'DOC',
        issues: Array.from({ length: 100 }, (_, k) => imported(first + k)),
      });
    // Written one at a time: created, then edited, then commented.
    for (let n = 201; n <= 220; n++) {
      const issue = await createIssue(fork(orm), root, {
        project: 'DOC',
        summary: `Issue number ${n}`,
        description: filler(n),
      });
      await updateIssueText(fork(orm), root, issue.id, { description: `a kettle of copper ${filler(n)}` });
      await addComment(fork(orm), root, issue.id, `brass whistle ${n}`);
    }
  }, 120_000);
  afterAll(() => orm.close(true));

  it('keeps every document in TOAST and the rows small', async () => {
    const [row] = await readRows<{ rows: string; smallest: number; heap: string; toast: string }>(
      fork(orm) as Em,
      "select count(*) as rows, min(pg_column_size(s.doc)) as smallest, pg_relation_size('issue_search') as heap, " +
        "(select pg_relation_size(c.reltoastrelid) from pg_class c where c.oid = 'issue_search'::regclass) as toast " +
        'from issue_search s',
    );
    expect(Number(row?.rows)).toBe(220);
    // Inline, a row would be at least its document: 1,000 bytes and more.
    expect(Number(row?.smallest)).toBeGreaterThan(1000);
    // Out of line, it is under 128 bytes; every version written (edits leave dead ones) counts here.
    expect(Number(row?.heap) / 220).toBeLessThan(300);
    expect(Number(row?.toast)).toBeGreaterThan(220 * 1000);
  });

  const count = (query: string) => countIssues(fork(orm), root, query);
  const ids = async (query: string) =>
    (await searchIssues(fork(orm), root, query, { max: 500 }))
      .map((i) => Number(i.id.slice(4)))
      .sort((a, b) => a - b);
  const numbers = (test: (n: number) => boolean) => Array.from({ length: 220 }, (_, k) => k + 1).filter(test);

  it('counts and pages a word from the documents alone', async () => {
    expect(await count('kettle')).toBe(220);
    expect(await count('copper')).toBe(220);
    expect(await count('whistle')).toBe(numbers((n) => n % 3 === 0 || n > 200).length);
    expect(await ids('brass')).toEqual(numbers((n) => n % 3 === 0 || n > 200));
  });

  it('rechecks phrases and words of one column against the documents', async () => {
    const copperKettle = numbers((n) => n <= 200 && n % 2 === 0);
    expect(await ids('"copper kettle"')).toEqual(copperKettle);
    expect(await count('"copper kettle"')).toBe(copperKettle.length);
    const inSummary = numbers((n) => n <= 200 && n % 4 === 0);
    expect(await ids('summary: kettle')).toEqual(inSummary);
    expect(await count('summary: kettle')).toBe(inSummary.length);
    expect(await count('comments: whistle')).toBe(numbers((n) => n % 3 === 0 || n > 200).length);
    expect(await count('description: whistle')).toBe(0);
  });

  it('sizes a frequent word by the statistics, any other by counting its documents', async () => {
    await readRows(fork(orm) as Em, 'analyze issue_search');
    const estimate = async (em: Em, text: string, limit: number, phrase = false) => {
      const part = textPart(text, phrase);
      if (!part) throw new Error(`no words in ${text}`);
      const { driver } = textLeaf('postgresql', [part]) as Leaf;
      if (!driver) throw new Error('no driver');
      const [row] = await runSearchStatement(em, estimateStatement(driver, limit));
      return Number(row?.[0]);
    };
    const em = fork(orm) as Em;
    expect(await estimate(em, 'kettle', 1000)).toBe(220);
    expect(await estimate(em, 'whistle', 1000)).toBe(86);
    expect(await estimate(em, 'nosuchword', 50)).toBe(0);
    expect(await estimate(em, 'copper kettle', 1000, true)).toBe(100);
    expect(await estimate(em, 'kett*', 1000)).toBe(220);
    // The documents of `kettle` gone, the statistics not yet told: a bound a quarter of its 220
    // documents or less is answered by them, a larger one by counting.
    await em.begin();
    try {
      await readRows(em, "delete from issue_search where doc @@ to_tsquery('english', 'kettle')");
      expect(await estimate(em, 'kettle', 50)).toBe(50);
      expect(await estimate(em, 'kettle', 60)).toBe(0);
      // Phrases and prefixes are always counted.
      expect(await estimate(em, 'kett*', 50)).toBe(0);
      expect(await estimate(em, 'copper kettle', 10, true)).toBe(0);
    } finally {
      await em.rollback();
    }
    expect(await estimate(fork(orm) as Em, 'kettle', 50)).toBe(50);
  });
});
