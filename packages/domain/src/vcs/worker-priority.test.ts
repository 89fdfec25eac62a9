import {
  createIntegration,
  createTestOrm,
  fork,
  githubPush,
  hookRequest,
  issueSummary,
  setUpVcsScenario,
} from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IVcsIntegration } from '../model/vcs.entity.js';
import { VcsDelivery } from '../model/vcs.entity.js';
import type { Orm } from '../orm/open-orm.js';
import { shareWaitMs } from '../polling/polling-loop.js';
import { receiveHook } from './receive-hook.js';
import { createVcsWorker } from './worker.js';

let orm: Orm;
let integration: IVcsIntegration;

beforeAll(async () => {
  orm = await createTestOrm();
  const root = await setUpVcsScenario(orm);
  ({ integration } = await createIntegration(orm, root));
});
afterAll(() => orm.close(true));

const receive = (key: string, commits: [string, string, string][]) =>
  receiveHook(
    fork(orm),
    integration,
    hookRequest('github', githubPush(commits), { 'X-GitHub-Delivery': key }),
  );
const statusOf = async (id: number) => (await fork(orm).findOneOrFail(VcsDelivery, { id })).status;
/** Lets the worker loop run (timers and I/O), without measuring any time. */
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setTimeout(resolve, 1));
};
const until = async (check: () => Promise<boolean>) => {
  while (!(await check())) await turns(1);
};

describe('the worker gives way to requests', () => {
  it('while busy, keeps to its share: after a slice of work it waits in proportion, then applies when idle', async () => {
    let busy = true;
    // One delivery per slice; a share of 1% makes the wait after any slice (1 ms or more of
    // claiming or applying) last 99 ms or more, unless the requests stop. The first delivery
    // waits too (after its claim), a few seconds at most on a slow database.
    const worker = createVcsWorker(orm, {
      pollMs: 10,
      busy: () => busy,
      share: 0.01,
      maxDeferMs: 600_000,
      claimBatch: 1,
    });
    const first = await receive('busy-1', [['a1'.padEnd(40, '0'), '#TL-1 tag waited', 'alice@example.com']]);
    const second = await receive('busy-1b', [
      ['a2'.padEnd(40, '0'), '#TL-1 tag second', 'alice@example.com'],
    ]);
    worker.start();
    try {
      await until(async () => (await statusOf(first.body.delivery as number)) === 'done');
      // Without the wait the next claim would follow within a turn or two.
      await turns(10);
      expect(await statusOf(second.body.delivery as number)).toBe('pending');
      busy = false;
      worker.kick();
      await until(async () => (await statusOf(second.body.delivery as number)) === 'done');
      expect((await issueSummary(orm, 'TL-1')).tags).toEqual(
        expect.arrayContaining(['alice:waited', 'alice:second']),
      );
    } finally {
      busy = false;
      await worker.stop();
    }
  });

  it('still applies when requests never stop: the wait is bounded', async () => {
    const worker = createVcsWorker(orm, { pollMs: 10, busy: () => true, maxDeferMs: 5 });
    const commits: [string, string, string][] = [1, 2, 3].map((n) => [
      `b${n}`.padEnd(40, '0'),
      `#TL-2 tag always${n}`,
      'alice@example.com',
    ]);
    const receipt = await receive('busy-2', commits);
    worker.start();
    try {
      await until(async () => (await statusOf(receipt.body.delivery as number)) === 'done');
      expect((await issueSummary(orm, 'TL-2')).tags.filter((t) => t.includes('always'))).toEqual([
        'alice:always1',
        'alice:always2',
        'alice:always3',
      ]);
    } finally {
      await worker.stop();
    }
  });

  it('keeps to its share of the time: the wait after a slice of work is in proportion, and bounded', () => {
    expect(shareWaitMs(10, 0.1, 200)).toBeCloseTo(90);
    expect(shareWaitMs(10, 0.5, 200)).toBeCloseTo(10);
    expect(shareWaitMs(10, 1, 200)).toBe(0);
    expect(shareWaitMs(50, 0.1, 200)).toBe(200);
    expect(shareWaitMs(0, 0.1, 200)).toBe(0);
  });
});
