import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  call,
  fixture,
  issueState,
  resultLines,
  setUpScenario,
  startVcsServer,
  type VcsServer,
  waitForDelivery,
} from '../vcs/vcs-harness.js';

/**
 * The fixtures' pushes are made by alice and carry alice's commit (`#TL-1 Fixed`) and bob's
 * (`#TL-2`, `#TL-3 tag performance`). Bob's e-mail is in his commit, but he did not push it:
 * with `requirePusherMatch` (the default) his commands must not run, nor may comments be
 * written in his name.
 */
const NOT_THE_PUSHER =
  'the commit author is not the pusher named by the host (requirePusherMatch): commands not applied';
const BASE = '/rest/admin/vcsIntegration';

let server: VcsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start() {
  server = await startVcsServer();
  await setUpScenario(server.orm);
  return server;
}

/** Creates `webapp` over REST with exactly the given extra query (no requirePusherMatch: the default). */
async function create(s: VcsServer, host: string, extra = '') {
  const res = await call(
    s.url,
    'PUT',
    `${BASE}/webapp?host=${host}&repository=trackline/webapp&projects=TL&committersRole=Committers${extra}`,
  );
  expect(res.status, res.text).toBe(201);
  return res.json() as { apiKey: string; requirePusherMatch: boolean };
}

const HEADERS: Record<string, Record<string, string>> = {
  github: { 'X-GitHub-Event': 'push' },
  gitlab: { 'X-Gitlab-Event': 'Push Hook' },
  bitbucket: { 'X-Event-Key': 'repo:push' },
};

async function deliver(s: VcsServer, host: string, apiKey: string, payload: string, form = false) {
  const res = await call(
    s.url,
    'POST',
    `/rest/vcsHooksReceiver/${host}?apiKey=${encodeURIComponent(apiKey)}`,
    {
      auth: null,
      body: form ? `payload=${encodeURIComponent(payload)}` : payload,
      headers: {
        'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
        'Idempotency-Key': randomUUID(),
        ...(form ? {} : HEADERS[host]),
      },
    },
  );
  expect(res.status, res.text).toBe(202);
  return waitForDelivery(s.url, 'webapp', res.json().delivery);
}

/** alice's commit applies as alice; bob's is recorded by the service account, commands skipped. */
const PUSHER_RULE = [
  'TL-1 comment: applied as alice',
  'TL-1 Fixed: applied as alice',
  `TL-2 comment: applied as vcs@webapp (${NOT_THE_PUSHER})`,
  `TL-3 comment: applied as vcs@webapp (${NOT_THE_PUSHER})`,
  `TL-3 tag performance: skipped (${NOT_THE_PUSHER})`,
];

async function expectPusherRule(s: VcsServer, report: Parameters<typeof resultLines>[0]) {
  expect(resultLines(report)).toEqual(PUSHER_RULE);
  expect((await issueState(s.orm, 'TL-1')).state).toBe('Fixed');
  const tl3 = await issueState(s.orm, 'TL-3');
  expect(tl3.tags).toEqual([]);
  expect(tl3.comments).toEqual([expect.stringMatching(/^vcs@webapp: Commit made by '''Bob Builder'''/)]);
}

