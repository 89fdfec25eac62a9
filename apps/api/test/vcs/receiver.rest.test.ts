import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createIntegration,
  fixture,
  hookState,
  issueState,
  type Reply,
  resultLines,
  SECRET,
  setUpScenario,
  sign,
  startVcsServer,
  type VcsServer,
  waitForDelivery,
} from './vcs-harness.js';

let server: VcsServer;
const keys: Record<string, string> = {};

beforeAll(async () => {
  server = await startVcsServer();
  await setUpScenario(server.orm);
  keys.github = (await createIntegration(server.url, { name: 'gh', host: 'github', secret: SECRET })).apiKey;
  keys.gitlab = (await createIntegration(server.url, { name: 'gl', host: 'gitlab', secret: SECRET })).apiKey;
  keys.bitbucket = (
    await createIntegration(server.url, { name: 'bb', host: 'bitbucket', secret: SECRET })
  ).apiKey;
  keys.open = (await createIntegration(server.url, { name: 'open', host: 'github' })).apiKey;
});
afterAll(() => server.close());

const GITHUB = fixture('github-push');
const hook = (
  host: string,
  key: string | null,
  body: string | Buffer,
  headers: Record<string, string> = {},
) =>
  call(
    server.url,
    'POST',
    `/rest/vcsHooksReceiver/${host}${key === null ? '' : `?apiKey=${encodeURIComponent(key)}`}`,
    {
      auth: null,
      body,
      headers: { 'content-type': 'application/json', ...headers },
    },
  );
const signed = (body: string) => ({ 'X-GitHub-Event': 'push', 'X-Hub-Signature-256': sign('sha256', body) });

