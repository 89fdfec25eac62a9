import {
  Issue,
  IssueComment,
  IssueFieldValue,
  IssueLink,
  IssueStar,
  IssueTag,
  IssueVote,
  VcsChange,
} from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectJson,
  expectNoStackTraces,
  expectXml,
  fork,
  JSON_ACCEPT,
  rawRequest,
  startTestServer,
  type TestServer,
  XML_ACCEPT,
  XML_DECLARATION,
  xmlElements,
} from '../harness.js';
import {
  createIssue,
  execute,
  getIssueJson,
  issueSnapshot,
  mustExecute,
  NO_ROLES,
  OTHER,
  PRJ,
  q,
  root,
  SECRET,
  setUpWorld,
} from '../issue-fixtures.js';

/*
 * The legacy issue, project and user calls the public clients make (see
 * shared/reference/legacy-clients.md), driven over HTTP in the original's request forms. Every
 * expected shape below is the original's documented one, not a copy of Trackline's output:
 *   - `GET /rest/issue/count`: JSON `{"value":n}`, XML `<int>n</int>`.
 *   - `GET /rest/issue/{id}/exists`: 200 / 404.
 *   - `GET /rest/issue/byproject/{p}`: XML `issues` > `issue`, JSON a top-level array, page of 10.
 *   - `GET /rest/project/all[?verbose]`: `projects` > `project name shortName description
 *     isImporting` with `assigneesLogin`, `assigneesFullName`, `subsystems` > `sub value`;
 *     JSON `[{name, shortName, isImporting, assigneesFullName: {sub: [{value}]}}]`.
 *   - `GET /rest/user/current`, `/rest/user/{login}`: `<user login fullName email …/>`.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await setUpWorld(server);
});
afterAll(() => server.close());

const path = (id: string) => `/rest/issue/${encodeURIComponent(id)}`;

/** The root element name of an XML body (after the declaration). */
const rootElement = (xml: string) => /^<\?xml[^>]*\?><([\w:-]+)/.exec(xml)?.[1];

