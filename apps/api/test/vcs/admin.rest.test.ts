import { insertUser } from '@trackline/domain';
import { kitPasswordHash } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  fork,
  setUpScenario,
  sign,
  startVcsServer,
  type VcsServer,
  waitForDelivery,
} from './vcs-harness.js';

let server: VcsServer;
const DEV = `Basic ${Buffer.from('carol:password-1').toString('base64')}`;
const BASE = '/rest/admin/vcsIntegration';

beforeAll(async () => {
  server = await startVcsServer();
  await setUpScenario(server.orm);
  await insertUser(fork(server.orm), { login: 'nobody', passwordHash: await kitPasswordHash('password-1') });
});
afterAll(() => server.close());

describe('VCS integrations over /rest', () => {
  let apiKey = '';

  it('PUT creates one: 201, Location, and the apiKey with the hook URL, shown this once', async () => {
    const res = await call(
      server.url,
      'PUT',
      `${BASE}/web.app?host=github&repository=trackline/webapp&projects=TL,OT&committersRole=Committers&branches=main&secret=s&requirePusherMatch=false`,
    );
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('location')).toBe(`${server.url}${BASE}/web.app`);
    const body = res.json();
    apiKey = body.apiKey;
    expect(body).toMatchObject({
      name: 'web.app',
      host: 'github',
      repository: 'trackline/webapp',
      projects: [{ shortName: 'OT' }, { shortName: 'TL' }],
      branches: 'main',
      committersRole: 'Committers',
      hasSecret: true,
      serviceUser: 'vcs@web.app',
      hookUrl: `${server.url}/rest/vcsHooksReceiver/github?apiKey=${apiKey}`,
    });
    const read = await call(server.url, 'GET', `${BASE}/web.app`);
    expect(read.status).toBe(200);
    expect(read.text).not.toContain(apiKey);
    expect(Object.keys(read.json()).sort()).toEqual(
      [
        'branches',
        'committersRole',
        'createdAt',
        'hasSecret',
        'host',
        'name',
        'projects',
        'repository',
        'requirePusherMatch',
        'serviceUser',
      ].sort(),
    );
  });

  it('lists as legacy XML by default, without secrets', async () => {
    const res = await call(server.url, 'GET', BASE, { headers: { accept: '' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml;charset=UTF-8');
    expect(res.text).toMatch(
      /^<\?xml[^>]*\?><vcsIntegrations><vcsIntegration name="web\.app" host="github" repository="trackline\/webapp" branches="main" committersRole="Committers" hasSecret="true" requirePusherMatch="false" serviceUser="vcs@web\.app" createdAt="[^"]+"><projects><project shortName="OT"\/><project shortName="TL"\/><\/projects><\/vcsIntegration><\/vcsIntegrations>$/,
    );
    expect(res.text).not.toContain(apiKey);
  });

  it('POST updates; regenerateApiKey returns a new key and retires the old one', async () => {
    const res = await call(
      server.url,
      'POST',
      `${BASE}/web.app?projects=TL&branches=&secret=&regenerateApiKey=true`,
    );
    expect(res.status, res.text).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ projects: [{ shortName: 'TL' }], branches: '', hasSecret: false });
    expect(body.apiKey).toMatch(/^vcs_/);
    expect(body.apiKey).not.toBe(apiKey);
    const stale = await call(server.url, 'POST', `/rest/vcsHooksReceiver/github?apiKey=${apiKey}`, {
      auth: null,
      body: '{}',
    });
    expect(stale.status).toBe(401);
    apiKey = body.apiKey;
  });

  it('reports deliveries: the list and per-commit results, also over /trpc', async () => {
    const body = JSON.stringify({
      ref: 'refs/heads/main',
      repository: { full_name: 'trackline/webapp' },
      commits: [
        {
          id: 'c'.repeat(40),
          message: '#TL-1 In Progress\n#TL-2 vote',
          timestamp: 't1',
          url: 'u1',
          author: { name: 'Carol', email: 'carol@example.com' },
        },
        {
          id: 'd'.repeat(40),
          message: 'no reference',
          timestamp: 't2',
          url: 'u2',
          author: { name: 'Alice', email: 'alice@example.com' },
        },
      ],
    });
    const receipt = await call(server.url, 'POST', `/rest/vcsHooksReceiver/github?apiKey=${apiKey}`, {
      auth: null,
      body,
      headers: { 'content-type': 'application/json', 'X-Hub-Signature-256': sign('sha256', body, 'unused') },
    });
    expect(receipt.status, receipt.text).toBe(202);
    const id = receipt.json().delivery;
    const report = await waitForDelivery(server.url, 'web.app', id);
    const reason = 'no user with e-mail carol@example.com holds role [ Committers ] here';
    expect(report).toMatchObject({
      id,
      integration: 'web.app',
      status: 'done',
      attempts: 1,
      commitCount: 2,
      event: 'push',
    });
    expect(report.commits).toEqual([
      {
        sha: 'c'.repeat(40),
        branch: 'main',
        url: 'u1',
        author: 'Carol <carol@example.com>',
        status: 'applied',
        results: [
          { issue: 'TL-1', command: 'comment', status: 'applied', reason, actor: 'vcs@web.app' },
          { issue: 'TL-1', command: 'In Progress', status: 'skipped', reason },
          { issue: 'TL-2', command: 'comment', status: 'applied', reason, actor: 'vcs@web.app' },
          { issue: 'TL-2', command: 'vote', status: 'skipped', reason },
        ],
      },
      {
        sha: 'd'.repeat(40),
        branch: 'main',
        url: 'u2',
        author: 'Alice <alice@example.com>',
        status: 'skipped',
        reason: 'no issue reference in the message',
        results: [],
      },
    ]);
    const list = await call(server.url, 'GET', `${BASE}/web.app/delivery`);
    expect(list.json()).toEqual([
      expect.objectContaining({
        id,
        status: 'done',
        commitCount: 2,
        deliveryKey: expect.stringMatching(/^sha256:/),
      }),
    ]);
    const xml = await call(server.url, 'GET', `${BASE}/web.app/delivery/${id}`, {
      headers: { accept: 'application/xml' },
    });
    expect(xml.text).toContain(
      `<commit sha="${'c'.repeat(40)}" branch="main" url="u1" author="Carol &lt;carol@example.com&gt;" status="applied"><results><result issue="TL-1" command="comment"`,
    );
    const trpc = await call(
      server.url,
      'GET',
      `/trpc/vcs.delivery?input=${encodeURIComponent(JSON.stringify({ name: 'web.app', delivery: id }))}`,
    );
    expect(trpc.json().result.data).toEqual(report);
  });

  it('lists the integration’s service account among the system users', async () => {
    const res = await call(server.url, 'GET', '/rest/admin/systemuser');
    expect(res.json().map((u: { login: string; type: string }) => `${u.login}:${u.type}`)).toContain(
      'vcs@web.app:service',
    );
  });

  it.each([
    ['GET', BASE],
    ['GET', `${BASE}/web.app`],
    ['PUT', `${BASE}/other?host=github&repository=a/b&projects=TL&committersRole=Committers`],
    ['POST', `${BASE}/web.app?branches=x`],
    ['DELETE', `${BASE}/web.app`],
    ['GET', `${BASE}/web.app/delivery`],
    ['GET', `${BASE}/web.app/delivery/1`],
  ])('%s %s needs ADMIN_VCS_INTEGRATION (403)', async (method, path) => {
    const res = await call(server.url, method, path, { auth: DEV });
    expect(res.status, res.text).toBe(403);
    expect(res.json().value).toBe(
      'You have no rights to administer vcs integrations (ADMIN_VCS_INTEGRATION).',
    );
  });

  it.each([
    [
      'an unknown project',
      `${BASE}/x?host=github&repository=a/b&projects=NOPE&committersRole=Committers`,
      404,
      'Project [ NOPE ] not found.',
    ],
    [
      'an unknown host',
      `${BASE}/x?host=svn&repository=a/b&projects=TL&committersRole=Committers`,
      400,
      /host/,
    ],
    [
      'a name with a space',
      `${BASE}/a%20b?host=github&repository=a/b&projects=TL&committersRole=Committers`,
      400,
      /name/,
    ],
    [
      'an existing name',
      `${BASE}/WEB.APP?host=github&repository=a/b&projects=TL&committersRole=Committers`,
      409,
      'VCS integration [ WEB.APP ] already exists.',
    ],
  ])('PUT refuses %s', async (_name, path, status, message) => {
    const res = await call(server.url, 'PUT', path);
    expect(res.status, res.text).toBe(status);
    expect(res.json().value).toMatch(message);
  });

  it('DELETE removes it (text message) and its apiKey stops working', async () => {
    const res = await call(server.url, 'DELETE', `${BASE}/web.app`, { headers: { accept: '' } });
    expect(res.status).toBe(200);
    expect(res.text).toBe('VCS integration [ web.app ] was successfully deleted.');
    const hook = await call(server.url, 'POST', `/rest/vcsHooksReceiver/github?apiKey=${apiKey}`, {
      auth: null,
      body: '{}',
    });
    expect(hook.status).toBe(401);
    expect((await call(server.url, 'GET', `${BASE}/web.app`)).status).toBe(404);
  });

  it('needs credentials at all (401)', async () => {
    expect((await call(server.url, 'GET', BASE, { auth: null })).status).toBe(401);
  });
});
