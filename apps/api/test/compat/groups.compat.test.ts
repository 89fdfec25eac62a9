import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectJson,
  expectJsonError,
  expectNoStackTraces,
  expectXml,
  expectXmlError,
  JSON_ACCEPT,
  startTestServer,
  type TestServer,
  XML_ACCEPT,
  xmlElements,
} from '../harness.js';
import { createIssue, NO_ROLES, PRJ, q, root, setUpWorld } from '../issue-fixtures.js';

/*
 * Groups and group membership as the legacy clients use them (legacy-clients.md, "users,
 * groups"; the original's docs "GET Groups", "GET User Groups"):
 *   - `GET /rest/admin/group`, `GET /rest/admin/user/{login}/group`: `userGroupRefs` > `userGroup name url`;
 *     JSON `[{name, url}]` (YouTrackSharp 2.x `Admin/Group.cs`).
 *   - `PUT /rest/admin/group/{name}?autoJoin=false` (python `createGroup`): 201 + Location; 409 if it exists.
 *   - `POST|DELETE /rest/admin/user/{login}/group/{group}` (python `setUserGroup`, empty body): 200.
 *   - `PUT /rest/admin/group/{g}/role/{r}` with the body `<userRole name><projects><projectRef id url/></projects></userRole>`
 *     (python `addUserRoleToGroup`); `GET …/role` answers `userRoles` > `userRole name` > `projects` > `projectRef id`.
 */

let server: TestServer;
let issueId: string;

beforeAll(async () => {
  server = await startTestServer();
  await setUpWorld(server);
  issueId = await createIssue(server, 'Readable through a group');
});
afterAll(() => server.close());

const rootElement = (xml: string) => /^<\?xml[^>]*\?><([\w:-]+)/.exec(xml)?.[1];
const groupPath = (name: string) => `/rest/admin/group/${encodeURIComponent(name)}`;

describe('groups: create, list, read, update, delete', () => {
  it('PUT creates (201 + Location, empty body); the same name in another case is 409', async () => {
    const res = await root(server, 'PUT', `${groupPath('idea developers')}?autoJoin=false`);
    expect(res.status, res.text).toBe(201);
    expect(res.text).toBe('');
    expect(res.headers.get('location')).toBe(`${server.url}/rest/admin/group/idea%20developers`);
    const again = await root(server, 'PUT', `${groupPath('IDEA Developers')}?autoJoin=false`);
    expectXmlError(again, 409, /already exists/);
  });

  it('GET /rest/admin/group lists userGroupRefs > userGroup name url (XML by default, JSON array)', async () => {
    const xml = await root(server, 'GET', '/rest/admin/group');
    expectXml(xml, 200);
    expect(rootElement(xml.text)).toBe('userGroupRefs');
    const groups = xmlElements(xml.text, 'userGroup');
    expect(groups.map((g) => g.name)).toEqual(['All Users', 'idea developers']);
    expect(groups[1]).toEqual({
      name: 'idea developers',
      url: `${server.url}/rest/admin/group/idea%20developers`,
    });
    const json = expectJson(await root(server, 'GET', '/rest/admin/group', { accept: JSON_ACCEPT }), 200);
    expect(json).toContainEqual({
      name: 'idea developers',
      url: `${server.url}/rest/admin/group/idea%20developers`,
    });
  });

  it('GET one group: userGroup with name, description, autoJoin; POST updates and renames', async () => {
    const updated = await root(
      server,
      'POST',
      `${groupPath('idea developers')}${q({ description: 'IDE people', autoJoin: 'true' })}`,
      { accept: XML_ACCEPT },
    );
    expectXml(updated, 200);
    const res = await root(server, 'GET', groupPath('IDEA DEVELOPERS'));
    expectXml(res, 200);
    expect(xmlElements(res.text, 'userGroup')[0]).toMatchObject({
      name: 'idea developers',
      description: 'IDE people',
      autoJoin: 'true',
    });
    const json = expectJson(
      await root(server, 'GET', groupPath('idea developers'), { accept: JSON_ACCEPT }),
      200,
    );
    expect(json).toMatchObject({ name: 'idea developers', description: 'IDE people', autoJoin: true });
    const renamed = await root(
      server,
      'POST',
      `${groupPath('idea developers')}?newName=ide-devs&autoJoin=false`,
    );
    expect(renamed.status, renamed.text).toBe(200);
    expect((await root(server, 'GET', groupPath('idea developers'))).status).toBe(404);
  });

  it('DELETE removes a group (200); deleting it again is 404 with the legacy error body', async () => {
    expect((await root(server, 'PUT', groupPath('short-lived'))).status).toBe(201);
    expect((await root(server, 'DELETE', groupPath('short-lived'))).status).toBe(200);
    expectXmlError(
      await root(server, 'DELETE', groupPath('short-lived')),
      404,
      'Group [ short-lived ] not found.',
    );
  });
});

