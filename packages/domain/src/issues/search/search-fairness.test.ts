import { actorFor, createTestOrmOnDisk, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth/actor.js';
import type { Orm } from '../../orm/open-orm.js';
import { createProject } from '../../projects/projects.js';
import { createIssue } from '../create-issue.js';
import {
  runSearchStatement,
  type SearchEngineHandle,
  searchCaller,
  startSearchEngine,
} from './search-engine.js';
import { indexQueuedIssues } from './search-index.js';
import { countIssues, searchIssues } from './search-issues.js';
import { FairQueue } from './search-pool.js';

/**
 * Search fairness (issue 35 item 7, issue 37 item 5): one caller's slow searches sent at once wait
 * in its own queue, and another caller's search is answered meanwhile. Asserted as orderings of
 * answers, never as times: a slow statement here is one that computes for a while (SQLite: a
 * million-row recursive count, about half a second; PostgreSQL: `pg_sleep`), against searches of a
 * few rows.
 */
describe('FairQueue', () => {
  type Job = { caller: string; n: number };
  const job = (caller: string, n: number): Job => ({ caller, n });

  it('gives a free slot to the caller running the fewest, callers taking turns, none above its share', () => {
    const queue = new FairQueue<Job>(1);
    for (let n = 1; n <= 4; n++) queue.push(job('slow', n));
    queue.push(job('other', 1));
    const first = queue.take();
    expect(first).toEqual(job('slow', 1));
    // `slow` holds its share: the next slot is the other caller's, then nobody's.
    expect(queue.take()).toEqual(job('other', 1));
    expect(queue.take()).toBeUndefined();
    queue.finished(first as Job);
    expect(queue.take()).toEqual(job('slow', 2));
  });

  it('takes callers in turn on ties, and forgets a statement refused while waiting', () => {
    const queue = new FairQueue<Job>(2);
    const a2 = job('a', 2);
    for (const j of [job('a', 1), a2, job('a', 3), job('b', 1), job('b', 2)]) queue.push(j);
    expect(queue.remove(a2)).toBe(true);
    expect(queue.remove(a2)).toBe(false);
    const order = [queue.take(), queue.take(), queue.take(), queue.take(), queue.take()];
    expect(order).toEqual([job('a', 1), job('b', 1), job('a', 3), job('b', 2), undefined]);
    expect(queue.drain()).toEqual([]);
  });
});

describe('one caller’s slow searches do not hold every search worker (the search engine on a file / the search sessions)', () => {
  let orm: Orm;
  let engine: SearchEngineHandle;
  let removeFiles = () => {};
  let flooder: Actor;
  let steady: Actor;
  let slow: { sql: string; params: unknown[] };

  beforeAll(async () => {
    let file: string | undefined;
    ({ orm, file, remove: removeFiles } = await createTestOrmOnDisk());
    const root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'FQ', name: 'Fair queue' });
    for (const n of [1, 2, 3]) await createIssue(fork(orm), root, { project: 'FQ', summary: `issue ${n}` });
    await userWithRole(orm, 'flooder', 'Developer', 'FQ');
    await userWithRole(orm, 'steady', 'Developer', 'FQ');
    flooder = await actorFor(orm, 'flooder');
    steady = await actorFor(orm, 'steady');
    slow = file
      ? {
          sql: 'with recursive r(n) as (select 1 union all select n + 1 from r where n < ?) select count(*) from r',
          params: [1_000_000],
        }
      : { sql: 'select pg_sleep(?)', params: [0.5] };
    if (file) await indexQueuedIssues(fork(orm));
    engine = await startSearchEngine(orm, { file, workers: 2 });
  }, 120_000);
  afterAll(async () => {
    await engine?.stop();
    await orm?.close(true);
    removeFiles();
  });

  /** Starts `task` and notes its name in `answered` when it settles. */
  const noted = (answered: string[], name: string, task: Promise<unknown>) =>
    task.then(
      () => answered.push(name),
      () => answered.push(`${name} failed`),
    );

  it('another user’s search is answered before the flooding user’s first slow search', async () => {
    const answered: string[] = [];
    const floods = [1, 2, 3, 4].map((n) =>
      noted(answered, `slow ${n}`, runSearchStatement(fork(orm), slow, searchCaller(flooder))),
    );
    const other = noted(answered, 'steady: count', countIssues(fork(orm), steady, 'project: FQ'));
    const page = noted(answered, 'steady: page', searchIssues(fork(orm), steady, 'issue'));
    await Promise.all([other, page]);
    // Both of the other user's searches (a count, a page with its text) came first, in either order.
    expect([...answered].sort()).toEqual(['steady: count', 'steady: page']);
    await Promise.all(floods);
    // The flooding user's own statements ran one at a time, in the order sent.
    expect(answered.slice(2)).toEqual(['slow 1', 'slow 2', 'slow 3', 'slow 4']);
  }, 60_000);

  it('a user’s own search waits in that user’s queue, behind that user’s slow statements', async () => {
    const answered: string[] = [];
    const floods = [1, 2].map((n) =>
      noted(answered, `slow ${n}`, runSearchStatement(fork(orm), slow, searchCaller(flooder))),
    );
    const own = noted(answered, 'flooder: count', countIssues(fork(orm), flooder, 'project: FQ'));
    const other = noted(answered, 'steady: count', countIssues(fork(orm), steady, 'project: FQ'));
    await Promise.all([...floods, own, other]);
    // searchIssues/countIssues queue as their caller: the flooder's count came after its first
    // slow statement (its turn), the other user's before any.
    expect(answered[0]).toBe('steady: count');
    expect(answered.indexOf('flooder: count')).toBeGreaterThan(answered.indexOf('slow 1'));
  }, 60_000);
});