describe('route precedence: literal segments win over {issue}', () => {
  it('GET /rest/issue/count is the count, not an issue named "count"', async () => {
    const res = await root(server, 'GET', '/rest/issue/count', { accept: JSON_ACCEPT });
    expect(Object.keys(expectJson(res, 200))).toEqual(['value']);
  });

  it('GET /rest/issue/byproject/{p} is the project listing, not an issue sub-resource', async () => {
    const res = await root(server, 'GET', `/rest/issue/byproject/${PRJ}`, { accept: JSON_ACCEPT });
    expect(Array.isArray(expectJson(res, 200))).toBe(true);
  });

  it('POST /rest/issue/execute/{id} is an alias of POST /rest/issue/{id}/execute (IDE plugins)', async () => {
    const id = await createIssue(server, 'Alias target');
    const res = await server.request(
      'POST',
      `/rest/issue/execute/${id}${q({ command: 'Priority Critical', comment: 'from the IDE' })}`,
      { user: 'u_dev' },
    );
    expect(res.status, res.text).toBe(200);
    const issue = await getIssueJson(server, id);
    expect(issue.field.find((f) => f.name === 'Priority')?.value).toEqual(['Critical']);
    expect(issue.comment.map((c) => c.text)).toEqual(['from the IDE']);
  });

  it('the alias also takes a form body, and refuses like the original route', async () => {
    const id = await createIssue(server, 'Alias form target');
    const ok = await server.request('POST', `/rest/issue/execute/${id}`, {
      user: 'u_dev',
      body: 'command=tag+from-form&disableNotifications=true',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(ok.status, ok.text).toBe(200);
    expect((await getIssueJson(server, id, 'u_dev')).tag.map((t) => t.value)).toEqual(['from-form']);
    const hidden = await server.request('POST', `/rest/issue/execute/${id}${q({ command: 'tag x' })}`, {
      user: NO_ROLES,
    });
    expect(hidden.status).toBe(404);
  });

  it('the literal /user/… routes still win over /user/{login}', async () => {
    const res = await server.request('GET', '/rest/user/tag', { user: 'u_dev', accept: JSON_ACCEPT });
    expect(res.status, res.text).toBe(200);
    expect(Array.isArray(res.json())).toBe(true);
  });
});

describe('GET /rest/issue/count?filter', () => {
  it('answers {"value":n} in JSON and <int>n</int> in XML, counting only readable issues', async () => {
    await createIssue(server, 'countable alpha');
    await createIssue(server, 'countable beta');
    await createIssue(server, 'countable secret', { project: SECRET });
    const json = expectJson(
      await root(server, 'GET', `/rest/issue/count${q({ filter: 'countable' })}`, { accept: JSON_ACCEPT }),
      200,
    );
    expect(json).toEqual({ value: 3 });
    const xml = await root(server, 'GET', `/rest/issue/count${q({ filter: 'countable' })}`, {
      accept: XML_ACCEPT,
    });
    expectXml(xml, 200);
    expect(xml.text).toBe(`${XML_DECLARATION}<int>3</int>`);
    // u_dev cannot read SECRET: its issue is not counted.
    const dev = await server.request('GET', `/rest/issue/count${q({ filter: 'countable' })}`, {
      user: 'u_dev',
      accept: JSON_ACCEPT,
    });
    expect(expectJson(dev, 200)).toEqual({ value: 2 });
  });

  it('answers JSON {value} without an Accept header (pyyoutrack), <int> to Accept: application/xml', async () => {
    // The original's count answered JSON by default: pyyoutrack (httplib2, no Accept) reads
    // `{"value": n}`; JetBrains' library asks for JSON itself. XML is there for whoever asks.
    const authorization = `Basic ${Buffer.from('root:root-password').toString('base64')}`;
    const bare = await rawRequest(server.url, 'GET', '/rest/issue/count', { authorization });
    expect(bare.status).toBe(200);
    expect(bare.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(bare.text)).toEqual({ value: expect.any(Number) });
    const xml = await rawRequest(server.url, 'GET', '/rest/issue/count', {
      authorization,
      accept: 'application/xml',
    });
    expect(xml.text).toMatch(/^<\?xml[^>]*\?><int>\d+<\/int>$/);
  });

  it('a bad filter is 400 naming `filter`', async () => {
    const res = await root(server, 'GET', `/rest/issue/count${q({ filter: 'x'.repeat(2001) })}`, {
      accept: JSON_ACCEPT,
    });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/filter/);
  });
});

describe('GET /rest/issue/{id}/exists', () => {
  it('is 200 for a readable issue, 404 for a missing or unreadable one', async () => {
    const id = await createIssue(server, 'exists probe');
    const secret = await createIssue(server, 'exists secret', { project: SECRET });
    const ok = await server.request('GET', `${path(id)}/exists`, { user: 'u_obs', accept: XML_ACCEPT });
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('');
    expect(
      (await server.request('GET', `${path(id)}/exists`, { user: 'u_obs', accept: JSON_ACCEPT })).status,
    ).toBe(200);
    expect((await root(server, 'GET', `/rest/issue/${PRJ}-99999/exists`)).status).toBe(404);
    const hidden = await server.request('GET', `${path(secret)}/exists`, { user: 'u_dev' });
    expect(hidden.status).toBe(404);
    expect(rootElement(hidden.text)).toBe('error');
    expect((await server.request('GET', `${path(id)}/exists`)).status).toBe(401);
  });
});

describe('GET /rest/issue/byproject/{project}', () => {
  const BY = 'BYP';
  beforeAll(async () => {
    const res = await root(server, 'PUT', `/rest/admin/project/${BY}${q({ projectName: 'By project' })}`);
    expect(res.status).toBe(201);
    for (let i = 1; i <= 12; i++) await createIssue(server, `listed ${i}`, { project: BY });
  });

  it('XML: root `issues` of `issue` elements with `field name` > `value`, a page of 10', async () => {
    const res = await root(server, 'GET', `/rest/issue/byproject/${BY}`, { accept: XML_ACCEPT });
    expectXml(res, 200);
    expect(rootElement(res.text)).toBe('issues');
    const issues = xmlElements(res.text, 'issue');
    expect(issues).toHaveLength(10);
    expect(issues.every((i) => i.id?.startsWith(`${BY}-`))).toBe(true);
    expect(res.text).toMatch(
      /<issue id="BYP-\d+"[^>]*><field xsi:type="SingleField" name="projectShortName"><value>BYP<\/value><\/field>/,
    );
  });

  it('JSON: a top-level array of issues; after and max page; max beyond the limit is capped', async () => {
    const first = expectJson(
      await root(server, 'GET', `/rest/issue/byproject/${BY}${q({ max: 5 })}`, { accept: JSON_ACCEPT }),
      200,
    );
    expect(Array.isArray(first)).toBe(true);
    expect(first).toHaveLength(5);
    expect(Object.keys(first[0])).toEqual(expect.arrayContaining(['id', 'field']));
    const rest = expectJson(
      await root(server, 'GET', `/rest/issue/byproject/${BY}${q({ after: 5, max: 1000000 })}`, {
        accept: JSON_ACCEPT,
      }),
      200,
    );
    expect(rest).toHaveLength(7);
    const all = [...first, ...rest].map((i: { id: string }) => i.id);
    expect(new Set(all).size).toBe(12);
  });

  it('filter narrows within the project; updatedAfter keeps only later updates', async () => {
    const filtered = expectJson(
      await root(server, 'GET', `/rest/issue/byproject/${BY}${q({ filter: 'listed 12' })}`, {
        accept: JSON_ACCEPT,
      }),
      200,
    );
    expect(filtered.map((i: { id: string }) => i.id)).toContain(`${BY}-12`);
    expect(filtered.every((i: { id: string }) => i.id.startsWith(`${BY}-`))).toBe(true);
    const future = Date.now() + 60_000;
    const none = await root(server, 'GET', `/rest/issue/byproject/${BY}${q({ updatedAfter: future })}`, {
      accept: JSON_ACCEPT,
    });
    expect(expectJson(none, 200)).toEqual([]);
    const noneXml = await root(server, 'GET', `/rest/issue/byproject/${BY}${q({ updatedAfter: future })}`, {
      accept: XML_ACCEPT,
    });
    expect(noneXml.text).toBe(
      `${XML_DECLARATION}<issues xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"></issues>`,
    );
    // The last millisecond of year 9999 is the latest time both databases hold; later is a 400, not a 500.
    const last = await root(
      server,
      'GET',
      `/rest/issue/byproject/${BY}${q({ updatedAfter: 253_402_300_799_999 })}`,
      {
        accept: JSON_ACCEPT,
      },
    );
    expect(expectJson(last, 200)).toEqual([]);
    const beyond = await root(
      server,
      'GET',
      `/rest/issue/byproject/${BY}${q({ updatedAfter: 8_639_999_999_999_999 })}`,
      {
        accept: JSON_ACCEPT,
      },
    );
    expect(beyond.status).toBe(400);
    expect(beyond.json().value).toContain('updatedAfter');
  });

  it('a missing or unreadable project is 404 alike', async () => {
    expect((await root(server, 'GET', '/rest/issue/byproject/NOPE')).status).toBe(404);
    expect((await server.request('GET', `/rest/issue/byproject/${SECRET}`, { user: 'u_dev' })).status).toBe(
      404,
    );
    expect((await server.request('GET', `/rest/issue/byproject/${BY}`, { user: NO_ROLES })).status).toBe(404);
  });
});

describe('POST /rest/issue creates an issue (the POST spelling of PUT)', () => {
  it('answers 201 with Location, from query parameters or a form body', async () => {
    const res = await server.request('POST', `/rest/issue${q({ project: PRJ, summary: 'Posted' })}`, {
      user: 'u_rep',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('location')).toMatch(new RegExp(`/rest/issue/${PRJ}-\\d+$`));
    expect(res.text).toBe('');
    const form = await server.request('POST', '/rest/issue', {
      user: 'u_rep',
      body: `project=${PRJ}&summary=Posted+by+form&description=body`,
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(form.status, form.text).toBe(201);
    const id = decodeURIComponent(form.headers.get('location')?.split('/').pop() ?? '');
    const issue = await getIssueJson(server, id);
    expect(issue.field.find((f) => f.name === 'summary')?.value).toBe('Posted by form');
    expect(issue.field.find((f) => f.name === 'description')?.value).toBe('body');
  });

  it('no CREATE_ISSUE is 403; an unreadable project is 404', async () => {
    const before = await issueSnapshot(server);
    expect(
      (await server.request('POST', `/rest/issue${q({ project: PRJ, summary: 'x' })}`, { user: 'u_obs' }))
        .status,
    ).toBe(403);
    expect(
      (await server.request('POST', `/rest/issue${q({ project: SECRET, summary: 'x' })}`, { user: 'u_dev' }))
        .status,
    ).toBe(404);
    expect(await issueSnapshot(server)).toEqual(before);
  });
});

describe('POST /rest/issue/{id}?summary&description updates an issue', () => {
  it('changes summary and description with UPDATE_ISSUE: 200', async () => {
    const id = await createIssue(server, 'Before', { description: 'old' });
    const res = await server.request(
      'POST',
      `${path(id)}${q({ summary: 'After', description: 'new text' })}`,
      {
        user: 'u_dev',
      },
    );
    expect(res.status, res.text).toBe(200);
    const issue = await getIssueJson(server, id);
    expect(issue.field.find((f) => f.name === 'summary')?.value).toBe('After');
    expect(issue.field.find((f) => f.name === 'description')?.value).toBe('new text');
  });

  it('only the summary: the description stays', async () => {
    const id = await createIssue(server, 'Keep', { description: 'kept' });
    const res = await server.request('POST', path(id), {
      user: 'u_dev',
      body: 'summary=Renamed',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(res.status, res.text).toBe(200);
    const issue = await getIssueJson(server, id);
    expect(issue.field.find((f) => f.name === 'summary')?.value).toBe('Renamed');
    expect(issue.field.find((f) => f.name === 'description')?.value).toBe('kept');
  });

  it('without UPDATE_ISSUE 403, unreadable 404, empty summary 400; nothing changes', async () => {
    const id = await createIssue(server, 'Guarded');
    const secret = await createIssue(server, 'Guarded secret', { project: SECRET });
    const before = await issueSnapshot(server);
    expect(
      (await server.request('POST', `${path(id)}${q({ summary: 'x' })}`, { user: 'u_rep' })).status,
    ).toBe(403);
    expect(
      (await server.request('POST', `${path(id)}${q({ summary: 'x' })}`, { user: NO_ROLES })).status,
    ).toBe(404);
    expect(
      (await server.request('POST', `${path(secret)}${q({ summary: 'x' })}`, { user: 'u_dev' })).status,
    ).toBe(404);
    const bad = await server.request('POST', `${path(id)}${q({ summary: '' })}`, {
      user: 'u_dev',
      accept: JSON_ACCEPT,
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/summary/);
    expect(await issueSnapshot(server)).toEqual(before);
  });
});

describe('DELETE /rest/issue/{id}', () => {
  /** Rows hanging off the issue with database id `dbId`, per table. */
  async function rowsOf(dbId: number) {
    const em = fork(server.orm);
    return {
      issue: await em.count(Issue, { id: dbId }),
      values: await em.count(IssueFieldValue, { issue: dbId }),
      comments: await em.count(IssueComment, { issue: dbId }),
      tags: await em.count(IssueTag, { issue: dbId }),
      stars: await em.count(IssueStar, { issue: dbId }),
      votes: await em.count(IssueVote, { issue: dbId }),
      links: await em.count(IssueLink, { $or: [{ source: dbId }, { target: dbId }] }),
      vcsChanges: await em.count(VcsChange, { issue: dbId }),
    };
  }

  it('removes the issue with its comments, links, tags, stars, votes and recorded commits: 200', async () => {
    const id = await createIssue(server, 'Doomed');
    const other = await createIssue(server, 'Linked survivor');
    const res0 = await execute(server, id, { command: `tag doomed relates to ${other}`, comment: 'bye' });
    expect(res0.status, res0.text).toBe(200);
    await mustExecute(server, id, 'star', 'u_dev');
    await mustExecute(server, id, 'vote', 'u_rep');
    const dbId = Number((await getIssueJson(server, id)).entityId.split('-')[1]);
    // A commit recorded on it (as a VCS hook would): deleted with the issue.
    await fork(server.orm).insert(VcsChange, {
      integration: null,
      issue: dbId,
      commitSha: 'abc123',
      url: 'https://example.test/c/abc123',
      authorName: 'Dev',
      authorEmail: null,
      message: `fixes ${id}`,
      committedAt: '2026-01-01T00:00:00Z',
      branch: 'main',
      delivery: null,
      committer: null,
      commentAuthor: null,
      note: null,
      createdAt: Date.now(),
    });
    const before = await rowsOf(dbId);
    expect(Object.values(before).every((n) => n > 0)).toBe(true);

    const res = await server.request('DELETE', path(id), { user: 'u_dev' });
    expect(res.status, res.text).toBe(200);
    expect(await rowsOf(dbId)).toEqual({
      issue: 0,
      values: 0,
      comments: 0,
      tags: 0,
      stars: 0,
      votes: 0,
      links: 0,
      vcsChanges: 0,
    });
    expect((await root(server, 'GET', `${path(id)}/exists`)).status).toBe(404);
    expect((await root(server, 'GET', path(id))).status).toBe(404);
    expect((await getIssueJson(server, other)).link).toEqual([]);
    expect((await server.request('DELETE', path(id), { user: 'u_dev' })).status).toBe(404);
  });

  it('without DELETE_ISSUE 403, unreadable 404; nothing changes', async () => {
    const id = await createIssue(server, 'Kept alive');
    const secret = await createIssue(server, 'Kept secret', { project: SECRET });
    const before = await issueSnapshot(server);
    expect((await server.request('DELETE', path(id), { user: 'u_rep' })).status).toBe(403);
    expect((await server.request('DELETE', path(id), { user: NO_ROLES })).status).toBe(404);
    expect((await server.request('DELETE', path(secret), { user: 'u_dev' })).status).toBe(404);
    expect((await server.request('DELETE', path(id))).status).toBe(401);
    expect(await issueSnapshot(server)).toEqual(before);
  });
});

describe('GET /rest/project/all[?verbose]', () => {
  it('XML: `projects` > `project name shortName description isImporting`', async () => {
    const res = await server.request('GET', '/rest/project/all', { user: 'u_dev', accept: XML_ACCEPT });
    expectXml(res, 200);
    expect(rootElement(res.text)).toBe('projects');
    const projects = xmlElements(res.text, 'project');
    const main = projects.find((p) => p.shortName === PRJ);
    expect(main).toEqual({ name: 'Main Project', shortName: PRJ, description: '', isImporting: 'false' });
    // Only readable projects are listed.
    expect(projects.map((p) => p.shortName)).not.toContain(SECRET);
    expect(res.text).not.toMatch(/<assigneesLogin|<subsystems/);
  });

  it('verbose XML: assigneesLogin, assigneesFullName and subsystems children of `sub value`', async () => {
    const res = await server.request('GET', '/rest/project/all?verbose=true', {
      user: 'u_dev',
      accept: XML_ACCEPT,
    });
    expectXml(res, 200);
    const main =
      new RegExp(`<project [^>]*shortName="${PRJ}"[^>]*>(.*?)</project>`).exec(res.text)?.[1] ?? '';
    expect(main).toMatch(/^<assigneesLogin>(<sub value="[^"]*"\/>)+<\/assigneesLogin>/);
    expect(main).toMatch(/<assigneesFullName>(<sub value="[^"]*"\/>)+<\/assigneesFullName>/);
    expect(main).toMatch(/<subsystems><sub value="Backend"\/><\/subsystems>/);
    expect(xmlElements(main, 'sub').map((s) => s.value)).toContain('u_dev');
  });

  it('JSON: an array of {name, shortName, description, isImporting}; verbose adds {sub:[{value}]}', async () => {
    const plain = expectJson(
      await server.request('GET', '/rest/project/all', { user: 'u_dev', accept: JSON_ACCEPT }),
      200,
    );
    expect(Array.isArray(plain)).toBe(true);
    expect(plain.find((p: { shortName: string }) => p.shortName === PRJ)).toEqual({
      name: 'Main Project',
      shortName: PRJ,
      description: '',
      isImporting: false,
    });
    const verbose = expectJson(
      await server.request('GET', '/rest/project/all?verbose=true', { user: 'u_dev', accept: JSON_ACCEPT }),
      200,
    );
    const main = verbose.find((p: { shortName: string }) => p.shortName === PRJ);
    expect(main.subsystems).toEqual({ sub: [{ value: 'Backend' }] });
    expect(main.assigneesLogin.sub).toContainEqual({ value: 'u_dev' });
    expect(main.assigneesFullName.sub.length).toBe(main.assigneesLogin.sub.length);
  });

  it('a user with no roles sees an empty list; without credentials 401', async () => {
    const res = await server.request('GET', '/rest/project/all', { user: NO_ROLES, accept: XML_ACCEPT });
    expect(res.text).toBe(`${XML_DECLARATION}<projects></projects>`);
    expect((await server.request('GET', '/rest/project/all')).status).toBe(401);
  });
});

describe('GET /rest/user/current and /rest/user/{login}', () => {
  it('current: XML `<user login fullName email/>`, JSON the same keys', async () => {
    const xml = await server.request('GET', '/rest/user/current', { user: 'u_dev', accept: XML_ACCEPT });
    expectXml(xml, 200);
    expect(rootElement(xml.text)).toBe('user');
    const [user] = xmlElements(xml.text, 'user');
    expect(user).toMatchObject({ login: 'u_dev', fullName: expect.any(String), email: expect.any(String) });
    const json = expectJson(
      await server.request('GET', '/rest/user/current', { user: 'u_dev', accept: JSON_ACCEPT }),
      200,
    );
    expect(json).toMatchObject({ login: 'u_dev', fullName: user?.fullName });
    expect((await server.request('GET', '/rest/user/current')).status).toBe(401);
  });

  it('{login}: oneself always, another user with READ_USER; otherwise 403; unknown 404', async () => {
    const self = await server.request('GET', '/rest/user/u_rep', { user: 'u_rep', accept: XML_ACCEPT });
    expectXml(self, 200);
    expect(xmlElements(self.text, 'user')[0]).toMatchObject({ login: 'u_rep' });
    const byRoot = await root(server, 'GET', `/rest/user/${OTHER}`, { accept: JSON_ACCEPT });
    expect(expectJson(byRoot, 200)).toMatchObject({ login: OTHER });
    // READ_USER is a global permission: a project grant does not carry it.
    expect((await server.request('GET', '/rest/user/u_dev', { user: 'u_rep' })).status).toBe(403);
    expect((await root(server, 'GET', '/rest/user/nobody_here')).status).toBe(404);
  });
});

describe('every answer above', () => {
  it('carries no stack trace or driver detail', () => expectNoStackTraces(server));
});