describe('membership and group roles: a group role holds for its members', () => {
  it('a member reads PRJ only while the group holds Observer there (python client calls)', async () => {
    expect((await root(server, 'PUT', `${groupPath('watchers')}?autoJoin=false`)).status).toBe(201);
    // No role yet: the issue is hidden from the user without roles.
    expect((await server.request('GET', `/rest/issue/${issueId}`, { user: NO_ROLES })).status).toBe(404);

    const body = `<userRole name="Observer"><projects><projectRef id="${PRJ}" url="dirty_hack"/></projects></userRole>`;
    const grant = await root(server, 'PUT', `${groupPath('watchers')}/role/Observer`, {
      body,
      contentType: 'application/xml',
      accept: XML_ACCEPT,
    });
    expect(grant.status, grant.text).toBe(200);
    const join = await root(server, 'POST', `/rest/admin/user/${NO_ROLES}/group/watchers`, { body: '' });
    expect(join.status, join.text).toBe(200);
    expect((await server.request('GET', `/rest/issue/${issueId}`, { user: NO_ROLES })).status).toBe(200);

    const mine = await server.request('GET', `/rest/admin/user/${NO_ROLES}/group`, { user: NO_ROLES });
    expectXml(mine, 200);
    expect(rootElement(mine.text)).toBe('userGroupRefs');
    expect(xmlElements(mine.text, 'userGroup').map((g) => g.name)).toEqual(['All Users', 'watchers']);

    const leave = await root(server, 'DELETE', `/rest/admin/user/${NO_ROLES}/group/watchers`);
    expect(leave.status, leave.text).toBe(200);
    expect((await server.request('GET', `/rest/issue/${issueId}`, { user: NO_ROLES })).status).toBe(404);
  });

  it('GET /rest/admin/group/{g}/role: userRoles > userRole name > projects > projectRef id (XML and JSON)', async () => {
    expect((await root(server, 'PUT', groupPath('leads'))).status).toBe(201);
    await root(server, 'PUT', `${groupPath('leads')}/role/Developer?project=${PRJ}`);
    await root(server, 'PUT', `${groupPath('leads')}/role/Reporter`, {
      body: '<userRole name="Reporter"><projects/></userRole>',
      contentType: 'application/xml',
    });
    const xml = await root(server, 'GET', `${groupPath('leads')}/role`);
    expectXml(xml, 200);
    expect(rootElement(xml.text)).toBe('userRoles');
    expect(xml.text).toContain(
      `<userRole name="Developer"><projects><projectRef id="${PRJ}" url="${server.url}/rest/admin/project/${PRJ}"/></projects></userRole>`,
    );
    expect(xmlElements(xml.text, 'userRole').map((r) => r.name)).toEqual(['Developer', 'Reporter']);
    const json = expectJson(
      await root(server, 'GET', `${groupPath('leads')}/role`, { accept: JSON_ACCEPT }),
      200,
    );
    expect(json).toEqual([
      { name: 'Developer', projects: [{ id: PRJ, url: `${server.url}/rest/admin/project/${PRJ}` }] },
      { name: 'Reporter', projects: [] },
    ]);
    expect((await root(server, 'DELETE', `${groupPath('leads')}/role/Developer`)).status).toBe(200);
    expectXmlError(
      await root(server, 'DELETE', `${groupPath('leads')}/role/Developer`),
      404,
      'Group [ leads ] does not have role [ Developer ].',
    );
  });

  it('GET /rest/admin/user/{login}/role lists the user’s own roles in the same shape', async () => {
    const xml = await root(server, 'GET', '/rest/admin/user/u_dev/role');
    expectXml(xml, 200);
    expect(rootElement(xml.text)).toBe('userRoles');
    expect(xml.text).toContain(`<userRole name="Developer"><projects><projectRef id="${PRJ}"`);
    expect((await root(server, 'GET', '/rest/admin/user/nobody-at-all/role')).status).toBe(404);
  });
});

describe('groups: bad input and refusals', () => {
  it('unknown user or group is 404 naming it; a caller without rights gets 403', async () => {
    expectXmlError(
      await root(server, 'POST', '/rest/admin/user/ghost/group/watchers'),
      404,
      'User [ ghost ] not found.',
    );
    expectXmlError(
      await root(server, 'POST', `/rest/admin/user/${NO_ROLES}/group/ghosts`),
      404,
      'Group [ ghosts ] not found.',
    );
    expectXmlError(await root(server, 'GET', groupPath('ghosts')), 404, 'Group [ ghosts ] not found.');
    const refused = await server.request('PUT', groupPath('mine'), { user: NO_ROLES });
    expect(refused.status).toBe(403);
    expect((await server.request('GET', '/rest/admin/group', { user: NO_ROLES })).status).toBe(403);
  });

  it('a lone surrogate or an over-long name is refused with 400, nothing stored', async () => {
    const res = await root(server, 'PUT', groupPath('surrogate'), {
      body: '{"description":"bad \\ud800 text"}',
      contentType: 'application/json',
      accept: JSON_ACCEPT,
    });
    expectJsonError(res, 400, 'VALIDATION_FAILED', /description/);
    expect((await root(server, 'GET', groupPath('surrogate'))).status).toBe(404);
    expect((await root(server, 'PUT', groupPath('x'.repeat(101)))).status).toBe(400);
    const badProjects = await root(server, 'PUT', `${groupPath('watchers')}/role/Observer`, {
      body: '<userRole name="Observer"><projects><projectRef id="NOPE"/></projects></userRole>',
      contentType: 'application/xml',
    });
    expectXmlError(badProjects, 404, 'Project [ NOPE ] not found.');
  });

  it('concurrent creators of one name get one 201 and 409s; concurrent joins leave one membership', async () => {
    const creates = await Promise.all(
      Array.from({ length: 6 }, (_, i) => root(server, 'PUT', groupPath(i % 2 ? 'Racers' : 'racers'))),
    );
    expect(creates.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const joins = await Promise.all(
      Array.from({ length: 6 }, () => root(server, 'POST', `/rest/admin/user/${NO_ROLES}/group/racers`)),
    );
    expect(joins.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const mine = await root(server, 'GET', `/rest/admin/user/${NO_ROLES}/group`);
    expect(
      xmlElements(mine.text, 'userGroup').filter((g) => g.name?.toLowerCase() === 'racers'),
    ).toHaveLength(1);
  });

  it('no answer carries a stack trace', () => expectNoStackTraces(server));
});
