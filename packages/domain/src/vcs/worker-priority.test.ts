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
import type { Orm } from '../orm/create-orm.js';
import { receiveHook } from './receive-hook.js';
import type { IVcsIntegration } from './vcs.entity.js';
import { VcsDelivery } from './vcs.entity.js';
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
  it('waits while the process is busy, then applies', async () => {
    let busy = true;
    const worker = createVcsWorker(orm, { pollMs: 10, busy: () => busy, maxDeferMs: 600_000 });
    const receipt = await receive('busy-1', [
      ['a1'.padEnd(40, '0'), '#TL-1 tag waited', 'alice@example.com'],
    ]);
    const id = receipt.body.delivery as number;
    worker.start();
    try {
      await turns(20);
      expect(await statusOf(id)).toBe('pending');
      busy = false;
      worker.kick();
      await until(async () => (await statusOf(id)) === 'done');
      expect((await issueSummary(orm, 'TL-1')).tags).toContain('alice:waited');
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
});
