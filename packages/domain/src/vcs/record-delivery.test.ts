import { createIntegration, createTestOrm, fork, setUpVcsScenario } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import { VcsDelivery } from '../model/vcs.entity.js';
import type { Orm } from '../orm/open-orm.js';
import { findIntegrationByApiKey } from './integrations.js';
import type { PushEvent } from './push-event.js';
import { recordDelivery } from './record-delivery.js';

let orm: Orm;
let root: Actor;
let integrationId: number;
beforeAll(async () => {
  orm = await createTestOrm();
  root = await setUpVcsScenario(orm);
  integrationId = (await createIntegration(orm, root)).integration.id;
});
afterAll(() => orm.close(true));

const push = (n: number): PushEvent =>
  ({ repository: 'acme/app', ref: 'refs/heads/main', commits: Array(n).fill({}) }) as unknown as PushEvent;
const idOf = (r: { id: number } | { existing: { id: number } }) => ('id' in r ? r.id : r.existing.id);

describe('recordDelivery, several arriving together (one statement)', () => {
  it('stores each as its own pending row with its own id', async () => {
    const recorded = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => recordDelivery(fork(orm), integrationId, `together-${n}`, 'push', push(n))),
    );
    expect(recorded.every((r) => 'id' in r)).toBe(true);
    const rows = await fork(orm).find(
      VcsDelivery,
      { deliveryKey: { $like: 'together-%' } },
      { orderBy: { id: 1 } },
    );
    expect(rows.map((d) => [d.id, d.deliveryKey, d.status, d.commitCount])).toEqual(
      [1, 2, 3, 4, 5].map((n, i) => [idOf(recorded[i] as { id: number }), `together-${n}`, 'pending', n]),
    );
  });

  it('a key repeated in the same statement is stored once: the second is the duplicate of the first', async () => {
    const [first, second] = await Promise.all([
      recordDelivery(fork(orm), integrationId, 'twice', 'push', push(1)),
      recordDelivery(fork(orm), integrationId, 'twice', 'push', push(2)),
    ]);
    expect(first).toEqual({ id: expect.any(Number) });
    expect(second && 'existing' in second && second.existing.id).toBe(idOf(first as { id: number }));
    expect(await fork(orm).count(VcsDelivery, { deliveryKey: 'twice' })).toBe(1);
  });

  it('a key stored earlier answers the stored row, next to new ones', async () => {
    const earlier = await recordDelivery(fork(orm), integrationId, 'again', 'push', push(1));
    const [again, fresh] = await Promise.all([
      recordDelivery(fork(orm), integrationId, 'again', 'push', push(1)),
      recordDelivery(fork(orm), integrationId, 'fresh', 'push', push(1)),
    ]);
    expect(again && 'existing' in again && again.existing.id).toBe(idOf(earlier as { id: number }));
    expect(fresh).toEqual({ id: expect.any(Number) });
  });

  it('a row that cannot be stored fails its own caller only', async () => {
    const settled = await Promise.allSettled([
      recordDelivery(fork(orm), integrationId, 'good-1', 'push', push(1)),
      recordDelivery(fork(orm), 987_654, 'orphan', 'push', push(1)),
      recordDelivery(fork(orm), integrationId, 'good-2', 'push', push(1)),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await fork(orm).count(VcsDelivery, { deliveryKey: { $in: ['good-1', 'good-2', 'orphan'] } })).toBe(
      2,
    );
  });
});

describe('findIntegrationByApiKey, several hooks arriving together (one lookup)', () => {
  it('answers each caller with its own integration, or its own refusal', async () => {
    const a = await createIntegration(orm, root, { name: 'together-a' });
    const b = await createIntegration(orm, root, { name: 'together-b', host: 'gitlab' });
    const settled = await Promise.allSettled([
      findIntegrationByApiKey(fork(orm), 'github', a.apiKey),
      findIntegrationByApiKey(fork(orm), 'gitlab', b.apiKey),
      findIntegrationByApiKey(fork(orm), 'github', 'no-such-key'),
      findIntegrationByApiKey(fork(orm), 'github', b.apiKey),
      findIntegrationByApiKey(fork(orm), 'github', a.apiKey),
    ]);
    expect(
      settled.map((s) => (s.status === 'fulfilled' ? s.value.name : (s.reason as Error).message)),
    ).toEqual([
      'together-a',
      'together-b',
      'Unknown apiKey.',
      'You have no rights to receive github hooks with the apiKey of a gitlab integration.',
      'together-a',
    ]);
  });
});
