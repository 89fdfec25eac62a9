import {
  type Expression,
  type ExpressionBuilder,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
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
type QueueTable = 'notification_events' | 'notification_messages' | 'webhook_deliveries';
/** The status of a claimed row: what a row is while a worker holds it. */
type Working = 'processing' | 'sending';
/**
 * A status as a literal in the statement (as the partial indexes' conditions name it), typed as
 * one status or the other: Kysely types a column of several tables as any one table's, and each
 * table holds only its own working status.
 */
type Lit<S> = S extends unknown ? RawBuilder<S> : never;
const literal = (status: Working) => sql.lit(status) as Lit<Working>;

/** Pending, or held by a worker whose lease ran out (a row never leased counts as expired). */
const leaseExpired =
  (working: Working) => (eb: ExpressionBuilder<Database, QueueTable>, param: Param<ClaimArgs>) =>
    eb.and([
      eb('status', 'in', [sql.lit<'pending'>('pending'), literal(working)]),
      eb(eb.fn.coalesce('lease_until', sql.lit(0)), '<', param('now')),
    ]);

/**
 * The claim of one queue: the oldest claimable rows (`oldest`, at most `max`) take the working
 * status, a lease and the token, and count an attempt, where they are still `claimable`.
 */
function claimQuery(
  table: QueueTable,
  working: Working,
  claimable: (eb: ExpressionBuilder<Database, QueueTable>, param: Param<ClaimArgs>) => Expression<SqlBool>,
  oldest: (param: Param<ClaimArgs>) => SelectQueryBuilder<Database, never, { id: number }>,
) {
  return prepareWrite((param: Param<ClaimArgs>) =>
    tables
      .updateTable(table)
      .set((eb) => ({
        status: literal(working),
        lease_until: param('leaseUntil'),
        claim_token: param('token'),
        attempts: eb('attempts', '+', sql.lit(1)),
      }))
      .where('id', 'in', oldest(param))
      .where((eb) => claimable(eb, param))
      .returning(['id', 'attempts']),
  );
}

/** A queue claimed in id order, its claimable rows those whose lease expired. */
function inIdOrder(table: 'notification_events' | 'notification_messages', working: Working) {
  const claimable = leaseExpired(working);
  return claimQuery(table, working, claimable, (param) =>
    tables
      .selectFrom(table)
      .select('id')
      .where((eb) => claimable(eb, param))
      .orderBy('id')
      .limit(param('max')),
  );
}

/** Webhook deliveries: due (`lease_until` is also a retry's time) and of an enabled hook. */
const webhookClaim = claimQuery(
  'webhook_deliveries',
  'sending',
  (eb, param) =>
    eb.and([
      eb('status', 'in', [sql.lit<'pending'>('pending'), sql.lit<'sending'>('sending')]),
      eb('lease_until', '<=', param('now')),
    ]),
  (param) =>
    tables
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .select('d.id')
      .where('d.status', 'in', [sql.lit<'pending'>('pending'), sql.lit<'sending'>('sending')])
      .where('d.lease_until', '<=', param('now'))
      .where('w.enabled', '=', sql.lit(true))
      .orderBy('d.lease_until')
      .limit(param('max')),
);

const QUERIES = {
  events: inIdOrder('notification_events', 'processing'),
  messages: inIdOrder('notification_messages', 'sending'),
  webhooks: webhookClaim,
};
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
