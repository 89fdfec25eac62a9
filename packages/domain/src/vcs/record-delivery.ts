import { sha256Hex } from '../auth/secrets.js';
import type { Em } from '../orm/em.js';
import { returningRows } from '../read-models/statements.js';
import type { HeaderReader } from './hook-request.js';
import type { PushEvent } from './push-event.js';
import { type IVcsDelivery, VcsDelivery } from './vcs.entity.js';

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

/**
 * Stores the delivery as a pending queue row, durably, before the hook is answered, with one
 * statement (`insert … on conflict do nothing returning id`, SQLite 3.35+ and PostgreSQL). The
 * unique (integration, delivery key) index decides between concurrent receivers in any number
 * of processes: the loser inserts nothing and reads the stored row back.
 */
export async function recordDelivery(
  em: Em,
  integrationId: number,
  deliveryKey: string,
  event: string,
  push: PushEvent,
): Promise<{ id: number } | { existing: IVcsDelivery }> {
  const rows = await returningRows<{ id: number }>(
    em,
    'insert into vcs_deliveries (integration_id, delivery_key, event, received_at, status, attempts, ' +
      "commit_count, payload) values (?, ?, ?, ?, 'pending', 0, ?, ?) " +
      'on conflict (integration_id, delivery_key) do nothing returning id',
    [integrationId, deliveryKey, event, Date.now(), push.commits.length, JSON.stringify(push)],
  );
  const row = rows[0];
  if (row) return { id: Number(row.id) };
  return { existing: await em.findOneOrFail(VcsDelivery, { integration: integrationId, deliveryKey }) };
}