describe('refused hook calls change nothing', () => {
  const otherRepo = GITHUB.replace('"full_name": "trackline/webapp"', '"full_name": "someone/else"');
  const notAPush = JSON.stringify({ ref: 'refs/heads/main', repository: { full_name: 'trackline/webapp' } });
  const tooLarge = Buffer.alloc(25 * 1024 * 1024 + 1, 0x20);

  it.each<[string, () => Promise<Reply>, number, string]>([
    ['no apiKey', () => hook('github', null, GITHUB, signed(GITHUB)), 401, 'An apiKey is required.'],
    [
      'an unknown apiKey',
      () => hook('github', 'vcs_unknown', GITHUB, signed(GITHUB)),
      401,
      'Unknown apiKey.',
    ],
    ['an empty apiKey', () => hook('github', '', GITHUB, signed(GITHUB)), 401, 'An apiKey is required.'],
    [
      'the apiKey of a GitLab integration on the GitHub receiver',
      () => hook('github', keys.gitlab as string, GITHUB, signed(GITHUB)),
      403,
      'You have no rights to receive github hooks with the apiKey of a gitlab integration.',
    ],
    [
      'no signature',
      () => hook('github', keys.github as string, GITHUB, { 'X-GitHub-Event': 'push' }),
      401,
      'Missing signature (X-Hub-Signature-256).',
    ],
    [
      'a signature made with another secret',
      () =>
        hook('github', keys.github as string, GITHUB, {
          'X-Hub-Signature-256': sign('sha256', GITHUB, 'guessed'),
        }),
      401,
      'Invalid signature.',
    ],
    [
      'a signature of the same JSON serialised differently',
      () =>
        hook('github', keys.github as string, GITHUB, {
          'X-Hub-Signature-256': sign('sha256', JSON.stringify(JSON.parse(GITHUB))),
        }),
      401,
      'Invalid signature.',
    ],
    [
      'a sha1 signature that does not match',
      () => hook('github', keys.github as string, GITHUB, { 'X-Hub-Signature': sign('sha1', `${GITHUB} `) }),
      401,
      'Invalid signature.',
    ],
    [
      'a wrong GitLab token',
      () =>
        hook('gitlab', keys.gitlab as string, fixture('gitlab-push'), {
          'X-Gitlab-Event': 'Push Hook',
          'X-Gitlab-Token': 'nope',
        }),
      401,
      'Invalid token.',
    ],
    [
      'a Bitbucket signature over other bytes',
      () =>
        hook('bitbucket', keys.bitbucket as string, fixture('bitbucket-cloud-push'), {
          'X-Event-Key': 'repo:push',
          'X-Hub-Signature': sign('sha256', '{}'),
        }),
      401,
      'Invalid signature.',
    ],
    [
      'a ping with a bad signature',
      () =>
        hook('github', keys.github as string, fixture('github-ping'), {
          'X-GitHub-Event': 'ping',
          'X-Hub-Signature-256': 'sha256=0',
        }),
      401,
      'Invalid signature.',
    ],
    [
      'malformed JSON',
      () => hook('github', keys.github as string, '{"ref": ', signed('{"ref": ')),
      400,
      'payload: is not valid JSON',
    ],
    [
      'a JSON document that is not a push',
      () => hook('github', keys.github as string, notAPush, signed(notAPush)),
      400,
      'payload: not a GitHub push payload: commits: Invalid input: expected array, received undefined',
    ],
    [
      'a form without a payload field',
      () =>
        hook('github', keys.github as string, 'foo=bar', {
          ...signed('foo=bar'),
          'content-type': 'application/x-www-form-urlencoded',
        }),
      400,
      'payload: the form body has no payload field',
    ],
    [
      'no payload at all',
      () => hook('github', keys.open as string, '', {}),
      400,
      'payload: is required (a JSON body, a form field or a query parameter)',
    ],
    [
      'an XML body',
      () =>
        hook('github', keys.github as string, '<push/>', {
          ...signed('<push/>'),
          'content-type': 'application/xml',
        }),
      415,
      'Unsupported content type application/xml.',
    ],
    [
      'a push of another repository',
      () => hook('github', keys.github as string, otherRepo, signed(otherRepo)),
      403,
      'You have no rights to receive pushes of repository [ someone/else ] with this apiKey.',
    ],
    [
      'a body over 25 MB',
      () => hook('github', keys.github as string, tooLarge, {}),
      413,
      'Request body exceeds 26214400 bytes.',
    ],
    [
      'an unknown host',
      () => hook('svn', keys.github as string, GITHUB, signed(GITHUB)),
      404,
      'VCS host [ svn ] not found.',
    ],
  ])('%s → %i', async (_name, send, status, message) => {
    const before = await hookState(server.orm);
    const res = await send();
    expect(res.status, res.text).toBe(status);
    expect(res.json()).toMatchObject({ value: message, status });
    expect(await hookState(server.orm)).toEqual(before);
  });

  it('GET on a receiver is 405', async () => {
    const res = await call(server.url, 'GET', `/rest/vcsHooksReceiver/github?apiKey=${keys.github}`, {
      auth: null,
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it.each<[string, string, () => Promise<Reply>, unknown]>([
    [
      'a GitHub ping',
      'github',
      () =>
        hook('github', keys.github as string, fixture('github-ping'), {
          'X-GitHub-Event': 'ping',
          'X-Hub-Signature-256': sign('sha256', fixture('github-ping')),
        }),
      { status: 'pong' },
    ],
    [
      'a GitHub issues event',
      'github',
      () =>
        hook('github', keys.github as string, '{}', {
          'X-GitHub-Event': 'issues',
          'X-Hub-Signature-256': sign('sha256', '{}'),
        }),
      { status: 'ignored', reason: 'issues events are not processed' },
    ],
    [
      'a GitLab tag push',
      'gitlab',
      () =>
        hook('gitlab', keys.gitlab as string, '{}', {
          'X-Gitlab-Event': 'Tag Push Hook',
          'X-Gitlab-Token': SECRET,
        }),
      { status: 'ignored', reason: 'Tag Push Hook events are not processed' },
    ],
    [
      'a Bitbucket diagnostics ping',
      'bitbucket',
      () =>
        hook('bitbucket', keys.bitbucket as string, '{}', {
          'X-Event-Key': 'diagnostics:ping',
          'X-Hub-Signature': sign('sha256', '{}'),
        }),
      { status: 'pong' },
    ],
  ])('%s is answered 200 and stores nothing', async (_name, _host, send, body) => {
    const before = await hookState(server.orm);
    const res = await send();
    expect(res.status).toBe(200);
    expect(res.json()).toEqual(body);
    expect(await hookState(server.orm)).toEqual(before);
  });
});

describe('deliveries are applied once', () => {
  const push = (sha: string, message: string, ref = 'refs/heads/main') =>
    JSON.stringify({
      ref,
      repository: { full_name: 'trackline/webapp' },
      commits: [
        {
          id: sha,
          message,
          timestamp: '2024-03-14T12:00:00Z',
          url: `https://github.com/trackline/webapp/commit/${sha}`,
          author: { name: 'Alice', email: 'ALICE@example.com' },
        },
      ],
    });
  const send = (body: string, delivery: string) =>
    hook('github', keys.github as string, body, { ...signed(body), 'X-GitHub-Delivery': delivery });

  it('a redelivery is answered 200 with the recorded results and applies nothing again', async () => {
    const body = push('a'.repeat(40), '#TL-1 tag redelivered');
    const first = await send(body, 'delivery-1');
    expect(first.status).toBe(202);
    await waitForDelivery(server.url, 'gh', first.json().delivery);
    const before = await hookState(server.orm);
    const again = await send(body, 'delivery-1');
    expect(again.status).toBe(200);
    expect(again.json()).toMatchObject({ status: 'duplicate', delivery: first.json().delivery });
    expect(again.json().commits[0].results.map((r: { status: string }) => r.status)).toEqual([
      'applied',
      'applied',
    ]);
    expect(await hookState(server.orm)).toEqual(before);
  });

  it('the same commit on two branches is recorded and commanded once; the second report says why', async () => {
    const sha = 'b'.repeat(40);
    const main = await send(push(sha, 'Fix #TL-2\n#TL-2 tag branches', 'refs/heads/main'), 'branch-main');
    const feature = await send(
      push(sha, 'Fix #TL-2\n#TL-2 tag branches', 'refs/heads/feature/x'),
      'branch-feature',
    );
    expect([main.status, feature.status]).toEqual([202, 202]);
    const mainId = main.json().delivery;
    await waitForDelivery(server.url, 'gh', mainId);
    const report = await waitForDelivery(server.url, 'gh', feature.json().delivery);
    expect(resultLines(report)).toEqual([
      `TL-2 comment: skipped (already processed by delivery ${mainId})`,
      `TL-2 tag branches: skipped (already processed by delivery ${mainId})`,
    ]);
    const tl2 = await issueState(server.orm, 'TL-2');
    expect(tl2.comments.filter((c) => c.includes(sha))).toHaveLength(1);
    expect(tl2.tags).toEqual(['alice:branches']);
  });
});
