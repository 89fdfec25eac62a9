import { randomSecret } from '../auth/secrets.js';
import type { Em } from '../orm/em.js';
import { returningRows, runStatement } from '../orm/statements.js';

/** A claimed delivery: the token proves the claim is still ours when we write back. */
export type Claim = { id: number; token: string; attempts: number };

// Claimable: pending (not before its retry time) or processing with an expired lease.
const CLAIMABLE = "status in ('pending', 'processing') and coalesce(lease_until, 0) < ?";
/**
 * The ids of the oldest claimable deliveries (now, limit). The status condition is the partial
 * index's own (`vcs_deliveries_claimable_index`, migration 0014), so the planner walks that
 * index in id order and stops at the limit, however many deliveries are done or queued.
 */
export const OLDEST_CLAIMABLE_SQL = `select id from vcs_deliveries where ${CLAIMABLE} order by id limit ?`;

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
  const rows = await returningRows<{ id: number; attempts: number }>(
    em,
    "update vcs_deliveries set status = 'processing', lease_until = ?, claim_token = ?, attempts = attempts + 1 " +
      `where id in (${OLDEST_CLAIMABLE_SQL}) and ${CLAIMABLE} ` +
      'returning id, attempts',
    [now + leaseMs, token, now, Math.max(1, Math.floor(max)), now],
  );
  return rows
    .map((row) => ({ id: Number(row.id), token, attempts: Number(row.attempts) }))
    .sort((a, b) => a.id - b.id);
}

/** Claims the oldest claimable delivery (see `claimDeliveries`). */
export async function claimDelivery(em: Em, leaseMs: number, now = Date.now()): Promise<Claim | null> {
  return (await claimDeliveries(em, leaseMs, 1, now))[0] ?? null;
}

async function updateClaimed(em: Em, claim: Claim, set: string, params: unknown[]): Promise<boolean> {
  const changed = await runStatement(
    em,
    `update vcs_deliveries set ${set} where id = ? and claim_token = ?`,
    [...params, claim.id, claim.token],
  );
  return changed > 0;
}

/** Moves the lease on; false when the claim was lost (expired and taken by another worker). */
export const extendLease = (em: Em, claim: Claim, leaseMs: number) =>
  updateClaimed(em, claim, 'lease_until = ?', [Date.now() + leaseMs]);

export const completeDelivery = (em: Em, claim: Claim) =>
  updateClaimed(
    em,
    claim,
    "status = 'done', lease_until = null, claim_token = null, error = null, finished_at = ?",
    [Date.now()],
  );

/** Back to the queue after an unexpected error, claimable again after `delayMs`. */
export const retryDelivery = (em: Em, claim: Claim, error: string, delayMs: number) =>
  updateClaimed(em, claim, "status = 'pending', lease_until = ?, claim_token = null, error = ?", [
    Date.now() + delayMs,
    error,
  ]);

export const failDelivery = (em: Em, claim: Claim, error: string) =>
  updateClaimed(
    em,
    claim,
    "status = 'failed', lease_until = null, claim_token = null, error = ?, finished_at = ?",
    [error, Date.now()],
  );

/** Marks the claims done in one statement; the ids still ours (the others were taken over). */
export async function completeDeliveries(em: Em, claims: readonly Claim[]): Promise<Set<number>> {
  const byToken = new Map<string, number[]>();
  for (const claim of claims) byToken.set(claim.token, [...(byToken.get(claim.token) ?? []), claim.id]);
  const done = new Set<number>();
  for (const [token, ids] of byToken) {
    const rows = await returningRows<{ id: number }>(
      em,
      "update vcs_deliveries set status = 'done', lease_until = null, claim_token = null, error = null, finished_at = ? " +
        `where claim_token = ? and id in (${ids.map(() => '?').join(', ')}) returning id`,
      [Date.now(), token, ...ids],
    );
    for (const row of rows) done.add(Number(row.id));
  }
  return done;
}
