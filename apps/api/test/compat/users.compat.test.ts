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
  userWithRole,
  xmlElements,
} from '../harness.js';
import { createIssue, fieldOf, getIssueJson, PRJ, q, root, setUpWorld } from '../issue-fixtures.js';

/*
 * User administration as the legacy clients call it (legacy-clients.md, "users, groups"; the
 * original's docs "GET Users", "GET User", "POST User", "DELETE User", "Merge Users"):
 *   - `GET /rest/admin/user?q&group&role&project&permission&start`: `userRefs` > `user login url fullName`,
 *     ten a page (the python client pages with `start` until the list is empty); JSON an array.
 *   - `GET /rest/admin/user/{login}`: `user login fullName email jabber groupsUrl rolesUrl`.
 *   - `POST /rest/admin/user/{login}?fullName&email&jabber`: 200.
 *   - `DELETE /rest/admin/user/{login}`: 200; what they reported stays, by a system "deleted user".
 *   - `POST /rest/admin/user/{login}/merge/{login_to_merge}`: 200 with an empty body; an unknown
 *     login is 404 `<error>User [ x ] not found.</error>`.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await setUpWorld(server);
  for (let i = 0; i < 11; i++) await userWithRole(server.orm, `crowd_${String(i).padStart(2, '0')}`);
});
afterAll(() => server.close());

const rootElement = (xml: string) => /^<\?xml[^>]*\?><([\w:-]+)/.exec(xml)?.[1];

describe('GET /rest/admin/user', () => {
  it('answers userRefs > user login url fullName, ten a page, then an empty page (python getUsers)', async () => {
    const pages: Record<string, string>[][] = [];
    for (let start = 0; ; start += 10) {
      const res = await root(server, 'GET', `/rest/admin/user/${q({ start, q: 'crowd_' })}`);
      expectXml(res, 200);
      expect(rootElement(res.text)).toBe('userRefs');
      const users = xmlElements(res.text, 'user');
      if (users.length === 0) break;
      pages.push(users);
    }
    expect(pages.map((p) => p.length)).toEqual([10, 1]);
    expect(pages[1]).toEqual([
      { login: 'crowd_10', url: `${server.url}/rest/admin/user/crowd_10`, fullName: 'crowd_10' },
    ]);
  });

  it('JSON is an array of {login, url, fullName}; role and project filters read group grants too', async () => {
    await root(server, 'PUT', '/rest/admin/group/crowd-devs');
    await root(server, 'PUT', `/rest/admin/group/crowd-devs/role/Developer?project=${PRJ}`);
    await root(server, 'POST', '/rest/admin/user/crowd_03/group/crowd-devs');
    const res = await root(
      server,
      'GET',
      `/rest/admin/user${q({ role: 'Developer', project: PRJ, q: 'crowd' })}`,
      {
        accept: JSON_ACCEPT,
      },
    );
    expect(expectJson(res, 200)).toEqual([
      { login: 'crowd_03', url: `${server.url}/rest/admin/user/crowd_03`, fullName: 'crowd_03' },
    ]);
    const byGroup = expectJson(
      await root(server, 'GET', `/rest/admin/user${q({ group: 'crowd-devs' })}`, { accept: JSON_ACCEPT }),
      200,
    );
    expect(byGroup.map((u: { login: string }) => u.login)).toEqual(['crowd_03']);
    expectXmlError(
      await root(server, 'GET', `/rest/admin/user${q({ group: 'no-such-group' })}`),
      404,
      'Group [ no-such-group ] not found.',
    );
  });
});

describe('POST, DELETE and merge of users', () => {
  it('POST updates fullName, email and jabber; GET shows them with groupsUrl and rolesUrl', async () => {
    const res = await root(
      server,
      'POST',
      `/rest/admin/user/crowd_01${q({ fullName: 'Crowd One', email: 'one@crowd.example', jabber: 'one@xmpp.example' })}`,
    );
    expect(res.status, res.text).toBe(200);
    const got = await root(server, 'GET', '/rest/admin/user/crowd_01');
    expectXml(got, 200);
    expect(xmlElements(got.text, 'user')[0]).toMatchObject({
      login: 'crowd_01',
      fullName: 'Crowd One',
      email: 'one@crowd.example',
      jabber: 'one@xmpp.example',
      groupsUrl: `${server.url}/rest/admin/user/crowd_01/group`,
      rolesUrl: `${server.url}/rest/admin/user/crowd_01/role`,
    });
  });

  it('DELETE answers 200; the issues they reported now name the deleted-user account', async () => {
    await userWithRole(server.orm, 'soon_gone', 'Reporter', PRJ);
    const id = await createIssue(server, 'Reported by someone who leaves', { user: 'soon_gone' });
    const res = await root(server, 'DELETE', '/rest/admin/user/soon_gone');
    expect(res.status, res.text).toBe(200);
    expect((await root(server, 'GET', '/rest/admin/user/soon_gone')).status).toBe(404);
    expect(fieldOf(await getIssueJson(server, id), 'reporterName')).toBe('deleted_user');
    expectXmlError(
      await root(server, 'DELETE', '/rest/admin/user/soon_gone'),
      404,
      'User [ soon_gone ] not found.',
    );
    expect((await root(server, 'DELETE', '/rest/admin/user/root')).status).toBe(403);
  });

  it('merge answers 200 with an empty body and removes the merged account; unknown logins are 404', async () => {
    const res = await root(server, 'POST', '/rest/admin/user/crowd_04/merge/crowd_05');
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe('');
    expect((await root(server, 'GET', '/rest/admin/user/crowd_05')).status).toBe(404);
    expectXmlError(
      await root(server, 'POST', '/rest/admin/user/crowd_04/merge/anet123'),
      404,
      'User [ anet123 ] not found.',
    );
  });
});

describe('users: bad input and refusals', () => {
  it('a lone surrogate, a bad e-mail or a password in the query is 400; nothing stored', async () => {
    const surrogate = await root(server, 'POST', '/rest/admin/user/crowd_06', {
      body: '{"fullName":"bad \\udc00 name"}',
      contentType: 'application/json',
      accept: JSON_ACCEPT,
    });
    expectJsonError(surrogate, 400, 'VALIDATION_FAILED', /fullName/);
    expect((await root(server, 'POST', `/rest/admin/user/crowd_06${q({ email: 'nope' })}`)).status).toBe(400);
    const inQuery = await root(
      server,
      'POST',
      `/rest/admin/user/crowd_06${q({ password: 'new-password-1' })}`,
    );
    expectXmlError(inQuery, 400, /password/);
    const stored = xmlElements((await root(server, 'GET', '/rest/admin/user/crowd_06')).text, 'user')[0];
    expect(stored).toMatchObject({ fullName: 'crowd_06', email: 'crowd_06@example.com' });
  });

  it('a caller without READ_USER / UPDATE_USER / DELETE_USER gets 403', async () => {
    expect((await server.request('GET', '/rest/admin/user', { user: 'crowd_07' })).status).toBe(403);
    expect(
      (await server.request('POST', `/rest/admin/user/crowd_08${q({ fullName: 'x' })}`, { user: 'crowd_07' }))
        .status,
    ).toBe(403);
    expect((await server.request('DELETE', '/rest/admin/user/crowd_08', { user: 'crowd_07' })).status).toBe(
      403,
    );
  });

  it('no answer carries a stack trace', () => expectNoStackTraces(server));
});
