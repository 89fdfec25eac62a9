import { addRolePermission, createRole, grantRole, insertUser } from '@trackline/domain';
import { kitPasswordHash } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorFor, basic } from '../harness.js';
import {
  call,
  createIntegration,
  fixture,
  fork,
  SECRET,
  setUpScenario,
  sign,
  startVcsServer,
  type VcsServer,
  waitForDelivery,
} from '../vcs/vcs-harness.js';

/**
 * `vcsadm` holds ADMIN_VCS_INTEGRATION globally and reads only OT. The integrations `tl`
 * (linked to TL) and `both` (TL and OT) must look missing to it in every operation; `ot`
 * (OT only) stays its own to administer.
 */
let server: VcsServer;
const BASE = '/rest/admin/vcsIntegration';
const VCS_ADMIN = basic('vcsadm', 'password-1');
let tlKey = '';
let delivery = 0;

const asAdmin = (method: string, path: string) => call(server.url, method, path, { auth: VCS_ADMIN });
const asRoot = (method: string, path: string) => call(server.url, method, path);

beforeAll(async () => {
  server = await startVcsServer();
  await setUpScenario(server.orm);
  const root = await actorFor(server.orm, 'root');
  await createRole(fork(server.orm), root, 'VCS admins');
  await addRolePermission(fork(server.orm), root, 'VCS admins', 'ADMIN_VCS_INTEGRATION');
  await insertUser(fork(server.orm), { login: 'vcsadm', passwordHash: await kitPasswordHash('password-1') });
  await grantRole(fork(server.orm), root, 'vcsadm', 'VCS admins');
  await grantRole(fork(server.orm), root, 'vcsadm', 'Reporter', 'OT');

  tlKey = (await createIntegration(server.url, { name: 'tl', secret: SECRET })).apiKey;
  const both = await asRoot(
    'PUT',
    `${BASE}/both?host=github&repository=trackline/webapp&projects=TL,OT&committersRole=Committers`,
  );
  expect(both.status, both.text).toBe(201);
  const own = await asAdmin(
    'PUT',
    `${BASE}/ot?host=gitlab&repository=trackline/webapp&projects=OT&committersRole=Committers`,
  );
  expect(own.status, own.text).toBe(201);

  const body = fixture('github-push');
  const hook = await call(server.url, 'POST', `/rest/vcsHooksReceiver/github?apiKey=${tlKey}`, {
    auth: null,
    body,
    headers: {
      'content-type': 'application/json',
      'X-GitHub-Event': 'push',
      'X-Hub-Signature-256': sign('sha256', body),
    },
  });
  expect(hook.status, hook.text).toBe(202);
  delivery = hook.json().delivery;
  await waitForDelivery(server.url, 'tl', delivery);
});
afterAll(() => server.close());

describe('hardening item 4: VCS integrations are administered only within the caller’s projects', () => {
  it('list leaves out integrations linking a project the caller cannot administer', async () => {
    const res = await asAdmin('GET', BASE);
    expect(res.status, res.text).toBe(200);
    expect(res.json().map((i: { name: string }) => i.name)).toEqual(['ot']);
    expect(res.text).not.toContain('TL');
    const all = await asRoot('GET', BASE);
    expect(all.json().map((i: { name: string }) => i.name)).toEqual(['both', 'ot', 'tl']);
  });

  it.each(['tl', 'both'])('get %s looks missing (404)', async (name) => {
    const res = await asAdmin('GET', `${BASE}/${name}`);
    expect(res.status, res.text).toBe(404);
    expect(res.json().value).toBe(`VCS integration [ ${name} ] not found.`);
  });

  it.each([
    ['update branches', 'branches=evil'],
    ['update repository', 'repository=evil/repo'],
    ['update committers role', 'committersRole=Developer'],
    ['update projects', 'projects=OT'],
    ['regenerate the apiKey', 'regenerateApiKey=true'],
    ['clear the secret', 'secret='],
    ['set the secret', 'secret=attacker-secret'],
  ])('%s: 404, nothing changes', async (_what, query) => {
    const before = (await asRoot('GET', `${BASE}/tl`)).json();
    const res = await asAdmin('POST', `${BASE}/tl?${query}`);
    expect(res.status, res.text).toBe(404);
    expect(res.json().value).toBe('VCS integration [ tl ] not found.');
    expect(res.text).not.toContain('apiKey');
    expect((await asRoot('GET', `${BASE}/tl`)).json()).toEqual(before);
  });

  it('after the refused updates the old apiKey still works and the secret still holds', async () => {
    const body = fixture('github-ping');
    const ping = (headers: Record<string, string>) =>
      call(server.url, 'POST', `/rest/vcsHooksReceiver/github?apiKey=${tlKey}`, {
        auth: null,
        body,
        headers: { 'content-type': 'application/json', 'X-GitHub-Event': 'ping', ...headers },
      });
    const signed = await ping({ 'X-Hub-Signature-256': sign('sha256', body) });
    expect(signed.status, signed.text).toBe(200);
    expect((await ping({ 'X-Hub-Signature-256': sign('sha256', body, 'attacker-secret') })).status).toBe(401);
    expect((await ping({})).status).toBe(401);
  });

  it('delete: 404, the integration stays', async () => {
    const res = await asAdmin('DELETE', `${BASE}/both`);
    expect(res.status, res.text).toBe(404);
    expect((await asRoot('GET', `${BASE}/both`)).status).toBe(200);
  });

  it('list deliveries: 404 without commit data', async () => {
    const res = await asAdmin('GET', `${BASE}/tl/delivery`);
    expect(res.status, res.text).toBe(404);
    expect(res.text).not.toContain('TL-1');
    expect((await asRoot('GET', `${BASE}/tl/delivery`)).json()).toHaveLength(1);
  });

  it('delivery report: 404 without commit messages or issue ids', async () => {
    const res = await asAdmin('GET', `${BASE}/tl/delivery/${delivery}`);
    expect(res.status, res.text).toBe(404);
    expect(res.text).not.toMatch(/TL-1|redirect loop/);
  });

  it('linking an unreadable project, on create or on update of its own integration: 404', async () => {
    const create = await asAdmin(
      'PUT',
      `${BASE}/new?host=github&repository=a/b&projects=OT,TL&committersRole=Committers`,
    );
    expect(create.status, create.text).toBe(404);
    expect(create.json().value).toBe('Project [ TL ] not found.');
    const update = await asAdmin('POST', `${BASE}/ot?projects=OT,TL`);
    expect(update.status, update.text).toBe(404);
    expect(update.json().value).toBe('Project [ TL ] not found.');
    expect((await asAdmin('GET', `${BASE}/ot`)).json().projects).toEqual([{ shortName: 'OT' }]);
  });

  it('its own integration stays fully administrable', async () => {
    expect((await asAdmin('GET', `${BASE}/ot`)).status).toBe(200);
    const update = await asAdmin('POST', `${BASE}/ot?branches=main&regenerateApiKey=true`);
    expect(update.status, update.text).toBe(200);
    expect(update.json()).toMatchObject({ branches: 'main', apiKey: expect.any(String) });
    expect((await asAdmin('GET', `${BASE}/ot/delivery`)).json()).toEqual([]);
    expect((await asAdmin('DELETE', `${BASE}/ot`)).status).toBe(200);
  });
});
