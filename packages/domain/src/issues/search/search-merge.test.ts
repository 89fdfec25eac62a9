import { actorFor, createTestOrm, fork } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth/actor.js';
import { type ImportedIssue, importIssues } from '../../import/import-issues.js';
import type { Orm } from '../../orm/open-orm.js';
import { createProject } from '../../projects/projects.js';
import { addFieldValue } from '../fields/project-fields.js';
import { countIssues, searchIssues } from './search-issues.js';
import { ESTIMATE_LIMIT } from './search-plan.js';

/**
 * Counts over ranges larger than the planner's estimate bound, where SQLite counts by merging
 * the index ranges (`intersect` / `union`, search-plan.ts): answers checked against the data
 * as generated, on both databases.
 */
// Every range of the two-condition queries holds more than the estimate bound: their counts merge.
const ISSUES = Math.ceil((ESTIMATE_LIMIT * 4.2) / 100) * 100;
const STATES = ['Open', 'Fixed', 'Submitted'];
const PRIORITIES = ['Critical', 'Major'];
const TYPES = ['Bug', 'Feature', 'Task', 'Cosmetics'];
type Row = {
  n: number;
  state: string;
  priority: string;
  type: string;
  word: boolean;
  subsystem: boolean;
  versions: boolean;
};
const rows: Row[] = Array.from({ length: ISSUES }, (_, k) => ({
  n: k + 1,
  state: STATES[k % 3] as string,
  priority: PRIORITIES[Math.floor(k / 3) % 2] as string,
  type: TYPES[Math.floor(k / 7) % 4] as string,
  word: k % 5 !== 0,
  subsystem: k % 2 === 0,
  // Two values of a multi-valued field: `has:` lists such an issue twice in its range.
  versions: k % 3 === 0,
}));

describe('counts merged over large ranges', () => {
  let orm: Orm;
  let root: Actor;
  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'MRG', name: 'Merge' });
    await createProject(fork(orm), root, { shortName: 'OTH', name: 'Other' });
    for (const project of ['MRG', 'OTH']) {
      await addFieldValue(fork(orm), root, project, 'Subsystem', { name: 'Core' });
      for (const name of ['1.0', '2.0'])
        await addFieldValue(fork(orm), root, project, 'Fix versions', { name });
    }
    const issue = (r: Row): ImportedIssue => ({
      fields: Object.entries({
        numberInProject: String(r.n),
        summary: `Issue ${r.n} ${r.word ? 'zanzibar' : 'plain'}`,
        created: String(Date.UTC(2020, 0, 1) + r.n),
        reporterName: 'root',
        State: r.state,
        Priority: r.priority,
        Type: r.type,
        ...(r.subsystem ? { Subsystem: 'Core' } : {}),
      })
        .map(([name, value]) => ({ name, values: [value] }))
        .concat(r.versions ? [{ name: 'Fix versions', values: ['1.0', '2.0'] }] : []),
    });
    for (let first = 0; first < ISSUES; first += 100)
      await importIssues(fork(orm), root, {
        project: 'MRG',
        issues: rows.slice(first, first + 100).map(issue),
      });
    // Another project's issues, so that `project:` is a condition of its own.
    await importIssues(fork(orm), root, { project: 'OTH', issues: rows.slice(0, 50).map(issue) });
  }, 120_000);
  afterAll(() => orm.close(true));

  const expected = (test: (r: Row) => boolean) => rows.filter(test);
  it.each<[string, (r: Row) => boolean]>([
    ['project: MRG Priority: Critical State: Open', (r) => r.priority === 'Critical' && r.state === 'Open'],
    ['project: MRG State: Open Type: Bug', (r) => r.state === 'Open' && r.type === 'Bug'],
    ['project: MRG State: Open zanzibar', (r) => r.state === 'Open' && r.word],
    ['project: MRG Priority: Critical #Unresolved', (r) => r.priority === 'Critical' && r.state !== 'Fixed'],
    ['project: MRG and ((State: Open) or (State: Fixed))', (r) => r.state !== 'Submitted'],
    ['project: MRG State: Open, Fixed', (r) => r.state !== 'Submitted'],
    [
      'project: MRG and ((State: Fixed) or (Priority: Major))',
      (r) => r.state === 'Fixed' || r.priority === 'Major',
    ],
    ['project: MRG -Open Priority: Major', (r) => r.state !== 'Open' && r.priority === 'Major'],
    ['project: MRG has: Subsystem Priority: Critical', (r) => r.subsystem && r.priority === 'Critical'],
    ['project: MRG has: {Fix versions} State: Open', (r) => r.versions && r.state === 'Open'],
    ['project: MRG has: {Fix versions}', (r) => r.versions],
    ['project: MRG has: {Fix versions}, Subsystem zanzibar', (r) => r.versions && r.subsystem && r.word],
  ])('%s', async (query, test) => {
    const want = expected(test);
    expect(await countIssues(fork(orm), root, query)).toBe(want.length);
    // Split into slices of issue ids (as the search workers count at scale), summed: the same.
    for (const countSlices of [2, 3])
      expect(await countIssues(fork(orm), root, query, { countSlices })).toBe(want.length);
    const page = await searchIssues(fork(orm), root, query, { max: 50 });
    expect(page.map((i) => i.id)).toEqual(
      want
        .slice(-50)
        .reverse()
        .map((r) => `MRG-${r.n}`),
    );
  });

  it('counts the same without the project condition (other project included)', async () => {
    const both = (r: Row) => r.priority === 'Critical' && r.state === 'Open';
    const inOther = rows.slice(0, 50).filter(both).length;
    expect(await countIssues(fork(orm), root, 'Priority: Critical State: Open')).toBe(
      expected(both).length + inOther,
    );
    expect(await countIssues(fork(orm), root, '(State: Fixed) or (Priority: Major)')).toBe(
      [...rows, ...rows.slice(0, 50)].filter((r) => r.state === 'Fixed' || r.priority === 'Major').length,
    );
    expect(await countIssues(fork(orm), root, '(State: Open) or (State: Fixed)')).toBe(
      expected((r) => r.state !== 'Submitted').length +
        rows.slice(0, 50).filter((r) => r.state !== 'Submitted').length,
    );
  });

  it('counts the values of a single-valued field as one list each, once per issue of a multi-valued one', async () => {
    const all = [...rows, ...rows.slice(0, 50)];
    const count = (query: string, countSlices?: number) =>
      countIssues(fork(orm), root, query, countSlices ? { countSlices } : {});
    for (const countSlices of [undefined, 2]) {
      // State holds one value per issue: the two lists are concatenated.
      expect(await count('State: Open, Fixed', countSlices)).toBe(
        all.filter((r) => r.state !== 'Submitted').length,
      );
      // The same value twice is still one list.
      expect(await count('(State: Open) or (State: Open)', countSlices)).toBe(
        all.filter((r) => r.state === 'Open').length,
      );
      // Fix versions holds both values on a third of the issues: each of them counted once.
      expect(await count('{Fix versions}: 1.0, 2.0', countSlices)).toBe(all.filter((r) => r.versions).length);
    }
  });
});
