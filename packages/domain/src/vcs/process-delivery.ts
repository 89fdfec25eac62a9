import type { Orm } from '../orm/create-orm.js';
import type { Em } from '../orm/em.js';
import { toBool } from '../orm/row-values.js';
import { readRow } from '../read-models/statements.js';
import { applyChunk, type ChunkUnit } from './apply-chunk.js';
import { applyReference } from './apply-reference.js';
import { planCommit } from './commit-plan.js';
import { DeliveryContext } from './delivery-context.js';
import type { PushEvent } from './push-event.js';
import { type Claim, completeDelivery, extendLease } from './queue.js';

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Units per transaction, at most; and how long one transaction may keep taking more. */
export const DEFAULT_CHUNK_UNITS = 500;
export const DEFAULT_CHUNK_BUDGET_MS = 10;

export type ProcessOptions = {
  leaseMs: number;
  /**
   * Called after each (commit, issue) unit is committed: progress and fault injection. When
   * given (and `chunkUnits` is not), units commit one by one, so that it sees every commit.
   */
  afterUnit?: (deliveryId: number) => void | Promise<void>;
  /** Called after each committed chunk with the number of units it applied. */
  afterChunk?: (deliveryId: number, units: number) => void | Promise<void>;
  /** Most units one transaction applies (default 500; 1 without `afterUnit` is still a chunk). */
  chunkUnits?: number;
  /** A transaction stops taking units after this long, so the process answers requests meanwhile. */
  chunkBudgetMs?: number;
  /**
   * The reference path: each unit in its own transaction through the command use case
   * (`applyReference`). For comparison in tests; the worker applies chunks.
   */
  oneByOne?: boolean;
};

type DeliveryRow = {
  payload: string;
  integration_id: number;
  branches: string;
  service_user_id: number;
  committers_role_id: number | null;
  require_pusher_match: unknown;
};

/** The delivery and what its processing needs of its integration, with one prepared read. */
const DELIVERY_SQL =
  'select d.payload, i.id as integration_id, i.branches, i.service_user_id, i.committers_role_id, ' +
  'i.require_pusher_match from vcs_deliveries d join vcs_integrations i on i.id = d.integration_id where d.id = ?';

/**
 * Applies a claimed delivery in chunks of units, each chunk in one transaction (see
 * `applyChunk`), yielding to the event loop between chunks and renewing the lease as it goes.
 * Safe to run again from the start after a crash: every unit is deduplicated.
 * 'lost' when the lease was taken over (or the delivery vanished with its integration).
 */
export async function processDelivery(
  orm: Orm,
  claim: Claim,
  options: ProcessOptions,
): Promise<'done' | 'lost'> {
  const em = orm.em.fork() as Em;
  const row = await readRow<DeliveryRow>(em, DELIVERY_SQL, [claim.id]);
  if (!row) return 'lost';
  const integration = {
    id: Number(row.integration_id),
    branches: row.branches,
    serviceUserId: Number(row.service_user_id),
    committersRoleId: row.committers_role_id === null ? null : Number(row.committers_role_id),
    requirePusherMatch: toBool(row.require_pusher_match),
  };
  const push = JSON.parse(row.payload) as PushEvent;
  const ctx = await DeliveryContext.load(em, claim.id, integration, push);
  const units: ChunkUnit[] = push.commits.flatMap((commit) =>
    planCommit(commit, integration.branches).references.map((ref) => ({ commit, ref })),
  );
  await ctx.preloadIssues(
    em,
    units.map((unit) => unit.ref.issue),
  );
  const chunkUnits = Math.max(1, options.chunkUnits ?? (options.afterUnit ? 1 : DEFAULT_CHUNK_UNITS));
  const budgetMs = options.chunkBudgetMs ?? DEFAULT_CHUNK_BUDGET_MS;
  let renewedAt = Date.now();
  for (let next = 0; next < units.length; ) {
    // SQLite answers synchronously, so a chunk never waits on I/O: without this turn of the
    // event loop a long push would hold the process and every request (hooks included) waits.
    await yieldToEventLoop();
    let applied = 1;
    const unit = units[next] as ChunkUnit;
    if (options.oneByOne) await applyReference(orm.em.fork() as Em, ctx, unit.commit, unit.ref);
    else {
      const chunk = units.slice(next, next + chunkUnits);
      applied = await applyChunk(orm.em.fork() as Em, ctx, chunk, { budgetMs });
    }
    next += applied;
    await options.afterChunk?.(claim.id, applied);
    for (let i = 0; i < applied; i++) await options.afterUnit?.(claim.id);
    if (Date.now() - renewedAt > options.leaseMs / 3) {
      if (!(await extendLease(em, claim, options.leaseMs))) return 'lost';
      renewedAt = Date.now();
    }
  }
  return (await completeDelivery(em, claim)) ? 'done' : 'lost';
}
