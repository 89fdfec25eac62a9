import type { Orm } from '../orm/create-orm.js';
import type { Em } from '../orm/em.js';
import { applyReference } from './apply-reference.js';
import { planCommit } from './commit-plan.js';
import { DeliveryContext } from './delivery-context.js';
import type { PushEvent } from './push-event.js';
import { type Claim, completeDelivery, extendLease } from './queue.js';
import { VcsDelivery } from './vcs.entity.js';

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export type ProcessOptions = {
  leaseMs: number;
  /** Called after each (commit, issue) unit is committed: progress and fault injection. */
  afterUnit?: (deliveryId: number) => void | Promise<void>;
};

/**
 * Applies a claimed delivery unit by unit, each in its own transaction, renewing the lease
 * as it goes. Safe to run again from the start after a crash: every unit is deduplicated.
 * 'lost' when the lease was taken over (or the delivery vanished with its integration).
 */
export async function processDelivery(
  orm: Orm,
  claim: Claim,
  options: ProcessOptions,
): Promise<'done' | 'lost'> {
  const em = orm.em.fork() as Em;
  const delivery = await em.findOne(VcsDelivery, { id: claim.id }, { populate: ['integration'] });
  if (!delivery) return 'lost';
  const integration = delivery.integration;
  const push = JSON.parse(delivery.payload) as PushEvent;
  const ctx = await DeliveryContext.load(em, delivery.id, integration, push);
  const plans = push.commits.map((commit) => planCommit(commit, integration.branches));
  await ctx.preloadIssues(
    em,
    plans.flatMap((plan) => plan.references.map((ref) => ref.issue)),
  );
  let renewedAt = Date.now();
  for (const { commit, references } of plans) {
    for (const ref of references) {
      // SQLite answers synchronously, so a unit never waits on I/O: without this turn of the
      // event loop a long push would hold the process and every request (hooks included) waits.
      await yieldToEventLoop();
      await applyReference(orm.em.fork() as Em, ctx, commit, ref);
      await options.afterUnit?.(delivery.id);
      if (Date.now() - renewedAt > options.leaseMs / 3) {
        if (!(await extendLease(em, claim, options.leaseMs))) return 'lost';
        renewedAt = Date.now();
      }
    }
  }
  return (await completeDelivery(em, claim)) ? 'done' : 'lost';
}
