import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJson, expectJsonError, JSON_ACCEPT, startTestServer, type TestServer } from '../harness.js';
import { createIssue, getIssueJson, q, ROLE_USERS, setUpWorld } from '../issue-fixtures.js';
import {
  call,
  createIntegration,
  setUpScenario,
  startVcsServer,
  type VcsServer,
  waitForDelivery,
} from '../vcs/vcs-harness.js';

/**
 * Deleting a project moves it to a trash: invisible everywhere (routes, search, commands,
 * links), names reserved, restorable by an administrator with issues and cross-project links,
 * purged for good on request or after TRACKLINE_TRASH_DAYS. Deleting a shared tag never
 * untags issues the deleter cannot read. VCS integrations mark a trashed linked project.
 */

const TRASH_DAYS = 7;
const DEV = ROLE_USERS.Developer;
const PADMIN = ROLE_USERS['Project Admin'];
let server: TestServer;
let doomed: string;
let kept: string;

const as = (user: string, method: string, path: string) =>
  server.request(method, path, { user, accept: JSON_ACCEPT });
const root = (method: string, path: string) => as('root', method, path);
const notFound = async (user: string, method: string, path: string) =>
  expectJsonError(await as(user, method, path), 404, 'NOT_FOUND', /not found/);

beforeAll(async () => {
  server = await startTestServer({ handler: { trashDays: TRASH_DAYS } });
  await setUpWorld(server);
  expect((await root('PUT', `/rest/admin/project/DOOM${q({ projectName: 'Doomed' })}`)).status).toBe(201);
  for (const user of [DEV, PADMIN]) {
    const role = user === DEV ? 'Developer' : 'Project%20Admin';
    expect((await root('POST', `/rest/admin/user/${user}/role/${role}?project=DOOM`)).status).toBe(200);
  }
  doomed = await createIssue(server, 'doomed needle', { project: 'DOOM' });
  kept = await createIssue(server, 'kept issue');
  expect(
    (await root('POST', `/rest/issue/${kept}/execute${q({ command: `relates to ${doomed}` })}`)).status,
  ).toBe(200);
});
afterAll(() => server.close());

