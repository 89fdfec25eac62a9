import { type ExpressionBuilder, sql } from 'kysely';
import { randomSecret } from '../auth/secrets.js';
import { type Database, tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { type Param, prepareWrite } from '../orm/typed-query.js';

/**
 * Claims on the outbox's three queues, as the VCS queue claims deliveries (`vcs/queue.ts`): one
 * UPDATE … WHERE id IN (oldest claimable) … RETURNING takes a batch with a lease and a token, the
 * condition repeated outside the subquery so that on PostgreSQL a second worker that picked the
 * same ids re-checks each row after the first commits and leaves it. Every write back names the
 * token: a worker whose lease ran out (and whose rows another took) changes nothing.
 */
export type Claim = { id: number; token: string; attempts: number };

type ClaimArgs = { now: number; max: number; leaseUntil: number; token: string };

const eventClaim = prepareWrite((param: Param<ClaimArgs>) => {
  const claimable = (eb: ExpressionBuilder<Database, 'notification_events'>) =>
    eb.and([
      eb('status', 'in', [sql.lit<'pending'>('pending'), sql.lit<'processing'>('processing')]),
      eb(eb.fn.coalesce('lease_until', sql.lit(0)), '<', param('now')),
    ]);
  return tables
    .updateTable('notification_events')
    .set((eb) => ({
      status: sql.lit<'processing'>('processing'),
      lease_until: param('leaseUntil'),
      claim_token: param('token'),
      attempts: eb('attempts', '+', sql.lit(1)),
    }))
    .where(
      'id',
      'in',
      tables
        .selectFrom('notification_events')
        .select('id')
        .where(claimable)
        .orderBy('id')
        .limit(param('max')),
    )
    .where(claimable)
    .returning(['id', 'attempts']);
});

const messageClaim = prepareWrite((param: Param<ClaimArgs>) => {
  const claimable = (eb: ExpressionBuilder<Database, 'notification_messages'>) =>
    eb.and([
      eb('status', 'in', [sql.lit<'pending'>('pending'), sql.lit<'sending'>('sending')]),
      eb(eb.fn.coalesce('lease_until', sql.lit(0)), '<', param('now')),
    ]);
  return tables
    .updateTable('notification_messages')
    .set((eb) => ({
      status: sql.lit<'sending'>('sending'),
      lease_until: param('leaseUntil'),
      claim_token: param('token'),
      attempts: eb('attempts', '+', sql.lit(1)),
    }))
    .where(
      'id',
      'in',
      tables
        .selectFrom('notification_messages')
        .select('id')
        .where(claimable)
        .orderBy('id')
        .limit(param('max')),
    )
    .where(claimable)
    .returning(['id', 'attempts']);
});

/** Webhook deliveries: due (`lease_until` is also a retry's time) and of an enabled hook. */
const webhookClaim = prepareWrite((param: Param<ClaimArgs>) => {
  const claimable = (eb: ExpressionBuilder<Database, 'webhook_deliveries'>) =>
    eb.and([
      eb('status', 'in', [sql.lit<'pending'>('pending'), sql.lit<'sending'>('sending')]),
      eb('lease_until', '<=', param('now')),
    ]);
  return tables
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      status: sql.lit<'sending'>('sending'),
      lease_until: param('leaseUntil'),
      claim_token: param('token'),
      attempts: eb('attempts', '+', sql.lit(1)),
    }))
    .where(
      'id',
      'in',
      tables
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
        .select('d.id')
        .where('d.status', 'in', [sql.lit<'pending'>('pending'), sql.lit<'sending'>('sending')])
        .where('d.lease_until', '<=', param('now'))
        .where('w.enabled', '=', sql.lit(true))
        .orderBy('d.lease_until')
        .limit(param('max')),
    )
    .where(claimable)
    .returning(['id', 'attempts']);
});

const QUERIES = { events: eventClaim, messages: messageClaim, webhooks: webhookClaim };
export type Queue = keyof typeof QUERIES;

/** Claims at most `max` of the oldest claimable rows of a queue for `leaseMs`. */
export async function claimBatch(
  em: Em,
  queue: Queue,
  leaseMs: number,
  max: number,
  now = Date.now(),
): Promise<Claim[]> {
  const token = randomSecret(18);
  const rows = await QUERIES[queue].returning(em, {
    now,
    max: Math.max(1, Math.floor(max)),
    leaseUntil: now + leaseMs,
    token,
  });
  return rows
    .map((r) => ({ id: Number(r.id), token, attempts: Number(r.attempts) }))
    .sort((a, b) => a.id - b.id);
}
