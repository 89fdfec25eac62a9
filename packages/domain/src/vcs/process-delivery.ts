import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import type { Orm } from '../orm/open-orm.js';
import { toBool } from '../orm/row-values.js';
import { type Param, perLength, prepareRead } from '../orm/typed-query.js';
import { applyChunk, type ChunkUnit } from './apply-chunk.js';
import { applyReference } from './apply-reference.js';
import { planCommit } from './commit-plan.js';
import { DeliveryContext } from './delivery-context.js';
import type { PushEvent } from './push-event.js';
import { type Claim, completeDeliveries, extendLease } from './queue.js';

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Units per transaction, at most; and how long one transaction may keep taking more. */
export const DEFAULT_CHUNK_UNITS = 500;
export const DEFAULT_CHUNK_BUDGET_MS = 10;
const FIRST_OFFER = 64;
const MIN_OFFER = 8;

export type ProcessOptions = {
  leaseMs: number;
  /**
   * Called after each (commit, issue) unit is committed: progress and fault injection. When
   * given (and `chunkUnits` is not), units commit one by one, so that it sees every commit.
   */
  afterUnit?: (deliveryId: number) => void | Promise<void>;
  /** Called after each committed chunk, per delivery with units in it, with their number. */
  afterChunk?: (deliveryId: number, units: number) => void | Promise<void>;
  /** Most units one transaction applies (default 500; 1 without `afterUnit` is still a chunk). */
  chunkUnits?: number;
  /** A transaction stops taking units after this long, so the process answers requests meanwhile. */
  chunkBudgetMs?: number;
  /**
   * Awaited before each chunk instead of a plain turn of the event loop: how the worker gives
   * way to requests (see `VcsWorkerOptions.busy`).
   */
  pause?: () => Promise<void>;
  /**
   * The reference path: each unit in its own transaction through the command use case
   * (`applyReference`). For comparison in tests; the worker applies chunks.
   */
  oneByOne?: boolean;
};

/** The deliveries and what their processing needs of their integration, with one prepared read. */
const deliveriesQuery = perLength((count) =>
  prepareRead((param: Param<{ ids: number[] }>) =>
    tables
      .selectFrom('vcs_deliveries as d')
      .innerJoin('vcs_integrations as i', 'i.id', 'd.integration_id')
      .select([
        'd.id',
        'd.payload',
        'i.id as integration_id',
        'i.branches',
        'i.service_user_id',
        'i.committers_role_id',
        'i.require_pusher_match',
      ])
      .where('d.id', 'in', param.list('ids', count)),
  ),
);

/** Applies one claimed delivery (see `processDeliveries`). */
export async function processDelivery(
  orm: Orm,
  claim: Claim,
  options: ProcessOptions,
): Promise<'done' | 'lost'> {
  return (await processDeliveries(orm, [claim], options)).get(claim.id) ?? 'lost';
}

/**
 * Applies claimed deliveries, in order, in chunks of units (a chunk may span deliveries),
 * each chunk in one transaction (see `applyChunk`), yielding to the event loop between chunks
 * and renewing the leases as it goes. Deliveries of one integration share the lookups of
 * committers, actors, vocabularies and issues. Safe to run again from the start after a
 * crash: every unit is deduplicated. Per delivery: 'lost' when its lease was taken over (or
 * it vanished with its integration); its remaining units are then left to the new owner.
 */
export async function processDeliveries(
  orm: Orm,
  claims: readonly Claim[],
  options: ProcessOptions,
): Promise<Map<number, 'done' | 'lost'>> {
  const em = orm.em.fork() as Em;
  const outcome = new Map<number, 'done' | 'lost'>();
  const rows = new Map(
    (await deliveriesQuery(claims.length).all(em, { ids: claims.map((c) => c.id) })).map((row) => [
      Number(row.id),
      row,
    ]),
  );
  const contexts = new Map<number, DeliveryContext>();
  const units: ChunkUnit[] = [];
  let live: Claim[] = [];
  for (const claim of claims) {
    const row = rows.get(claim.id);
    if (!row) {
      outcome.set(claim.id, 'lost');
      continue;
    }
    const integration = {
      id: Number(row.integration_id),
      branches: row.branches,
      serviceUserId: Number(row.service_user_id),
      committersRoleId: row.committers_role_id === null ? null : Number(row.committers_role_id),
      requirePusherMatch: toBool(row.require_pusher_match),
    };
    const push = JSON.parse(row.payload) as PushEvent;
    let shared = contexts.get(integration.id);
    if (!shared) {
      shared = await DeliveryContext.load(em, claim.id, integration, push);
      contexts.set(integration.id, shared);
    }
    const ctx = shared.deliveryId === claim.id ? shared : shared.forDelivery(claim.id, push);
    for (const commit of push.commits)
      for (const ref of planCommit(commit, integration.branches).references) units.push({ ctx, commit, ref });
    live.push(claim);
  }
  for (const shared of contexts.values()) {
    await shared.preloadIssues(
      em,
      units.filter((u) => u.ctx.integrationId === shared.integrationId).map((u) => u.ref.issue),
    );
  }
  const chunkUnits = Math.max(1, options.chunkUnits ?? (options.afterUnit ? 1 : DEFAULT_CHUNK_UNITS));
  const budgetMs = options.chunkBudgetMs ?? DEFAULT_CHUNK_BUDGET_MS;
  let renewedAt = Date.now();
  // A chunk stops at its time budget; its units (and their issues' command state) are looked up
  // before it starts. Offer about twice what the last one took, so a slow moment does not
  // make every chunk load the state of hundreds of issues it will not reach.
  let offer = Math.min(chunkUnits, FIRST_OFFER);
  let pending = units;
  while (pending.length > 0) {
    // SQLite answers synchronously, so a chunk never waits on I/O: without this turn of the
    // event loop a long push would hold the process and every request (hooks included) waits.
    await (options.pause ? options.pause() : yieldToEventLoop());
    let applied = 1;
    const unit = pending[0] as ChunkUnit;
    if (options.oneByOne) await applyReference(orm.em.fork() as Em, unit.ctx, unit.commit, unit.ref);
    else {
      applied = await applyChunk(orm.em.fork() as Em, pending.slice(0, offer), { budgetMs });
      offer = Math.min(chunkUnits, Math.max(MIN_OFFER, applied * 2));
    }
    const done = pending.slice(0, applied);
    pending = pending.slice(applied);
    for (const id of new Set(done.map((u) => u.ctx.deliveryId))) {
      const count = done.filter((u) => u.ctx.deliveryId === id).length;
      await options.afterChunk?.(id, count);
      for (let i = 0; i < count; i++) await options.afterUnit?.(id);
    }
    if (Date.now() - renewedAt > options.leaseMs / 3) {
      const kept: Claim[] = [];
      for (const claim of live) {
        if (await extendLease(em, claim, options.leaseMs)) kept.push(claim);
        else outcome.set(claim.id, 'lost');
      }
      if (kept.length < live.length) {
        const ours = new Set(kept.map((c) => c.id));
        pending = pending.filter((u) => ours.has(u.ctx.deliveryId));
      }
      live = kept;
      renewedAt = Date.now();
    }
  }
  const completed = await completeDeliveries(em, live);
  for (const claim of live) outcome.set(claim.id, completed.has(claim.id) ? 'done' : 'lost');
  return outcome;
}
