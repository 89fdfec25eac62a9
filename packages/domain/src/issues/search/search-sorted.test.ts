import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth/actor.js';
import { type ImportedIssue, importIssues } from '../../import/import-issues.js';
import type { Orm } from '../../orm/open-orm.js';
import { createProject } from '../../projects/projects.js';
import { addFieldValue } from '../fields/project-fields.js';
import { searchIssues } from './search-issues.js';
import { MAX_POSITION_STATEMENTS } from './search-sorted.js';

/**
 * Sorted pages taken apart (search-sorted.ts): by the positions of a single-valued bundle field,
 * and out of a window of the issues by `created` / `updated`. Every page is checked against the
 * order computed here from the generated data: the bundle's order (Priority: Show-stopper first;
 * Subsystem: its values in the order they were added, none last), then the next key, then the
 * newest issue first. `updated` has runs of equal times, so windows end inside ties.
 */
const ISSUES = 400;
const PRIORITIES = ['Show-stopper', 'Critical', 'Major', 'Normal', 'Minor'];
// More subsystems than a sorted page takes one by one (MAX_POSITION_STATEMENTS).
const SUBSYSTEMS = Array.from(
  { length: MAX_POSITION_STATEMENTS + 4 },
  (_, k) => `Part ${String(k + 1).padStart(2, '0')}`,
);
const STATES = ['Open', 'Fixed', 'Submitted'];
const T0 = Date.UTC(2021, 0, 1);
type Row = {
  n: number;
  priority: number;
  subsystem: number | null;
  state: string;
  created: number;
  updated: number;
};
const rows: Row[] = Array.from({ length: ISSUES }, (_, k) => ({
  n: k + 1,
  // Show-stoppers are rare (one in 40), the others in an irregular pattern.
  priority: k % 40 === 7 ? 0 : 1 + (((k * 7) % 11) % 4),
  subsystem: k % 3 === 0 ? null : (((k * 5) % 7) + (k % 5) * 2) % SUBSYSTEMS.length,
  state: STATES[(k * 13) % 3] as string,
  created: T0 + k * 60_000,
  // Runs of three issues updated at the same moment (windows of 2, 20, 200… end inside them), in
  // an order unrelated to their numbers.
  updated: T0 + 10_000_000 + Math.floor(((k * 37) % ISSUES) / 3) * 1000,
}));

type Key = (a: Row, b: Row) => number;
const by =
  (...keys: Key[]): Key =>
  (a, b) => {
    for (const key of keys) {
      const d = key(a, b);
      if (d !== 0) return d;
    }
    return b.n - a.n; // then the newest issue first
  };
const asc =
  (f: (r: Row) => number | null): Key =>
  (a, b) =>
    nullsLast(f(a), f(b), 1);
const desc =
  (f: (r: Row) => number | null): Key =>
  (a, b) =>
    nullsLast(f(a), f(b), -1);
function nullsLast(x: number | null, y: number | null, sign: number): number {
  if (x === y) return 0;
  if (x === null) return 1;
  if (y === null) return -1;
  return sign * (x - y);
}

