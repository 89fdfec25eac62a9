import { sql } from 'kysely';
import { sha256Hex } from '../auth/secrets.js';
import { tables } from '../model/database.js';
import { type IVcsDelivery, VcsDelivery } from '../model/vcs.entity.js';
import type { Em } from '../orm/em.js';
import { type Param, perLength, prepareWrite } from '../orm/typed-query.js';
import { batchByTurn } from '../read-models/batch-by-turn.js';
import type { HeaderReader } from './hook-request.js';
import type { PushEvent } from './push-event.js';

/** Headers that stay the same when a host redelivers (GitHub, GitLab 17.4+, Bitbucket). */
const DELIVERY_HEADERS = ['x-github-delivery', 'idempotency-key', 'x-request-uuid'];

/** The host's delivery id, or (without one) the SHA-256 of the signed bytes. */
export function deliveryKeyOf(header: HeaderReader, signed: Buffer): string {
  for (const name of DELIVERY_HEADERS) {
    const value = header(name)?.trim();
    if (value) return `${name}:${value.slice(0, 160)}`;
  }
  return `sha256:${sha256Hex(signed)}`;
}

type NewDelivery = {
  integrationId: number;
  deliveryKey: string;
  event: string;
  commitCount: number;
  payload: string;
};

/** Inserts `count` deliveries, nothing for a stored (integration, key): one statement per count. */
const insertQuery = perLength((count) =>
  prepareWrite((param: Param<{ rows: readonly NewDelivery[]; now: number }>) =>
    tables
      .insertInto('vcs_deliveries')
      .values(
        Array.from({ length: count }, (_, i) => ({
          integration_id: param.item('rows', i, 'integrationId'),
          delivery_key: param.item('rows', i, 'deliveryKey'),
          event: param.item('rows', i, 'event'),
          received_at: param('now'),
          status: sql.lit('pending'),
          attempts: sql.lit(0),
          commit_count: param.item('rows', i, 'commitCount'),
          payload: param.item('rows', i, 'payload'),
        })),
      )
      .onConflict((oc) => oc.columns(['integration_id', 'delivery_key']).doNothing())
      .returning(['id', 'integration_id', 'delivery_key']),
  ),
);
const keyOf = (integrationId: unknown, deliveryKey: string) => `${integrationId}\n${deliveryKey}`;

/**
 * Stores deliveries with one `insert … on conflict do nothing returning` statement (SQLite
 * 3.35+ and PostgreSQL): each one's new id, or null when its (integration, key) was already
 * stored, by another process or earlier in the same statement (the first of a repeated key wins).
 */
async function insertDeliveries(em: Em, rows: readonly NewDelivery[]): Promise<(number | null)[]> {
  const inserted = await insertQuery(rows.length).returning(em, { rows, now: Date.now() });
  const ids = new Map(inserted.map((r) => [keyOf(r.integration_id, r.delivery_key), Number(r.id)]));
  return rows.map((r) => {
    const key = keyOf(r.integrationId, r.deliveryKey);
    const id = ids.get(key);
    ids.delete(key);
    return id ?? null;
  });
}

/** Deliveries received together share one statement and one commit (see `batchByTurn`). */
const storeDelivery = batchByTurn(insertDeliveries);

/**
 * Stores the delivery as a pending queue row, durably, before the hook is answered, with one
 * statement shared by the deliveries arriving in the same turn of the event loop. The unique
 * (integration, delivery key) index decides between concurrent receivers in any number of
 * processes: the loser inserts nothing and reads the stored row back.
 */
export async function recordDelivery(
  em: Em,
  integrationId: number,
  deliveryKey: string,
  event: string,
  push: PushEvent,
): Promise<{ id: number } | { existing: IVcsDelivery }> {
  const id = await storeDelivery(em, {
    integrationId,
    deliveryKey,
    event,
    commitCount: push.commits.length,
    payload: JSON.stringify(push),
  });
  if (id !== null) return { id };
  // A fork of its own: the caller's entity manager may be shared and must not keep entities.
  const existing = await em.fork().findOneOrFail(VcsDelivery, { integration: integrationId, deliveryKey });
  return { existing };
}
