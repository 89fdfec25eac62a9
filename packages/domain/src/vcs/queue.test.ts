import {
  createIntegration,
  createTestOrm,
  fork,
  githubPush,
  hookRequest,
  setUpVcsScenario,
} from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VcsDelivery } from '../model/vcs.entity.js';
import type { Orm } from '../orm/open-orm.js';
import { dialectOf } from '../orm/open-orm.js';
import {
  claimDelivery,
  completeDelivery,
  extendLease,
  failDelivery,
  OLDEST_CLAIMABLE_SQL,
  retryDelivery,
} from './queue.js';
import { receiveHook } from './receive-hook.js';
import { createVcsWorker } from './worker.js';

let orm: Orm;
const ids: number[] = [];

beforeAll(async () => {
  orm = await createTestOrm();
  const { integration } = await createIntegration(orm, await setUpVcsScenario(orm));
  for (const n of [1, 2]) {
    const body = githubPush([[`${n}`.repeat(40), '#TL-1', 'alice@example.com']]);
    const receipt = await receiveHook(
      fork(orm),
      integration,
      hookRequest('github', body, { 'X-GitHub-Delivery': `q${n}` }),
    );
    ids.push(receipt.deliveryId as number);
  }
});
afterAll(() => orm.close(true));

const status = async (id: number) => {
  const d = await fork(orm).findOneOrFail(VcsDelivery, { id });
  return `${d.status}/${d.attempts}`;
};

describe('the delivery queue', () => {
  it('claims oldest first, leases, and hands an expired lease to the next claimer only', async () => {
    const now = Date.now();
    const first = await claimDelivery(fork(orm), 1000, now);
    const second = await claimDelivery(fork(orm), 1000, now);
    expect([first?.id, second?.id]).toEqual(ids);
    expect(await claimDelivery(fork(orm), 1000, now + 999)).toBeNull();
    // The first claimer "died": after its lease, the row is claimed again with a new token.
    const again = await claimDelivery(fork(orm), 1000, now + 1001);
    expect(again?.id).toBe(ids[0]);
    expect(again?.attempts).toBe(2);
    if (!first || !again || !second) throw new Error('claims missing');
    expect(await extendLease(fork(orm), first, 1000)).toBe(false);
    expect(await completeDelivery(fork(orm), first)).toBe(false);
    expect(await status(first.id)).toBe('processing/2');
    expect(await completeDelivery(fork(orm), again)).toBe(true);
    expect(await status(first.id)).toBe('done/2');

    expect(await retryDelivery(fork(orm), second, 'boom', 60_000)).toBe(true);
    expect(await claimDelivery(fork(orm), 1000)).toBeNull();
    const retried = await claimDelivery(fork(orm), 1000, Date.now() + 60_001);
    expect(retried?.id).toBe(second.id);
    if (!retried) throw new Error('no retry claim');
    expect(await failDelivery(fork(orm), retried, 'gave up')).toBe(true);
    expect(await status(second.id)).toBe('failed/2');
  });

  it('a running worker picks up a delivery at once when kicked, and stops cleanly', async () => {
    const worker = createVcsWorker(orm, { pollMs: 60_000 });
    worker.start();
    const integration = (
      await fork(orm).findOneOrFail(VcsDelivery, { id: ids[0] as number }, { populate: ['integration'] })
    ).integration;
    const receipt = await receiveHook(
      fork(orm),
      integration,
      hookRequest('github', githubPush([['7'.repeat(40), '#TL-2', 'alice@example.com']])),
    );
    worker.kick();
    const deadline = Date.now() + 5000;
    while ((await status(receipt.deliveryId as number)) !== 'done/1' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await status(receipt.deliveryId as number)).toBe('done/1');
    await worker.stop();
  });

  it('claims through the partial index of unfinished deliveries, not by sorting the queue', async () => {
    const conn = fork(orm).getConnection();
    const sql = OLDEST_CLAIMABLE_SQL.replace('?', String(Date.now())).replace('?', '50');
    const plan =
      dialectOf(orm) === 'postgresql'
        ? await fork(orm).transactional(async (em) => {
            const ctx = em.getTransactionContext();
            // With two rows any plan is cheap; the question is whether the index can serve the order.
            for (const off of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort'])
              await em.getConnection().execute(`set local ${off} = off`, [], 'run', ctx);
            return em.getConnection().execute<Record<string, string>[]>(`explain ${sql}`, [], 'all', ctx);
          })
        : await conn.execute<Record<string, string>[]>(`explain query plan ${sql}`);
    const text = plan.map((row) => Object.values(row).join(' ')).join('\n');
    expect(text).toContain('vcs_deliveries_claimable_index');
    expect(text.toLowerCase()).not.toContain('temp b-tree');
    expect(text.toLowerCase()).not.toMatch(/\bsort\b/);
  });
});
