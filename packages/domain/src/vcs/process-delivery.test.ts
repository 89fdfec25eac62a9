import {
  committer,
  createIntegration,
  createTestOrm,
  fixtureText,
  fork,
  githubPush,
  hookRequest,
  issueSummary,
  setUpVcsScenario,
} from '@trackline/domain/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import { User } from '../model/user.entity.js';
import type { IVcsIntegration } from '../model/vcs.entity.js';
import { VcsChange, VcsDelivery, VcsEffect } from '../model/vcs.entity.js';
import type { Orm } from '../orm/open-orm.js';
import { getVcsDeliveryReport } from './deliveries.js';
import { processDelivery } from './process-delivery.js';
import { claimDelivery } from './queue.js';
import { receiveHook } from './receive-hook.js';
import { createVcsWorker } from './worker.js';

let orm: Orm;
let root: Actor;
let integration: IVcsIntegration;
let deliveries = 0;

beforeAll(async () => {
  orm = await createTestOrm();
  root = await setUpVcsScenario(orm);
  // Two committers that shared an address before addresses were unique (migration 0056): the
  // address stays on both, its key on neither, so it matches nobody.
  await committer(orm, 'dup1', 'dup@example.com', [['Committers']]);
  await fork(orm).nativeUpdate(User, { loginKey: 'dup1' }, { emailKey: null });
  await committer(orm, 'dup2', 'DUP@example.com', [['Committers', 'TL']]);
  await fork(orm).nativeUpdate(User, { loginKey: 'dup2' }, { emailKey: null });
  ({ integration } = await createIntegration(orm, root));
});
afterAll(() => orm.close(true));
beforeEach(() => {
  deliveries++;
});

/** Receives a GitHub push (a fresh delivery id per test unless given) and runs the worker. */
async function push(body: object | string, deliveryId = `d-${deliveries}`) {
  const receipt = await receiveHook(
    fork(orm),
    integration,
    hookRequest('github', body, { 'X-GitHub-Delivery': deliveryId }),
  );
  await createVcsWorker(orm).runUntilIdle();
  return receipt;
}
const report = (id: number) => getVcsDeliveryReport(fork(orm), root, 'webapp', id);
const results = async (id: number) =>
  (await report(id)).commits.flatMap((c) =>
    c.results.map(
      (r) =>
        `${r.issue} ${r.command}: ${r.status}${r.actor ? ` as ${r.actor}` : ''}${r.reason ? ` (${r.reason})` : ''}`,
    ),
  );