describe('sorted pages taken apart', () => {
  let orm: Orm;
  let root: Actor;
  let dev: Actor;
  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'SRT', name: 'Sorted' });
    await createProject(fork(orm), root, { shortName: 'OTS', name: 'Other sorted' });
    for (const project of ['SRT', 'OTS'])
      for (const name of SUBSYSTEMS) await addFieldValue(fork(orm), root, project, 'Subsystem', { name });
    const issue = (r: Row): ImportedIssue => ({
      fields: Object.entries({
        numberInProject: String(r.n),
        summary: `Issue ${r.n}`,
        created: String(r.created),
        updated: String(r.updated),
        reporterName: 'root',
        State: r.state,
        Priority: PRIORITIES[r.priority] as string,
        ...(r.subsystem === null ? {} : { Subsystem: SUBSYSTEMS[r.subsystem] as string }),
      }).map(([name, value]) => ({ name, values: [value] })),
    });
    for (let first = 0; first < ISSUES; first += 100)
      await importIssues(fork(orm), root, {
        project: 'SRT',
        issues: rows.slice(first, first + 100).map(issue),
      });
    // Issues of a project `dev` does not read, newest of all: a window holds them too.
    await importIssues(fork(orm), root, {
      project: 'OTS',
      issues: rows
        .slice(0, 60)
        .map((r) => issue({ ...r, updated: r.updated + 99_000_000, created: r.created + 99_000_000 })),
    });
    await userWithRole(orm, 'dev', 'Developer', 'SRT');
    dev = await actorFor(orm, 'dev');
  }, 120_000);
  afterAll(() => orm.close(true));

  const page = async (query: string, skip: number, max: number, sortWindow: number, trace?: string[]) =>
    (await searchIssues(fork(orm), dev, query, { skip, max, sortWindow, ...(trace ? { trace } : {}) })).map(
      (i) => i.id,
    );
  const want = (test: (r: Row) => boolean, order: Key, skip: number, max: number) =>
    rows
      .filter(test)
      .sort(order)
      .slice(skip, skip + max)
      .map((r) => `SRT-${r.n}`);

  const all = () => true;
  const priority = (r: Row) => r.priority;
  const subsystem = (r: Row) => r.subsystem;
  const updated = (r: Row) => r.updated;
  const created = (r: Row) => r.created;
  it.each<[string, (r: Row) => boolean, Key]>([
    ['sort by: Priority asc, updated desc', all, by(asc(priority), desc(updated))],
    ['sort by: Priority desc, updated asc', all, by(desc(priority), asc(updated))],
    [
      'State: Open sort by: Priority, updated desc',
      (r) => r.state === 'Open',
      by(asc(priority), desc(updated)),
    ],
    ['sort by: Subsystem', all, by(asc(subsystem))],
    ['sort by: Subsystem desc, created asc', all, by(desc(subsystem), asc(created))],
    [
      'Priority: -Normal sort by: Subsystem, updated',
      (r) => r.priority !== 3,
      by(asc(subsystem), desc(updated)),
    ],
    ['sort by: updated', all, by(desc(updated))],
    ['sort by: updated asc', all, by(asc(updated))],
    ['State: Fixed sort by: updated asc', (r) => r.state === 'Fixed', by(asc(updated))],
    ['sort by: created asc', all, by(asc(created))],
    ['Priority: {Show-stopper} sort by: updated', (r) => r.priority === 0, by(desc(updated))],
  ])('%s', async (query, test, order) => {
    for (const [skip, max] of [
      [0, 50],
      [0, 7],
      [45, 10],
      [120, 30],
      // Pages that end on a window's last issue (20, 200): ties there run on outside the window.
      [0, 20],
      [150, 50],
    ] as const)
      for (const sortWindow of [20, 200, 20_000])
        expect(
          await page(query, skip, max, sortWindow),
          `skip ${skip} max ${max} window ${sortWindow}`,
        ).toEqual(want(test, order, skip, max));
  });

  it('answers out of a window when it holds the page, and sorts every match when it does not', async () => {
    // The 40 issues updated last are another project's, unreadable: the first window (a tenth,
    // 40 issues) holds none of the page, the second holds it.
    const dense: string[] = [];
    expect(await page('sort by: updated', 0, 10, 400, dense)).toEqual(want(all, by(desc(updated)), 0, 10));
    expect(dense).toEqual(['window 40', 'window 400']);
    // Rare matches: both windows miss them, the sorted statement answers.
    const rare: string[] = [];
    const open = (r: Row) => r.priority === 0 && r.state === 'Open';
    expect(await page('Priority: {Show-stopper} State: Open sort by: updated', 0, 10, 100, rare)).toEqual(
      want(open, by(desc(updated)), 0, 10),
    );
    expect(rare).toEqual(['window 10', 'window 100', 'statement']);
    // A range smaller than the first window: sorted at once.
    const few: string[] = [];
    await page('Priority: {Show-stopper} sort by: updated', 0, 10, 20_000, few);
    expect(few).toEqual(['statement']);
    // Past MAX_POSITION_STATEMENTS positions, the issues of the others are sorted by one statement.
    const spread: string[] = [];
    expect(await page('sort by: Subsystem', 150, 50, 20_000, spread)).toEqual(
      want(all, by(asc(subsystem)), 150, 50),
    );
    expect(spread).toEqual(Array(MAX_POSITION_STATEMENTS + 1).fill('statement'));
    // A caller who reads fewer issues than the first window: sorted at once.
    const reader: string[] = [];
    await page('sort by: updated', 0, 10, 20_000, reader);
    expect(reader).toEqual(['statement']);
    // A Priority sort stops at the first position that completes the page (10 show-stoppers).
    const positions: string[] = [];
    expect(await page('sort by: Priority, updated', 0, 5, 40, positions)).toEqual(
      want(all, by(asc(priority), desc(updated)), 0, 5),
    );
    expect(positions).toEqual(['window 4', 'window 40', 'statement']);
  });
});
