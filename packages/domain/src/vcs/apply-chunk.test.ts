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
import type { Actor } from '../auth/actor.js';
import type { IVcsIntegration } from '../model/vcs.entity.js';
import type { Orm } from '../orm/open-orm.js';
import { getVcsDeliveryReport } from './deliveries.js';
import { type ProcessOptions, processDelivery } from './process-delivery.js';
import { claimDelivery } from './queue.js';
import { receiveHook } from './receive-hook.js';

/**
 * The batched apply path (chunks of units, one transaction each, state loaded once per chunk)
 * against the reference path (each unit in its own transaction through `applyCommand`): the
 * same push must leave exactly the same rows behind.
 */

const sha = (n: number) => `c${n}`.padEnd(40, '0');
/** Applied, refused (permission, unknown word, empty comment), skipped (no committer), unlinked, missing, resolve and reopen. */
const PUSH: [string, string, string][] = [
  [sha(1), 'Start\n#TL-1 In Progress\n#TL-2 tag chunk', 'alice@example.com'],
  [sha(2), '#TL-1 Fixed', 'bob@example.com'],
  [sha(3), 'Fix\n#TL-1 Fixed\n#TL-3 Bogus Value', 'alice@example.com'],
  [sha(4), '#TL-2 Fixed', 'carol@example.com'],
  [sha(5), '#TL-2 tag chunk\n#OT-1 Fixed\n#TL-99 Fixed', 'alice@example.com'],
  [sha(6), 'Reopen #TL-1 In Progress', 'alice@example.com'],
  [sha(7), '#TL-3 comment', 'alice@example.com'],
  [sha(8), '#TL-3 tag second\n#TL-2 untag chunk', 'alice@example.com'],
  [sha(9), '#TL-3', 'nobody@example.com'],
];

type World = { orm: Orm; root: Actor; integration: IVcsIntegration };

async function world(): Promise<World> {
  const orm = await createTestOrm();
  const root = await setUpVcsScenario(orm);
  const { integration } = await createIntegration(orm, root);
  return { orm, root, integration };
}

/** Receives the push under `deliveryKey` and applies it with `options` (one claim, no worker loop). */
async function apply(w: World, deliveryKey: string, options: Omit<ProcessOptions, 'leaseMs'>) {
  const receipt = await receiveHook(
    fork(w.orm),
    w.integration,
    hookRequest('github', githubPush(PUSH), { 'X-GitHub-Delivery': deliveryKey }),
  );
  const claim = await claimDelivery(fork(w.orm), 60_000);
  if (!claim) throw new Error('nothing to claim');
  expect(await processDelivery(w.orm, claim, { leaseMs: 60_000, ...options })).toBe('done');
  return receipt.body.delivery as number;
}

const resultLines = async (w: World, delivery: number) =>
  (await getVcsDeliveryReport(fork(w.orm), w.root, 'webapp', delivery)).commits.flatMap((c) =>
    c.results.map(
      (r) =>
        `${c.sha.slice(0, 2)} ${r.issue} ${r.command}: ${r.status}${r.actor ? ` as ${r.actor}` : ''}${r.reason ? ` (${r.reason})` : ''}`,
    ),
  );

/** Every row the processing writes, in write order (ids differ only by what was written before). */
async function rows(w: World) {
  const q = (sql: string) => fork(w.orm).execute<Record<string, unknown>[]>(sql);
  const normal = (list: Record<string, unknown>[]) =>
    list.map((r) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? null : String(v)])),
    );
  return {
    changes: normal(
      await q(
        'select issue_id, commit_sha, committer_id, comment_author_id, note, delivery_id from vcs_changes order by id',
      ),
    ),
    effects: normal(
      await q(
        'select issue_id, commit_sha, command, status, reason, actor_id, delivery_id from vcs_effects order by id',
      ),
    ),
    comments: normal(await q('select issue_id, author_id, text from issue_comments order by id')),
    history: normal(await q('select issue_id, updater_id, fields from issue_changes order by id')),
    fields: normal(
      await q(
        'select issue_id, field_id, slot, value_id from issue_field_values order by issue_id, field_id',
      ),
    ),
    tags: normal(
      await q(
        'select it.issue_id, t.name, t.owner_id from issue_tags it join tags t on t.id = it.tag_id order by it.issue_id, t.name',
      ),
    ),
    resolved: normal(await q('select id, resolved_at is not null as resolved from issues order by id')),
  };
}