describe('processing a push', () => {
  it('queues on receipt, then applies each command as its committer and comments every referenced issue', async () => {
    const receipt = await receiveHook(
      fork(orm),
      integration,
      hookRequest('github', fixtureText('github-push')),
    );
    expect(receipt.status).toBe(202);
    expect(receipt.body.status).toBe('queued');
    expect(
      receipt.body.commits?.map((c) => `${c.sha.slice(0, 7)} ${c.status}${c.reason ? ` ${c.reason}` : ''}`),
    ).toEqual(['0d1a26e pending', '6113728 pending', 'a4b7c1d skipped no issue reference in the message']);
    // Stored, not applied: the answer does not wait for the commands.
    expect((await issueSummary(orm, 'TL-1')).state).toBe('Submitted');

    expect(await createVcsWorker(orm).runUntilIdle()).toBe(1);
    const tl1 = await issueSummary(orm, 'TL-1');
    expect(tl1.state).toBe('Fixed');
    expect(tl1.comments).toEqual([
      "alice: Commit made by '''Alice Example''' on ''2024-03-11T10:12:31+01:00''",
    ]);
    const [comment] = (await fork(orm).execute<{ text: string }[]>(
      "select c.text from issue_comments c join issues i on i.id = c.issue_id where i.number_in_project = 1 and c.text like 'Commit made%'",
    )) as { text: string }[];
    expect(comment?.text).toBe(
      "Commit made by '''Alice Example''' on ''2024-03-11T10:12:31+01:00''\n" +
        'https://github.com/trackline/webapp/commit/0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c\n\n' +
        '{quote}Fix redirect loop after login\n\n#TL-1 Fixed{quote}',
    );
    // Bob's e-mail differs in case from his account's: matched all the same.
    expect(await issueSummary(orm, 'TL-2')).toMatchObject({
      state: 'Submitted',
      comments: [expect.stringMatching(/^bob: Commit made by '''Bob Builder'''/)],
    });
    expect(await issueSummary(orm, 'TL-3')).toMatchObject({ tags: ['bob:performance'] });
    expect(await results(receipt.deliveryId as number)).toEqual([
      'TL-1 comment: applied as alice',
      'TL-1 Fixed: applied as alice',
      'TL-2 comment: applied as bob',
      'TL-3 comment: applied as bob',
      'TL-3 tag performance: applied as bob',
    ]);
    expect((await report(receipt.deliveryId as number)).status).toBe('done');
  });

  it.each([
    [
      'an author who is not a committer',
      'carol@example.com',
      'no user with e-mail carol@example.com holds role [ Committers ] here',
    ],
    [
      'an e-mail two committers shared before addresses were unique',
      'dup@example.com',
      'no user with e-mail dup@example.com holds role [ Committers ] here',
    ],
    [
      'an unknown e-mail',
      'nobody@example.com',
      'no user with e-mail nobody@example.com holds role [ Committers ] here',
    ],
  ])('records the change but applies nothing for %s, keeping the reason', async (_name, email, reason) => {
    const sha = `a${deliveries}`.padEnd(40, '0');
    const receipt = await push(githubPush([[sha, '#TL-2 In Progress', email]]));
    expect(await results(receipt.deliveryId as number)).toEqual([
      `TL-2 comment: applied as vcs@webapp (${reason})`,
      `TL-2 In Progress: skipped (${reason})`,
    ]);
    expect((await issueSummary(orm, 'TL-2')).state).toBe('Submitted');
    const change = await fork(orm).findOneOrFail(VcsChange, { commitSha: sha });
    expect(change.note).toBe(reason);
  });

  it('fails a command the committer may not apply, or that does not parse, and says why', async () => {
    const receipt = await push(
      githubPush([
        ['b1'.padEnd(40, '0'), '#TL-2 In Progress', 'bob@example.com'],
        ['b2'.padEnd(40, '0'), '#TL-1 frobnicate', 'alice@example.com'],
      ]),
    );
    expect(await results(receipt.deliveryId as number)).toEqual([
      'TL-2 comment: applied as bob',
      'TL-2 In Progress: failed as bob (Cannot apply [ Set State to In Progress ] to issue [ TL-2 ]: no rights in project [ TL ] (UPDATE_ISSUE).)',
      'TL-1 comment: applied as alice',
      'TL-1 frobnicate: failed as alice (command: Unknown command: frobnicate (at 0-10))',
    ]);
    expect((await report(receipt.deliveryId as number)).commits.map((c) => c.status)).toEqual([
      'failed',
      'failed',
    ]);
    expect((await issueSummary(orm, 'TL-2')).state).toBe('Submitted');
  });

  it('skips issues that do not exist or belong to a project the integration is not linked to, for one reason', async () => {
    const receipt = await push(
      githubPush([['c1'.padEnd(40, '0'), '#TL-99 Fixed\n#OT-1 Fixed', 'alice@example.com']]),
    );
    expect(await results(receipt.deliveryId as number)).toEqual([
      "TL-99 comment: skipped (no such issue in the integration's projects)",
      "TL-99 Fixed: skipped (no such issue in the integration's projects)",
      "OT-1 comment: skipped (no such issue in the integration's projects)",
      "OT-1 Fixed: skipped (no such issue in the integration's projects)",
    ]);
    expect(await issueSummary(orm, 'OT-1')).toMatchObject({ state: 'Submitted', comments: [] });
  });
});