describe('hardening item 13: commit commands apply only when the author is the pusher', () => {
  it('is on for a new integration, and shown', async () => {
    const s = await start();
    const created = await create(s, 'github');
    expect(created.requirePusherMatch).toBe(true);
    expect((await call(s.url, 'GET', `${BASE}/webapp`)).json().requirePusherMatch).toBe(true);
    const xml = await call(s.url, 'GET', `${BASE}/webapp`, { headers: { accept: 'application/xml' } });
    expect(xml.text).toContain('requirePusherMatch="true"');
  });

  it('GitHub: pusher and sender against the commit author e-mail and username', async () => {
    const s = await start();
    const { apiKey } = await create(s, 'github');
    await expectPusherRule(s, await deliver(s, 'github', apiKey, fixture('github-push')));
  });

  it('GitHub: a commit carrying a committer’s e-mail, pushed by someone else, runs nothing as them', async () => {
    const s = await start();
    const { apiKey } = await create(s, 'github');
    const push = JSON.parse(fixture('github-push'));
    push.pusher = { name: 'mallory', email: 'mallory@example.org' };
    push.sender = { login: 'mallory' };
    push.commits = [
      {
        ...push.commits[0],
        id: 'e'.repeat(40),
        message: 'harmless\n\n#TL-1 Fixed',
        author: { name: 'Alice Example', email: 'alice@example.com' },
      },
    ];
    const report = await deliver(s, 'github', apiKey, JSON.stringify(push));
    expect(resultLines(report)).toEqual([
      `TL-1 comment: applied as vcs@webapp (${NOT_THE_PUSHER})`,
      `TL-1 Fixed: skipped (${NOT_THE_PUSHER})`,
    ]);
    const tl1 = await issueState(s.orm, 'TL-1');
    expect(tl1.state).toBe('Submitted');
    expect(tl1.comments).toEqual([expect.stringMatching(/^vcs@webapp: /)]);
  });

  it('GitLab: user_email against the commit e-mail; a hidden pusher e-mail matches nobody', async () => {
    const s = await start();
    const { apiKey } = await create(s, 'gitlab');
    const hidden = await deliver(s, 'gitlab', apiKey, fixture('gitlab-push'));
    expect(resultLines(hidden)).toEqual([
      `TL-1 comment: applied as vcs@webapp (${NOT_THE_PUSHER})`,
      `TL-1 Fixed: skipped (${NOT_THE_PUSHER})`,
      `TL-2 comment: applied as vcs@webapp (${NOT_THE_PUSHER})`,
      `TL-3 comment: applied as vcs@webapp (${NOT_THE_PUSHER})`,
      `TL-3 tag performance: skipped (${NOT_THE_PUSHER})`,
    ]);
    const push = JSON.parse(fixture('gitlab-push'));
    push.user_email = 'alice@example.com';
    push.commits = push.commits.map((c: { id: string }) => ({ ...c, id: `f${c.id.slice(1)}` }));
    const shown = await deliver(s, 'gitlab', apiKey, JSON.stringify(push));
    expect(resultLines(shown).slice(0, 2)).toEqual([
      'TL-1 comment: applied as alice',
      'TL-1 Fixed: applied as alice',
    ]);
    expect(resultLines(shown).at(-1)).toBe(`TL-3 tag performance: skipped (${NOT_THE_PUSHER})`);
  });

  it('Bitbucket Cloud: the actor’s account against the commit author’s account', async () => {
    const s = await start();
    const { apiKey } = await create(s, 'bitbucket');
    await expectPusherRule(s, await deliver(s, 'bitbucket', apiKey, fixture('bitbucket-cloud-push')));
  });

  it('Bitbucket POST service: user against the commit author', async () => {
    const s = await start();
    const { apiKey } = await create(s, 'bitbucket');
    await expectPusherRule(s, await deliver(s, 'bitbucket', apiKey, fixture('bitbucket-post-service'), true));
  });

  it('off (REST create), every committer’s commands apply as before', async () => {
    const s = await start();
    const created = await create(s, 'github', '&requirePusherMatch=false');
    expect(created.requirePusherMatch).toBe(false);
    const report = await deliver(s, 'github', created.apiKey, fixture('github-push'));
    expect(resultLines(report)).toContain('TL-3 tag performance: applied as bob');
  });

  it('settable on update over REST and tRPC', async () => {
    const s = await start();
    await create(s, 'github');
    const off = await call(s.url, 'POST', `${BASE}/webapp?requirePusherMatch=false`);
    expect(off.status, off.text).toBe(200);
    expect(off.json().requirePusherMatch).toBe(false);
    const on = await call(s.url, 'POST', '/trpc/vcs.update', {
      body: JSON.stringify({ name: 'webapp', requirePusherMatch: true }),
      headers: { 'content-type': 'application/json' },
    });
    expect(on.status, on.text).toBe(200);
    expect(on.json().result.data.requirePusherMatch).toBe(true);
    const viaTrpc = await call(s.url, 'POST', '/trpc/vcs.create', {
      body: JSON.stringify({
        name: 'other',
        host: 'gitlab',
        repository: 'a/b',
        projects: ['TL'],
        committersRole: 'Committers',
        requirePusherMatch: false,
      }),
      headers: { 'content-type': 'application/json' },
    });
    expect(viaTrpc.status, viaTrpc.text).toBe(200);
    expect(viaTrpc.json().result.data.requirePusherMatch).toBe(false);
  });

  it('a bad value is a 400 naming the field, and changes nothing', async () => {
    const s = await start();
    await create(s, 'github');
    const res = await call(s.url, 'POST', `${BASE}/webapp?requirePusherMatch=maybe`);
    expect(res.status, res.text).toBe(400);
    expect(res.text).toContain('requirePusherMatch');
    expect((await call(s.url, 'GET', `${BASE}/webapp`)).json().requirePusherMatch).toBe(true);
  });
});
