import {
  createIntegration,
  createTestOrm,
  fork,
  githubPush,
  hookRequest,
  issueSummary,
  setUpVcsScenario,
} from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IVcsIntegration } from '../model/vcs.entity.js';
import { VcsDelivery } from '../model/vcs.entity.js';
import type { Orm } from '../orm/open-orm.js';
import { receiveHook } from './receive-hook.js';
import { createVcsWorker } from './worker.js';

let orm: Orm;
let integration: IVcsIntegration;

beforeAll(async () => {
  orm = await createTestOrm();
  const root = await setUpVcsScenario(orm);
  ({ integration } = await createIntegration(orm, root));
});
afterAll(() => orm.close(true));

const receive = async (key: string, commits: [string, string, string][]) =>
  (
    await receiveHook(
      fork(orm),
      integration,
      hookRequest('github', githubPush(commits), { 'X-GitHub-Delivery': key }),
    )
  ).body.delivery as number;

describe('a batch of claimed deliveries', () => {
  it('applies them together, and one delivery failing unexpectedly does not hold back the others', async () => {
    const first = await receive('batch-1', [['e1'.padEnd(40, '0'), '#TL-1 tag batch1', 'alice@example.com']]);
    const poison = await receive('batch-2', [
      ['e2'.padEnd(40, '0'), '#TL-1 tag batch2', 'alice@example.com'],
    ]);
    const last = await receive('batch-3', [['e3'.padEnd(40, '0'), '#TL-2 tag batch3', 'alice@example.com']]);
    // A stored payload that no longer parses: an unexpected error, not a refused command.
    await fork(orm).nativeUpdate(VcsDelivery, { id: poison }, { payload: '{' });
    const errors: unknown[] = [];
    // One claim takes all three.
    const taken = await createVcsWorker(orm, {
      claimBatch: 10,
      logError: (e) => errors.push(e),
    }).runUntilIdle();
    expect(taken).toBe(3);
    const status = async (id: number) => {
      const d = await fork(orm).findOneOrFail(VcsDelivery, { id });
      return [d.status, d.attempts];
    };
    expect(await status(first)).toEqual(['done', 1]);
    expect(await status(last)).toEqual(['done', 1]);
    // Only the poison one goes back to the queue (to be retried later), with its error.
    expect(await status(poison)).toEqual(['pending', 1]);
    expect((await fork(orm).findOneOrFail(VcsDelivery, { id: poison })).error).toMatch(/JSON/);
    expect(errors.length).toBeGreaterThan(0);
    expect((await issueSummary(orm, 'TL-1')).tags).toContain('alice:batch1');
    expect((await issueSummary(orm, 'TL-2')).tags).toContain('alice:batch3');
  });
});
