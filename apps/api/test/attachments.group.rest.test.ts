import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  addRolePermission,
  addUserToGroup,
  createFileAttachmentStore,
  createGroup,
  createRole,
  grantRole,
} from '@trackline/domain';
import { actorFor } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  basic,
  fork,
  JSON_ACCEPT,
  ROOT_PASSWORD,
  startTestServer,
  type TestServer,
  USER_PASSWORD,
  userWithRole,
  xmlElements,
} from './harness.js';

/*
 * `group` of `POST /rest/issue/{id}/attachment` (issue 37, item 4): the original takes it in the
 * query or as a form field; the files are then seen, as the import's restricted files are, by
 * their author, the group's members and holders of READ_HIDDEN_STUFF in the project, in the
 * list, the download and the issue's `attachments` field. An unknown group answers 404 as
 * comments do and stores nothing; an empty `group=` (the JetBrains library always sends it)
 * means no group.
 *
 * Callers (all in project AGR unless said): root; author (Developer, not in the group, uploads);
 * member (Developer, in the group); padmin (Project Admin: READ_HIDDEN_STUFF); outsider
 * (Developer, not in the group); observer (Observer, not in the group).
 */

type Kind = 'root' | 'author' | 'member' | 'padmin' | 'outsider' | 'observer';
const LOGINS: Record<Kind, string> = {
  root: 'root',
  author: 'ag_author',
  member: 'ag_member',
  padmin: 'ag_padmin',
  outsider: 'ag_outsider',
  observer: 'ag_observer',
};
/** Who sees a file restricted to the group (written from the rule, docs/visibility.md). */
const SEES: Record<Kind, boolean> = {
  root: true,
  author: true,
  member: true,
  padmin: true,
  outsider: false,
  observer: false,
};
const KINDS = Object.keys(LOGINS) as Kind[];

let server: TestServer;
let dir: string;
const auth = (login: string) => basic(login, login === 'root' ? ROOT_PASSWORD : USER_PASSWORD);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trackline-att-group-'));
  server = await startTestServer({
    handler: { attachments: { store: createFileAttachmentStore(dir), maxBytes: 10_000 } },
  });
  await server.request('PUT', '/rest/admin/project/AGR?projectName=Groups&projectLeadLogin=root', {
    user: 'root',
  });
  for (let i = 0; i < 8; i++)
    await server.request('PUT', `/rest/issue?project=AGR&summary=g${i}`, { user: 'root' });
  await userWithRole(server.orm, LOGINS.author, 'Developer', 'AGR');
  await userWithRole(server.orm, LOGINS.member, 'Developer', 'AGR');
  await userWithRole(server.orm, LOGINS.padmin, 'Project Admin', 'AGR');
  await userWithRole(server.orm, LOGINS.outsider, 'Developer', 'AGR');
  await userWithRole(server.orm, LOGINS.observer, 'Observer', 'AGR');
  const root = await actorFor(server.orm, 'root');
  await createGroup(fork(server.orm), root, 'Ag Team');
  await addUserToGroup(fork(server.orm), root, LOGINS.member, 'Ag Team');
  // The author names a group it is not in: it may, holding READ_USERGROUP in the project (issue
  // 37 item 13: a caller names its own groups, or any with READ_USERGROUP).
  await createRole(fork(server.orm), root, 'Group reader', 'names any group');
  await addRolePermission(fork(server.orm), root, 'Group reader', 'READ_USERGROUP');
  await grantRole(fork(server.orm), root, LOGINS.author, 'Group reader', 'AGR');
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One file, with `fields` as form fields before it, as a browser or requests writes the form. */
function upload(issue: string, query: string, fields: [string, string][] = [], login = LOGINS.author) {
  const data = new FormData();
  for (const [name, value] of fields) data.append(name, value);
  data.append('files', new Blob(['restricted bytes'], { type: 'text/plain' }), 'plan.txt');
  return fetch(`${server.url}/rest/issue/${issue}/attachment${query}`, {
    method: 'POST',
    headers: { authorization: auth(login), accept: 'application/xml' },
    body: data,
  });
}

async function listAs(issue: string, kind: Kind) {
  const res = await fetch(`${server.url}/rest/issue/${issue}/attachment`, {
    headers: { authorization: auth(LOGINS[kind]), accept: 'application/xml' },
  });
  expect(res.status).toBe(200);
  return xmlElements(await res.text(), 'fileUrl');
}