describe('the batched apply path', () => {
  let reference: World;
  let batched: World;
  let tiny: World;
  let delivery = 0;
  beforeAll(async () => {
    [reference, batched, tiny] = [await world(), await world(), await world()];
    delivery = await apply(reference, 'first', { oneByOne: true });
    expect(await apply(batched, 'first', {})).toBe(delivery);
    // One unit per transaction (a zero budget still takes one), in chunks of at most three.
    expect(await apply(tiny, 'first', { chunkUnits: 3, chunkBudgetMs: 0 })).toBe(delivery);
    // Three scratch databases on PostgreSQL: slower than the default hook timeout on a busy machine.
  }, 120_000);
  afterAll(async () => {
    for (const w of [reference, batched, tiny]) await w.orm.close(true);
  });

  it('leaves exactly the rows the one-by-one path leaves, whatever the chunk size', async () => {
    const expected = await rows(reference);
    expect(expected.history.length).toBeGreaterThan(0);
    expect(await rows(batched)).toEqual(expected);
    expect(await rows(tiny)).toEqual(expected);
    const lines = await resultLines(reference, delivery);
    expect(await resultLines(batched, delivery)).toEqual(lines);
    expect(await resultLines(tiny, delivery)).toEqual(lines);
  });

  it('records a refused command on its effect and applies every other unit of the chunk', async () => {
    expect(await resultLines(batched, delivery)).toEqual([
      'c1 TL-1 comment: applied as alice',
      'c1 TL-1 In Progress: applied as alice',
      'c1 TL-2 comment: applied as alice',
      'c1 TL-2 tag chunk: applied as alice',
      'c2 TL-1 comment: applied as bob',
      'c2 TL-1 Fixed: failed as bob (Cannot apply [ Set State to Fixed ] to issue [ TL-1 ]: no rights in project [ TL ] (UPDATE_ISSUE).)',
      'c3 TL-1 comment: applied as alice',
      'c3 TL-1 Fixed: applied as alice',
      'c3 TL-3 comment: applied as alice',
      'c3 TL-3 Bogus Value: failed as alice (command: Unknown command: Bogus Value (at 0-11))',
      'c4 TL-2 comment: applied as vcs@webapp (no user with e-mail carol@example.com holds role [ Committers ] here)',
      'c4 TL-2 Fixed: skipped (no user with e-mail carol@example.com holds role [ Committers ] here)',
      'c5 TL-2 comment: applied as alice',
      'c5 TL-2 tag chunk: applied as alice',
      expect.stringMatching(/^c5 OT-1 comment: skipped/),
      expect.stringMatching(/^c5 OT-1 Fixed: skipped/),
      expect.stringMatching(/^c5 TL-99 comment: skipped/),
      expect.stringMatching(/^c5 TL-99 Fixed: skipped/),
      'c6 TL-1 comment: applied as alice',
      'c6 TL-1 In Progress: applied as alice',
      'c7 TL-3 comment: applied as alice',
      expect.stringMatching(/^c7 TL-3 comment: failed as alice \(.*the comment text is empty/),
      'c8 TL-3 comment: applied as alice',
      'c8 TL-3 tag second: applied as alice',
      'c8 TL-2 comment: applied as alice',
      'c8 TL-2 untag chunk: applied as alice',
      'c9 TL-3 comment: applied as vcs@webapp (no user with e-mail nobody@example.com holds role [ Committers ] here)',
    ]);
    const tl1 = await issueSummary(batched.orm, 'TL-1');
    expect(tl1.state).toBe('In Progress');
    expect(tl1.comments).toHaveLength(4);
    // Each applied command is its own history entry: In Progress, Fixed, In Progress again.
    const history = await fork(batched.orm).execute<{ fields: string }[]>(
      "select fields from issue_changes where issue_id = (select i.id from issues i join projects p on p.id = i.project_id where p.short_name = 'TL' and i.number_in_project = 1) order by id",
    );
    expect(history.map((h) => (JSON.parse(h.fields) as { newValues: string[] }[])[0]?.newValues)).toEqual([
      ['In Progress'],
      ['Fixed'],
      ['In Progress'],
    ]);
    expect((await issueSummary(batched.orm, 'TL-2')).tags).toEqual([]);
    expect((await issueSummary(batched.orm, 'TL-3')).tags).toEqual(['alice:second']);
  });

  it('applies nothing twice when the push is delivered again', async () => {
    const before = await rows(batched);
    const again = await apply(batched, 'second', {});
    const after = await rows(batched);
    expect(after.comments).toEqual(before.comments);
    expect(after.history).toEqual(before.history);
    expect(after.fields).toEqual(before.fields);
    expect(after.tags).toEqual(before.tags);
    expect(after.changes).toEqual(before.changes);
    expect(after.effects).toEqual(before.effects);
    const lines = await resultLines(batched, again);
    expect(lines.filter((l) => /: (applied|failed)/.test(l))).toEqual([]);
    expect(lines).toContain(`c1 TL-1 In Progress: skipped (already processed by delivery ${delivery})`);
  });

  it('a crash between chunks keeps the committed chunks; a takeover applies the rest once', async () => {
    const w = await world();
    try {
      await receiveHook(
        fork(w.orm),
        w.integration,
        hookRequest('github', githubPush(PUSH), { 'X-GitHub-Delivery': 'crash' }),
      );
      const claim = await claimDelivery(fork(w.orm), 60_000);
      if (!claim) throw new Error('nothing to claim');
      let chunks = 0;
      const crashed = processDelivery(w.orm, claim, {
        leaseMs: 60_000,
        chunkUnits: 4,
        chunkBudgetMs: 60_000,
        afterChunk: (_, units) => {
          expect(units).toBeLessThanOrEqual(4);
          if (++chunks === 2) throw new Error('killed');
        },
      });
      await expect(crashed).rejects.toThrow('killed');
      const partial = await rows(w);
      // Two chunks of four units committed (c1-c4, and c5's TL-2 and unlinked OT-1): 7 recorded.
      expect(partial.changes.map((c) => c.commit_sha?.slice(0, 2))).toEqual([
        'c1',
        'c1',
        'c2',
        'c3',
        'c3',
        'c4',
        'c5',
      ]);
      const takeover = await claimDelivery(fork(w.orm), 60_000, Date.now() + 120_001);
      if (!takeover) throw new Error('the expired lease was not taken over');
      expect(await processDelivery(w.orm, takeover, { leaseMs: 60_000 })).toBe('done');
      const { effects, ...rest } = await rows(w);
      const { effects: expectedEffects, ...expected } = await rows(reference);
      expect(rest).toEqual(expected);
      // Same outcomes (the delivery id is the same: one delivery, taken over).
      expect(effects).toEqual(expectedEffects);
    } finally {
      await w.orm.close(true);
    }
  }, 60_000);
});
