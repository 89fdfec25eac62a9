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

/**
 * Several server processes on one PostgreSQL database: each has its own fair order of its own
 * sessions, and a caller's searches sent to both processes at once took a core each (the second
 * user's page p99 69 ms beside four slow searches, 28 ms alone). The caller's statements take turns
 * across processes (an advisory lock per caller, held while one runs); another caller is not held.
 */
describe.runIf(process.env.TRACKLINE_TEST_DB === 'postgres')(
  'one caller’s statements take turns across server processes (PostgreSQL)',
  () => {
    let orm: Orm;
    let other: Orm;
    const engines: SearchEngineHandle[] = [];
    const slow = { sql: 'select pg_sleep(?)', params: [0.4] };
    const quick = { sql: 'select 1', params: [] };

    beforeAll(async () => {
      ({ orm } = await createTestOrmOnDisk());
      // A second process's ORM on the same database, with its own search sessions.
      const { createOrm } = await import('../../model/create-orm.js');
      other = await createOrm({ kind: 'postgresql', url: orm.config.get('clientUrl') as string });
      engines.push(
        await startSearchEngine(orm, { workers: 2 }),
        await startSearchEngine(other, { workers: 2 }),
      );
    }, 120_000);
    afterAll(async () => {
      for (const engine of engines) await engine.stop();
      await other?.close(true);
      await orm?.close(true);
    });

    it('a caller’s second statement on another process waits for its first; another caller’s does not', async () => {
      const answered: string[] = [];
      const mark = (name: string) => () => void answered.push(name);
      const first = runSearchStatement(fork(orm), slow, 'flooder').then(mark('flooder here'));
      // Sent once the first holds its turn (it is sleeping by then).
      await new Promise((resolve) => setTimeout(resolve, 100));
      const second = runSearchStatement(fork(other), quick, 'flooder').then(mark('flooder there'));
      const steady = runSearchStatement(fork(other), quick, 'steady').then(mark('steady there'));
      await Promise.all([first, second, steady]);
      expect(answered).toEqual(['steady there', 'flooder here', 'flooder there']);
    }, 60_000);
  },
);