async function issueAttachmentsAs(issue: string, kind: Kind): Promise<string[]> {
  const res = await fetch(`${server.url}/rest/issue/${issue}`, {
    headers: { authorization: auth(LOGINS[kind]), accept: JSON_ACCEPT },
  });
  expect(res.status).toBe(200);
  const field = (await res.json()).field.find((f: { name: string }) => f.name === 'attachments');
  return field ? field.value.map((v: { value: string }) => v.value) : [];
}

/** The matrix for a file of `issue` restricted to Ag Team: list, download and issue view per caller. */
async function expectRestricted(issue: string) {
  const [file] = await listAs(issue, 'root');
  expect(file?.group).toBe('Ag Team');
  const seen: Record<string, unknown> = {};
  for (const kind of KINDS) {
    const listed = (await listAs(issue, kind)).map((f) => f.name);
    const download = await fetch(`${server.url}${file?.url}`, {
      headers: { authorization: auth(LOGINS[kind]) },
    });
    const body = await download.text();
    seen[kind] = {
      listed,
      download: download.status,
      bytes: download.status === 200 ? body : '',
      view: await issueAttachmentsAs(issue, kind),
    };
  }
  const expected = Object.fromEntries(
    KINDS.map((kind) => [
      kind,
      SEES[kind]
        ? { listed: ['plan.txt'], download: 200, bytes: 'restricted bytes', view: ['plan.txt'] }
        : { listed: [], download: 404, bytes: '', view: [] },
    ]),
  );
  expect(seen).toEqual(expected);
}

describe('group on POST /rest/issue/{id}/attachment', () => {
  it('from the query: author, members and READ_HIDDEN_STUFF see the file; others find it missing', async () => {
    const res = await upload('AGR-1', '?group=Ag+Team');
    expect(res.status, await res.text()).toBe(201);
    await expectRestricted('AGR-1');
  });

  it('as a multipart form field (any spelling of the group’s name), even after the file part', async () => {
    const before = await upload('AGR-2', '', [['group', 'ag  team']]);
    expect(before.status, await before.text()).toBe(201);
    await expectRestricted('AGR-2');
    const data = new FormData();
    data.append('files', new Blob(['restricted bytes'], { type: 'text/plain' }), 'plan.txt');
    data.append('group', 'Ag Team');
    const after = await fetch(`${server.url}/rest/issue/AGR-3/attachment`, {
      method: 'POST',
      headers: { authorization: auth(LOGINS.author) },
      body: data,
    });
    expect(after.status, await after.text()).toBe(201);
    await expectRestricted('AGR-3');
  });

  it('an unknown group answers 404 as comments do, and nothing is stored (query or form)', async () => {
    const query = await upload('AGR-4', '?group=No+Such+Group');
    expect(query.status).toBe(404);
    expect(await query.text()).toMatch(/No Such Group/);
    const form = await upload('AGR-4', '', [['group', 'Nobody Here']]);
    expect(form.status).toBe(404);
    expect(await form.text()).toMatch(/Nobody Here/);
    expect(await listAs('AGR-4', 'root')).toEqual([]);
    const comment = await server.request('POST', '/rest/issue/AGR-4/execute?comment=hi&group=No+Such+Group', {
      user: 'root',
    });
    expect(comment.status).toBe(404);
  });

  it('a group the uploader may not name (not its own, no READ_USERGROUP) answers as an unknown one, and nothing is stored', async () => {
    const named = await upload('AGR-6', '?group=Ag+Team', [], LOGINS.outsider);
    const unknown = await upload('AGR-6', '?group=Zz+Team', [], LOGINS.outsider);
    expect(named.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect((await named.text()).replace('Ag Team', 'X')).toBe((await unknown.text()).replace('Zz Team', 'X'));
    expect(await listAs('AGR-6', 'root')).toEqual([]);
  });

  it('an empty group= (what the JetBrains library sends) means no group: every reader sees the file', async () => {
    const res = await upload('AGR-5', '?authorLogin=ag_author&group=&created=1500000000000');
    expect(res.status, await res.text()).toBe(201);
    for (const kind of KINDS) expect((await listAs('AGR-5', kind)).map((f) => f.name)).toEqual(['plan.txt']);
    const [file] = await listAs('AGR-5', 'root');
    expect(file?.group).toBeUndefined();
  });

  it('is documented in the OpenAPI document (query parameter and form field)', async () => {
    const doc = await (await fetch(`${server.url}/rest/openapi.json`)).json();
    const post = doc.paths['/issue/{issue}/attachment'].post;
    expect(post.parameters.map((p: { name: string }) => p.name)).toContain('group');
    expect(Object.keys(post.requestBody.content['multipart/form-data'].schema.properties)).toContain('group');
    expect(post.description).toMatch(/unknown group answers 404/);
  });
});
