import { sha256Hex } from '../auth/secrets.js';
import type { Em } from '../orm/em.js';
import { onUniqueViolation } from '../orm/unique.js';
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
 * Stores the delivery as a pending queue row, durably, before the hook is answered. The
 * unique (integration, delivery key) index decides between concurrent receivers in any
 * number of processes: the loser gets the stored row back.
 */
export async function recordDelivery(
  em: Em,
  integrationId: number,
  deliveryKey: string,
  event: string,
  push: PushEvent,
): Promise<{ delivery: IVcsDelivery; created: boolean }> {
  const inserted = await onUniqueViolation(
    async () => {
      const id = await em.insert(VcsDelivery, {
        integration: integrationId,
        deliveryKey,
        event,
        receivedAt: Date.now(),
        status: 'pending',
        leaseUntil: null,
        claimToken: null,
        attempts: 0,
        commitCount: push.commits.length,
        payload: JSON.stringify(push),
        error: null,
        finishedAt: null,
      });
      return { delivery: await em.findOneOrFail(VcsDelivery, { id: Number(id) }), created: true };
    },
    () => null,
  );
  if (inserted) return inserted;
  const existing = await em.findOneOrFail(VcsDelivery, { integration: integrationId, deliveryKey });
  return { delivery: existing, created: false };
}