describe('hardening item 12: data loss on delete', () => {
  it('a deleted project and its issues answer as gone everywhere, even for root', async () => {
    expect((await as(PADMIN, 'DELETE', '/rest/admin/project/DOOM')).status).toBe(200);
    for (const user of ['root', DEV, PADMIN]) {
      await notFound(user, 'GET', '/rest/admin/project/DOOM');
      await notFound(user, 'GET', `/rest/issue/${doomed}`);
      await notFound(user, 'POST', `/rest/issue/${doomed}/execute${q({ command: 'Fixed' })}`);
      await notFound(user, 'PUT', `/rest/issue${q({ project: 'DOOM', summary: 'x' })}`);
      await notFound(user, 'GET', `/rest/command/suggest${q({ command: '', issueIds: doomed })}`);
      const projects = await expectJson(await as(user, 'GET', '/rest/admin/project'), 200);
      expect(projects.map((p: { id: string }) => p.id)).not.toContain('DOOM');
      const folders = await expectJson(await as(user, 'GET', '/rest/issuesFolder'), 200);
      expect(folders.map((f: { id: string }) => f.id)).not.toContain('p-DOOM');
      expect(await expectJson(await as(user, 'GET', `/rest/issue${q({ filter: 'needle' })}`), 200)).toEqual({
        issue: [],
      });
      expect(await expectJson(await as(user, 'GET', `/rest/issue${q({ filter: doomed })}`), 200)).toEqual({
        issue: [],
      });
    }
    // The other project's issue no longer shows the link, and no command can reach the issue.
    expect((await getIssueJson(server, kept)).link).toEqual([]);
    // A link to it is the command error naming it (400), as for any issue that does not exist.
    expectJsonError(
      await as('root', 'POST', `/rest/issue/${kept}/execute${q({ command: `subtask of ${doomed}` })}`),
      400,
      'VALIDATION_FAILED',
      new RegExp(doomed),
    );
  });

  it('its short name and name stay reserved while in the trash', async () => {
    expect((await root('PUT', `/rest/admin/project/DOOM${q({ projectName: 'Other' })}`)).status).toBe(409);
    expect((await root('PUT', `/rest/admin/project/DOOM2${q({ projectName: 'Doomed' })}`)).status).toBe(409);
  });

  it('an administrator lists the trash; others are refused (403), a project admin too', async () => {
    const trash = await expectJson(await root('GET', '/rest/admin/projectTrash'), 200);
    expect(trash).toEqual([
      { id: 'DOOM', name: 'Doomed', issues: 1, deleted: expect.any(Number), purgeAfter: expect.any(Number) },
    ]);
    expect(trash[0].purgeAfter - trash[0].deleted).toBe(TRASH_DAYS * 86_400_000);
    const xml = await server.request('GET', '/rest/admin/projectTrash', { user: 'root' });
    expect(xml.text).toMatch(
      /<trashedProjects><project id="DOOM" name="Doomed" deleted="\d+" purgeAfter="\d+" issues="1"\/><\/trashedProjects>/,
    );
    for (const user of [DEV, PADMIN]) {
      expect((await as(user, 'GET', '/rest/admin/projectTrash')).status).toBe(403);
      expect((await as(user, 'POST', '/rest/admin/projectTrash/DOOM/restore')).status).toBe(403);
      expect((await as(user, 'DELETE', '/rest/admin/projectTrash/DOOM')).status).toBe(403);
    }
    expect((await as(ROLE_USERS.Observer, 'DELETE', '/rest/admin/projectTrash/PRJ')).status).toBe(403);
  });

  it('restoring brings the project back with its issues, grants and cross-project links', async () => {
    await notFound('root', 'POST', '/rest/admin/projectTrash/PRJ/restore');
    const restored = await expectJson(await root('POST', '/rest/admin/projectTrash/doom/restore'), 200);
    expect(restored).toMatchObject({ id: 'DOOM', name: 'Doomed' });
    expect((await getIssueJson(server, doomed, DEV)).field).toEqual(
      expect.arrayContaining([{ name: 'summary', value: 'doomed needle' }]),
    );
    expect((await getIssueJson(server, kept)).link.map((l) => l.target)).toContain(doomed);
    expect(await expectJson(await root('GET', '/rest/admin/projectTrash'), 200)).toEqual([]);
  });

  it('purging removes a trashed project for good (a live one must be deleted first); its names are free again', async () => {
    await notFound('root', 'DELETE', '/rest/admin/projectTrash/DOOM');
    expect((await root('DELETE', '/rest/admin/project/DOOM')).status).toBe(200);
    expect((await root('DELETE', '/rest/admin/projectTrash/DOOM')).status).toBe(200);
    await notFound('root', 'POST', '/rest/admin/projectTrash/DOOM/restore');
    expect((await getIssueJson(server, kept)).link).toEqual([]);
    expect((await root('PUT', `/rest/admin/project/DOOM${q({ projectName: 'Doomed' })}`)).status).toBe(201);
  });

  it('deleting a shared tag that is on issues the deleter cannot read is refused and untags nothing', async () => {
    // The Developer shares a tag; root puts it on an issue of SECRET, which the Developer cannot read.
    expect((await as(PADMIN, 'PUT', '/rest/user/tag/team?shared=true')).status).toBe(201);
    const secret = await createIssue(server, 'secret', { project: 'SECRET' });
    expect((await root('POST', `/rest/issue/${secret}/execute${q({ command: 'tag team' })}`)).status).toBe(
      200,
    );
    expect((await root('POST', `/rest/issue/${kept}/execute${q({ command: 'tag team' })}`)).status).toBe(200);
    expectJsonError(
      await as(PADMIN, 'DELETE', '/rest/user/tag/team'),
      403,
      'PERMISSION_DENIED',
      'You have no rights to delete tag [ team ]: it is on issues you cannot read.',
    );
    expect((await getIssueJson(server, secret)).tag).toEqual([{ value: 'team', cssClass: 'c0' }]);
    expect((await getIssueJson(server, kept)).tag).toEqual([{ value: 'team', cssClass: 'c0' }]);
    // Once only readable issues carry it, the owner deletes it.
    expect((await root('POST', `/rest/issue/${secret}/execute${q({ command: 'untag team' })}`)).status).toBe(
      200,
    );
    expect((await as(PADMIN, 'DELETE', '/rest/user/tag/team')).status).toBe(200);
    expect((await getIssueJson(server, kept)).tag).toEqual([]);
  });
});

describe('hardening item 12: VCS integrations linked to a deleted project', () => {
  let vcs: VcsServer;
  beforeAll(async () => {
    vcs = await startVcsServer();
    await setUpScenario(vcs.orm);
  });
  afterAll(() => vcs.close());

  it('mark the project deleted, and a push naming its issues records "project deleted"', async () => {
    const { apiKey } = await createIntegration(vcs.url, { name: 'hooked' });
    expect((await call(vcs.url, 'DELETE', '/rest/admin/project/TL')).status).toBe(200);
    const shown = await call(vcs.url, 'GET', '/rest/admin/vcsIntegration/hooked');
    expect(shown.json().projects).toEqual([{ shortName: 'TL', deleted: true }]);
    const body = JSON.stringify({
      ref: 'refs/heads/main',
      repository: { full_name: 'trackline/webapp' },
      commits: [
        {
          id: 'e'.repeat(40),
          message: '#TL-1 Fixed',
          timestamp: 't1',
          url: 'u1',
          author: { name: 'Alice', email: 'alice@example.com' },
        },
      ],
    });
    const receipt = await call(vcs.url, 'POST', `/rest/vcsHooksReceiver/github?apiKey=${apiKey}`, {
      auth: null,
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(receipt.status, receipt.text).toBe(202);
    const report = await waitForDelivery(vcs.url, 'hooked', receipt.json().delivery);
    expect(report.commits[0].results).toEqual([
      { issue: 'TL-1', command: 'comment', status: 'skipped', reason: 'project deleted' },
      { issue: 'TL-1', command: 'Fixed', status: 'skipped', reason: 'project deleted' },
    ]);
    // Restored, the integration names it plainly again.
    expect((await call(vcs.url, 'POST', '/rest/admin/projectTrash/TL/restore')).status).toBe(200);
    expect((await call(vcs.url, 'GET', '/rest/admin/vcsIntegration/hooked')).json().projects).toEqual([
      { shortName: 'TL' },
    ]);
  });
});
