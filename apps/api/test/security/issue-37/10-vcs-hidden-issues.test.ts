import {
  addRolePermission,
  addUserToGroup,
  createGroup,
  createRole,
  executeCommand,
  grantRole,
  insertUser,
} from '@trackline/domain';
import { githubPush, kitPasswordHash } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorFor, basic } from '../../harness.js';
import {
  call,
  createIntegration,
  fork,
  issueState,
  resultLines,
  SECRET,
  setUpScenario,
  sign,
  startVcsServer,
  type VcsServer,
  waitForDelivery,
} from '../../vcs/vcs-harness.js';

/**
 * Issue 37, item 10: a VCS integration administrator who could not read TL-2 (visible to the
 * group `secret`) saw "applied" for it in the delivery log, where a missing issue says "no such
 * issue", and could plant a commit comment in it (by the service account) by regenerating the
 * key and pushing a commit of an unknown author. A hidden issue now answers like a missing one in
 * the deliveries, and a commit applies to an issue only when its committer may read it (a commit
 * of no known committer: only to an issue restricted to no group).
 */
describe('issue 37 item 10: VCS deliveries and commits keep to what their reader and committer read', () => {
  let server: VcsServer;
  let delivery = 0;
  let body = '';
  const ADMIN = basic('vcsadm', 'password-1');
  const BASE = '/rest/admin/vcsIntegration/webapp';

  const push = (payload: string, apiKey: string) =>
    call(server.url, 'POST', `/rest/vcsHooksReceiver/github?apiKey=${apiKey}`, {
      auth: null,
      body: payload,
      headers: {
        'content-type': 'application/json',
        'X-GitHub-Event': 'push',
        'X-Hub-Signature-256': sign('sha256', payload),
      },
    });

  beforeAll(async () => {
    server = await startVcsServer();
    await setUpScenario(server.orm);
    const root = await actorFor(server.orm, 'root');
    await createGroup(fork(server.orm), root, 'secret');
    await addUserToGroup(fork(server.orm), root, 'alice', 'secret');
    await executeCommand(fork(server.orm), root, ['TL-2'], 'visible to secret');
    // vcsadm administers integrations and reads TL, but not TL-2.
    await createRole(fork(server.orm), root, 'VCS admins');
    await addRolePermission(fork(server.orm), root, 'VCS admins', 'ADMIN_VCS_INTEGRATION');
    await insertUser(fork(server.orm), {
      login: 'vcsadm',
      email: 'vcsadm@example.com',
      passwordHash: await kitPasswordHash('password-1'),
    });
    await grantRole(fork(server.orm), root, 'vcsadm', 'VCS admins');
    await grantRole(fork(server.orm), root, 'vcsadm', 'Reporter', 'TL');
    await createIntegration(server.url, { secret: SECRET });
    // The administrator takes the integration's key and pushes: alice's real commit on TL-2, and
    // its own (no committer: unmatched) on TL-2, TL-3 and TL-99.
    const regenerated = await call(server.url, 'POST', `${BASE}?regenerateApiKey=true`, { auth: ADMIN });
    expect(regenerated.status, regenerated.text).toBe(200);
    body = JSON.stringify(
      githubPush([
        ['a'.repeat(40), 'Fix the secret thing #TL-2 Fixed', 'alice@example.com'],
        ['b'.repeat(40), 'planted\n#TL-2\n#TL-3\n#TL-99', 'vcsadm@example.com'],
      ]),
    );
    const hook = await push(body, regenerated.json().apiKey);
    expect(hook.status, hook.text).toBe(202);
    delivery = hook.json().delivery;
    await waitForDelivery(server.url, 'webapp', delivery);
  });
  afterAll(() => server.close());

  it('no comment is planted in TL-2 by an unknown committer; TL-3, open to the project, still gets it', async () => {
    const hidden = await issueState(server.orm, 'TL-2');
    expect(hidden.comments).toEqual([expect.stringMatching(/^alice: Commit made by '''alice'''/)]);
    expect(hidden.state).toBe('Fixed');
    const open = await issueState(server.orm, 'TL-3');
    expect(open.comments).toEqual([expect.stringMatching(/^vcs@webapp: Commit made by '''vcsadm'''/)]);
  });

  it('the administrator’s delivery log answers for TL-2 exactly as for TL-99', async () => {
    const res = await call(server.url, 'GET', `${BASE}/delivery/${delivery}`, { auth: ADMIN });
    expect(res.status, res.text).toBe(200);
    const missing = "skipped (no such issue in the integration's projects)";
    expect(resultLines(res.json())).toEqual([
      `TL-2 comment: ${missing}`,
      `TL-2 Fixed: ${missing}`,
      `TL-2 comment: ${missing}`,
      'TL-3 comment: applied as vcs@webapp (no user with e-mail vcsadm@example.com holds role [ Committers ] here)',
      `TL-99 comment: ${missing}`,
    ]);
  });

  it('root reads it: alice’s commit applied; the unknown committer’s not recorded on TL-2', async () => {
    const res = await call(server.url, 'GET', `${BASE}/delivery/${delivery}`);
    expect(resultLines(res.json()).slice(0, 3)).toEqual([
      'TL-2 comment: applied as alice',
      'TL-2 Fixed: applied as alice',
      'TL-2 comment: skipped (not recorded)',
    ]);
  });

  it('a redelivery answers its caller (the key’s holder) with TL-2 as missing too', async () => {
    const key = await call(server.url, 'POST', `${BASE}?regenerateApiKey=true`, { auth: ADMIN });
    const again = await push(body, key.json().apiKey);
    expect(again.status, again.text).toBe(200);
    expect(again.json().status).toBe('duplicate');
    const lines = resultLines(again.json());
    expect(lines.slice(0, 2)).toEqual([
      "TL-2 comment: skipped (no such issue in the integration's projects)",
      "TL-2 Fixed: skipped (no such issue in the integration's projects)",
    ]);
  });
});
