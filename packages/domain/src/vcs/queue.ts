import { type ExpressionBuilder, sql } from 'kysely';
import { randomSecret } from '../auth/secrets.js';
import { type Database, tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { type Param, perLength, prepareRead, prepareWrite } from '../orm/typed-query.js';

/** A claimed delivery: the token proves the claim is still ours when we write back. */
export type Claim = { id: number; token: string; attempts: number };

/**
 * Claimable: pending (not before its retry time) or processing with an expired lease. The
 * statuses are literals, as in the partial index's own condition (migration 0014).
 */
const claimable = (eb: ExpressionBuilder<Database, 'vcs_deliveries'>, now: number) =>
  eb.and([
    eb('status', 'in', [sql.lit<'pending'>('pending'), sql.lit<'processing'>('processing')]),
    eb(eb.fn.coalesce('lease_until', sql.lit(0)), '<', now),
  ]);
const oldestClaimable = (param: Param<{ now: number; max: number }>) =>
  tables
    .selectFrom('vcs_deliveries')
    .select('id')
    .where((eb) => claimable(eb, param('now')))
    .orderBy('id')
    .limit(param('max'));
/**
 * The ids of the oldest claimable deliveries (now, limit). The status condition is the partial
 * index's own (`vcs_deliveries_claimable_index`, migration 0014), so the planner walks that
 * index in id order and stops at the limit, however many deliveries are done or queued.
 */
export const OLDEST_CLAIMABLE_SQL = prepareRead(oldestClaimable).sql;

/**
 * Claims with one lease and token (the condition is repeated outside the subquery: see
 * `claimDeliveries`).
 */
const claimQuery = prepareWrite(
  (param: Param<{ now: number; max: number; leaseUntil: number; token: string }>) =>
    tables
      .updateTable('vcs_deliveries')
      .set((eb) => ({
        status: sql.lit<'processing'>('processing'),
        lease_until: param('leaseUntil'),
        claim_token: param('token'),
        attempts: eb('attempts', '+', sql.lit(1)),
      }))
      .where('id', 'in', oldestClaimable(param))
      .where((eb) => claimable(eb, param('now')))
      .returning(['id', 'attempts']),
);

/**
 * Claims the oldest claimable deliveries (at most `max`) with one lease and token, in one
 * statement that works on SQLite and PostgreSQL. The condition is repeated outside the
 * subquery: on PostgreSQL two workers may pick the same ids, and the loser's UPDATE re-checks
 * each row after the winner commits (and leaves it). Oldest first.
 */
export async function claimDeliveries(
  em: Em,
  leaseMs: number,
  max: number,
  now = Date.now(),
): Promise<Claim[]> {
  const token = randomSecret(18);
  const rows = await claimQuery.returning(em, {
    now,
    max: Math.max(1, Math.floor(max)),
    leaseUntil: now + leaseMs,
    token,
  });
  return rows
    .map((row) => ({ id: Number(row.id), token, attempts: Number(row.attempts) }))
    .sort((a, b) => a.id - b.id);
}

/** Claims the oldest claimable delivery (see `claimDeliveries`). */
export async function claimDelivery(em: Em, leaseMs: number, now = Date.now()): Promise<Claim | null> {
  return (await claimDeliveries(em, leaseMs, 1, now))[0] ?? null;
}

type ClaimArgs = { id: number; token: string };
const claimed = (param: Param<ClaimArgs>) =>
  tables
    .updateTable('vcs_deliveries')
    .where('id', '=', param('id'))
    .where('claim_token', '=', param('token'));

const leaseUpdate = prepareWrite((param: Param<ClaimArgs & { leaseUntil: number }>) =>
  claimed(param).set({ lease_until: param('leaseUntil') }),
);
const doneUpdate = prepareWrite((param: Param<ClaimArgs & { at: number }>) =>
  claimed(param).set({
    status: sql.lit('done'),
    lease_until: null,
    claim_token: null,
    error: null,
    finished_at: param('at'),
  }),
);
const retryUpdate = prepareWrite((param: Param<ClaimArgs & { leaseUntil: number; error: string }>) =>
  claimed(param).set({
    status: sql.lit<'pending'>('pending'),
    lease_until: param('leaseUntil'),
    claim_token: null,
    error: param('error'),
  }),
);
const failUpdate = prepareWrite((param: Param<ClaimArgs & { error: string; at: number }>) =>
  claimed(param).set({
    status: sql.lit('failed'),
    lease_until: null,
    claim_token: null,
    error: param('error'),
    finished_at: param('at'),
  }),
);

const stillOurs = async (changed: Promise<number>) => (await changed) > 0;

/** Moves the lease on; false when the claim was lost (expired and taken by another worker). */
export const extendLease = (em: Em, claim: Claim, leaseMs: number) =>
  stillOurs(leaseUpdate.run(em, { ...claim, leaseUntil: Date.now() + leaseMs }));

export const completeDelivery = (em: Em, claim: Claim) =>
  stillOurs(doneUpdate.run(em, { ...claim, at: Date.now() }));

/** Back to the queue after an unexpected error, claimable again after `delayMs`. */
export const retryDelivery = (em: Em, claim: Claim, error: string, delayMs: number) =>
  stillOurs(retryUpdate.run(em, { ...claim, leaseUntil: Date.now() + delayMs, error }));

export const failDelivery = (em: Em, claim: Claim, error: string) =>
  stillOurs(failUpdate.run(em, { ...claim, error, at: Date.now() }));

/** Marks claims of one token done, per number of claims. */
const doneOfToken = perLength((count) =>
  prepareWrite((param: Param<{ at: number; token: string; ids: number[] }>) =>
    tables
      .updateTable('vcs_deliveries')
      .set({
        status: sql.lit('done'),
        lease_until: null,
        claim_token: null,
        error: null,
        finished_at: param('at'),
      })
      .where('claim_token', '=', param('token'))
      .where('id', 'in', param.list('ids', count))
      .returning('id'),
  ),
);

/** Marks the claims done in one statement; the ids still ours (the others were taken over). */
export async function completeDeliveries(em: Em, claims: readonly Claim[]): Promise<Set<number>> {
  const byToken = new Map<string, number[]>();
  for (const claim of claims) byToken.set(claim.token, [...(byToken.get(claim.token) ?? []), claim.id]);
  const done = new Set<number>();
  for (const [token, ids] of byToken) {
    const rows = await doneOfToken(ids.length).returning(em, { at: Date.now(), token, ids });
    for (const row of rows) done.add(Number(row.id));
  }
  return done;
}
