import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createIntegration,
  githubPush,
  hookRequest,
  issueSummary,
  setUpVcsScenario,
} from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadActor } from '../auth/load-actor.js';
import { createOrm } from '../model/create-orm.js';
import { User } from '../model/user.entity.js';
import { VcsChange, VcsDelivery, VcsEffect } from '../model/vcs.entity.js';
import type { Em } from '../orm/em.js';
import { migrate } from '../orm/migrate.js';
import type { DatabaseConfig, Orm } from '../orm/open-orm.js';
import { seed } from '../seed/seed.js';
import { getVcsDeliveryReport, listVcsDeliveries } from './deliveries.js';
import { findIntegrationByApiKey } from './integrations.js';
import { receiveHook } from './receive-hook.js';
import { createVcsWorker } from './worker.js';

/**
 * Concurrent receivers and workers on one database. On PostgreSQL two ORMs stand for two API
 * processes (own pools; row locks and unique indexes decide). SQLite's driver is synchronous:
 * two ORMs in one process would block each other's lock holder, so here one ORM runs four
 * interleaving workers (the API suite runs two real processes on one SQLite file).
 * PostgreSQL runs under TRACKLINE_TEST_DB=postgres or when TRACKLINE_TEST_PG_URL names a server
 * (e.g. `postgres://postgres@127.0.0.1:5432`); a scratch database is created and dropped.
 */
type Backend = {
  name: string;
  /** Whether the second "process" gets its own ORM. */
  twoOrms: boolean;
  open(): Promise<{ config: DatabaseConfig; drop(): Promise<void> }>;
};

// The same switches as the rest of the suite: TRACKLINE_TEST_DB=postgres, or a server URL.
const pgUrl =
  process.env.TRACKLINE_TEST_PG_URL ||
  (process.env.TRACKLINE_TEST_DB === 'postgres' ? 'postgres://postgres@127.0.0.1:5432' : undefined);
const BACKENDS: Backend[] = [
  {
    name: 'SQLite file',
    twoOrms: false,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'trackline-vcs-'));
      return {
        config: { kind: 'sqlite', file: join(dir, 'db.sqlite') },
        drop: async () => rmSync(dir, { recursive: true }),
      };
    },
  },
  ...(pgUrl
    ? [
        {
          name: 'PostgreSQL',
          twoOrms: true,
          async open() {
            const db = `trackline_vcs_test_${process.pid}`;
            const admin = await createOrm({ kind: 'postgresql', url: `${pgUrl}/postgres`, poolSize: 1 });
            await admin.em.getConnection().execute(`drop database if exists ${db}`);
            await admin.em.getConnection().execute(`create database ${db}`);
            return {
              config: { kind: 'postgresql' as const, url: `${pgUrl}/${db}` },
              async drop() {
                await admin.em.getConnection().execute(`drop database if exists ${db} with (force)`);
                await admin.close(true);
              },
            };
          },
        },
      ]
    : []),
];

describe.each(BACKENDS)('concurrent receivers and workers on one $name database', (backend) => {
  let a: Orm;
  let b: Orm;
  let apiKey: string;
  let drop: () => Promise<void>;
  const fork = (orm: Orm) => orm.em.fork() as Em;

  beforeAll(async () => {
    const opened = await backend.open();
    drop = opened.drop;
    a = await createOrm(opened.config);
    await migrate(a);
    await seed(a, { adminPassword: 'root-password' });
    ({ apiKey } = await createIntegration(a, await setUpVcsScenario(a)));
    b = backend.twoOrms ? await createOrm(opened.config) : a;
  });
  afterAll(async () => {
    await a?.close(true);
    if (b !== a) await b?.close(true);
    await drop?.();
  });

  const actorFor = async (orm: Orm) =>
    loadActor(fork(orm), await fork(orm).findOneOrFail(User, { loginKey: 'root' }));

  const receiveOn = async (orm: Orm, body: object, delivery: string) => {
    const integration = await findIntegrationByApiKey(fork(orm), 'github', apiKey);
    return receiveHook(
      fork(orm),
      integration,
      hookRequest('github', body, { 'X-GitHub-Delivery': delivery }),
    );
  };

  it('receiving the same delivery at once stores it once', async () => {
    const body = githubPush([['1'.repeat(40), '#TL-2', 'alice@example.com']]);
    const receipts = await Promise.all([receiveOn(a, body, 'same'), receiveOn(b, body, 'same')]);
    expect(receipts.map((r) => r.status).sort()).toEqual([200, 202]);
    expect(await fork(a).count(VcsDelivery, { deliveryKey: 'x-github-delivery:same' })).toBe(1);
  });

  it('two workers applying overlapping pushes apply each command once', async () => {
    const commits: [string, string, string][] = Array.from({ length: 20 }, (_, i) => [
      `c${String(i).padStart(2, '0')}`.padEnd(40, '0'),
      `#TL-1 tag race${i}\n#TL-3 vote`,
      'alice@example.com',
    ]);
    // The same commits on two branches and from two receivers: four deliveries, one set of effects.
    await receiveOn(a, githubPush(commits, 'refs/heads/main'), 'r1');
    await receiveOn(b, githubPush(commits, 'refs/heads/dev'), 'r2');
    await receiveOn(a, githubPush(commits, 'refs/heads/x'), 'r3');
    await receiveOn(b, githubPush([...commits].reverse(), 'refs/heads/y'), 'r4');
    const errors: unknown[] = [];
    const workers = [a, b, a, b].map((orm) => createVcsWorker(orm, { logError: (e) => errors.push(e) }));
    await Promise.all(workers.map((w) => w.runUntilIdle()));
    expect(errors).toEqual([]);
    const shas = { $in: commits.map((c) => c[0]) };
    expect(await fork(a).count(VcsChange, { commitSha: shas })).toBe(40);
    expect(await fork(a).count(VcsEffect, { commitSha: shas })).toBe(40);
    expect(await fork(a).count(VcsEffect, { commitSha: shas, status: 'applied' })).toBe(40);
    const tl1 = await issueSummary(a, 'TL-1');
    expect(tl1.tags.filter((t) => t.includes('race'))).toHaveLength(20);
    expect(tl1.comments.filter((c) => c.startsWith('alice: Commit made by'))).toHaveLength(20);
    expect(
      (await issueSummary(a, 'TL-3')).comments.filter((c) => c.startsWith('alice: Commit made by')),
    ).toHaveLength(20);
    const statuses = await fork(a).find(VcsDelivery, { deliveryKey: { $like: 'x-github-delivery:r%' } });
    expect(statuses.map((d) => d.status)).toEqual(['done', 'done', 'done', 'done']);
    // Every effect is reported applied by exactly one of the four deliveries.
    const root = await actorFor(a);
    const reports = await Promise.all(
      statuses.map((d) => getVcsDeliveryReport(fork(a), root, 'webapp', d.id)),
    );
    const applied = reports.flatMap((r) =>
      r.commits.flatMap((c) => c.results.filter((x) => x.status === 'applied')),
    );
    expect(applied).toHaveLength(80);
    expect((await listVcsDeliveries(fork(b), root, 'webapp')).length).toBeGreaterThanOrEqual(5);
  });
});