describe('exactly once', () => {
  it('a redelivery (same delivery id) is answered from the record and stores nothing', async () => {
    const body = githubPush([['d1'.padEnd(40, '0'), '#TL-3 vote', 'alice@example.com']]);
    const first = await push(body, 'redelivered');
    const before = await fork(orm).count(VcsDelivery, {});
    const again = await push(body, 'redelivered');
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('duplicate');
    expect(again.body.delivery).toBe(first.deliveryId);
    expect(again.body.commits?.[0]?.results.map((r) => r.status)).toEqual(['applied', 'applied']);
    expect(await fork(orm).count(VcsDelivery, {})).toBe(before);
    expect(await fork(orm).count(VcsChange, { commitSha: 'd1'.padEnd(40, '0') })).toBe(1);
    expect(await fork(orm).count(VcsEffect, { commitSha: 'd1'.padEnd(40, '0') })).toBe(1);
  });

  it('without a delivery id, the same body is recognised by its hash', async () => {
    const body = JSON.stringify(githubPush([['d2'.padEnd(40, '0'), '#TL-3', 'alice@example.com']]));
    const first = await receiveHook(fork(orm), integration, hookRequest('github', body));
    const second = await receiveHook(fork(orm), integration, hookRequest('github', body));
    expect([first.status, second.status]).toEqual([202, 200]);
    expect(second.body.delivery).toBe(first.deliveryId);
    await createVcsWorker(orm).runUntilIdle();
  });

  it('the same commit pushed on two branches comments and commands once', async () => {
    const sha = 'e1'.padEnd(40, '0');
    const main = await push(
      githubPush([[sha, '#TL-1 tag twice', 'alice@example.com']], 'refs/heads/main'),
      'main',
    );
    const feature = await push(
      githubPush([[sha, '#TL-1 tag twice', 'alice@example.com']], 'refs/heads/feature/x'),
      'feature',
    );
    expect(feature.status).toBe(202);
    expect(await results(main.deliveryId as number)).toEqual([
      'TL-1 comment: applied as alice',
      'TL-1 tag twice: applied as alice',
    ]);
    expect(await results(feature.deliveryId as number)).toEqual([
      `TL-1 comment: skipped (already processed by delivery ${main.deliveryId})`,
      `TL-1 tag twice: skipped (already processed by delivery ${main.deliveryId})`,
    ]);
    expect(await fork(orm).count(VcsChange, { commitSha: sha })).toBe(1);
    expect(await fork(orm).count(VcsEffect, { commitSha: sha })).toBe(1);
    const comments = (await issueSummary(orm, 'TL-1')).comments.length;
    await push(githubPush([[sha, '#TL-1 tag twice', 'alice@example.com']], 'refs/heads/release'), 'release');
    expect((await issueSummary(orm, 'TL-1')).comments.length).toBe(comments);
  });

  it('a process that dies mid-delivery loses nothing and repeats nothing once the lease expires', async () => {
    const commits: [string, string, string][] = [1, 2, 3].map((n) => [
      `f${n}`.padEnd(40, '0'),
      `#TL-3 tag crash${n}`,
      'alice@example.com',
    ]);
    const shas = { $in: commits.map((c) => c[0]) };
    await receiveHook(
      fork(orm),
      integration,
      hookRequest('github', githubPush(commits), { 'X-GitHub-Delivery': 'crash' }),
    );
    // A long lease and a clock moved forward below: no timing race on a loaded machine.
    const lease = 60_000;
    const claim = await claimDelivery(fork(orm), lease);
    if (!claim) throw new Error('nothing to claim');
    let units = 0;
    // A kill after the second unit committed: nothing after it runs, nothing is released.
    const killed = processDelivery(orm, claim, {
      leaseMs: lease,
      afterUnit: () => {
        if (++units === 2) throw new Error('killed');
      },
    });
    await expect(killed).rejects.toThrow('killed');
    expect(await fork(orm).count(VcsEffect, { commitSha: shas })).toBe(2);
    // Still leased to the dead worker: nobody takes it over before the lease runs out.
    expect(await claimDelivery(fork(orm), lease)).toBeNull();
    // Once the lease has run out, another worker takes the delivery over and finishes it.
    const takeover = await claimDelivery(fork(orm), lease, Date.now() + 2 * lease + 1);
    if (!takeover) throw new Error('the expired lease was not taken over');
    expect(await processDelivery(orm, takeover, { leaseMs: lease })).toBe('done');
    const tags = (await issueSummary(orm, 'TL-3')).tags.filter((t) => t.includes('crash'));
    expect(tags).toEqual(['alice:crash1', 'alice:crash2', 'alice:crash3']);
    expect(await fork(orm).count(VcsEffect, { commitSha: shas })).toBe(3);
    expect(await fork(orm).count(VcsChange, { commitSha: shas })).toBe(3);
    const delivery = await fork(orm).findOneOrFail(VcsDelivery, { deliveryKey: 'x-github-delivery:crash' });
    expect([delivery.status, delivery.attempts]).toEqual(['done', 2]);
  });
});
