import type { Em } from '../orm/em.js';
import type { Orm } from '../orm/open-orm.js';
import { createPollingLoop } from '../polling/polling-loop.js';
import { processDeliveries } from './process-delivery.js';
import { type Claim, claimDeliveries, failDelivery, retryDelivery } from './queue.js';

export type VcsWorkerOptions = {
  /** How often an idle worker looks for work (a kick wakes it at once). */
  pollMs?: number;
  /** How long a claim holds before another worker may take the delivery over. */
  leaseMs?: number;
  /** Claims of one delivery before it is marked failed. */
  maxAttempts?: number;
  logError?: (error: unknown) => void;
  /** Called right after a claim (fault injection: a crash between store and apply). */
  afterClaim?: (claim: Claim) => void | Promise<void>;
  afterUnit?: (deliveryId: number) => void | Promise<void>;
  /** Called after each committed chunk of units (see `processDelivery`). */
  afterChunk?: (deliveryId: number, units: number) => void | Promise<void>;
  /** Most units per transaction, and how long one may keep taking more (`processDelivery`). */
  chunkUnits?: number;
  chunkBudgetMs?: number;
  /**
   * Whether requests are waiting for or arriving at this process (the API: in flight, or the
   * last five within 10 ms; see its `load-signal.ts`). While it says so, the worker takes at
   * most `share` of the time (default 0.1): after working w ms it waits w × (1 − share) / share
   * ms, each wait at most `maxDeferMs` (default 200) and cut short when the requests stop.
   * Requests (hook acknowledgements first of all) go before applying, and applying still moves
   * on.
   */
  busy?: () => boolean;
  maxDeferMs?: number;
  share?: number;
  /**
   * Deliveries claimed (and applied) at once, oldest first (default 50): small pushes share
   * their lookups and transactions instead of paying them one by one.
   */
  claimBatch?: number;
};

export type VcsWorker = {
  start(): void;
  /** Finishes the unit in progress, then stops; resolves when the loop has exited. */
  stop(): Promise<void>;
  /** Wakes an idle worker now (a delivery was just stored in this process). */
  kick(): void;
  /** Processes deliveries until none is claimable; how many were taken (tests, benchmarks). */
  runUntilIdle(): Promise<number>;
};

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 2000);

/** Applies stored deliveries from the durable queue, a batch of the oldest at a time. */
export function createVcsWorker(orm: Orm, options: VcsWorkerOptions = {}): VcsWorker {
  const pollMs = options.pollMs ?? 100;
  const leaseMs = options.leaseMs ?? 30_000;
  const maxAttempts = options.maxAttempts ?? 5;
  const logError = options.logError ?? console.error;
  const claimBatch = Math.max(1, options.claimBatch ?? 50);
  const loop = createPollingLoop({
    step,
    pollMs,
    logError,
    busy: options.busy,
    share: options.share,
    maxDeferMs: options.maxDeferMs,
  });
  const pause = loop.pause;

  /** Claims and processes a batch of deliveries; how many were claimed (0: nothing was claimable). */
  async function step(): Promise<number> {
    const em = orm.em.fork() as Em;
    const claims = await claimDeliveries(em, leaseMs, claimBatch);
    const work: Claim[] = [];
    for (const claim of claims) {
      await options.afterClaim?.(claim);
      if (claim.attempts > maxAttempts)
        await failDelivery(em, claim, `gave up after ${maxAttempts} attempts`);
      else work.push(claim);
    }
    if (work.length === 0) return claims.length;
    const processOptions = {
      leaseMs,
      ...(options.afterUnit ? { afterUnit: options.afterUnit } : {}),
      ...(options.afterChunk ? { afterChunk: options.afterChunk } : {}),
      ...(options.chunkUnits !== undefined ? { chunkUnits: options.chunkUnits } : {}),
      ...(options.chunkBudgetMs !== undefined ? { chunkBudgetMs: options.chunkBudgetMs } : {}),
      pause,
    };
    /** Every unit is deduplicated: a retry redoes only what did not commit. */
    const retry = (claim: Claim, error: unknown) =>
      retryDelivery(em, claim, errorText(error), Math.min(60_000, 1000 * 2 ** claim.attempts));
    try {
      await processDeliveries(orm, work, processOptions);
    } catch (error) {
      logError(error);
      if (work.length === 1) await retry(work[0] as Claim, error);
      else {
        // One delivery's unexpected error must not count against the others of its batch
        // (attempts, then failure): each is applied again on its own, still under our claim.
        for (const claim of work) {
          try {
            await processDeliveries(orm, [claim], processOptions);
          } catch (alone) {
            logError(alone);
            await retry(claim, alone);
          }
        }
      }
    }
    return claims.length;
  }

  return { start: loop.start, stop: loop.stop, kick: loop.kick, runUntilIdle: loop.runUntilIdle };
}
