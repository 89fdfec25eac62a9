import { User } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectJson,
  expectJsonError,
  expectXml,
  expectXmlError,
  fork,
  JSON_ACCEPT,
  startTestServer,
  type TestServer,
  XML_DECLARATION,
  xmlElements,
} from './harness.js';
import {
  createIssue,
  expectNoLeaks,
  getIssueJson,
  issueSnapshot,
  mustExecute,
  PRJ,
  q,
  root,
  SECRET,
  setUpWorld,
} from './issue-fixtures.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await setUpWorld(server);
});
afterAll(() => server.close());

type Folder = { id: string; type: string; name: string; shortName?: string; query: string };

const as = (user: string, method: string, path: string, json = true) =>
  server.request(method, path, { user, ...(json ? { accept: JSON_ACCEPT } : {}) });
const folders = async (user: string): Promise<Folder[]> =>
  expectJson(await as(user, 'GET', '/rest/issuesFolder'), 200);
const current = async (user: string): Promise<Folder> =>
  expectJson(await as(user, 'GET', '/rest/issuesFolder/current'), 200);
const setContext = (user: string, folderId?: string, json = true) =>
  as(user, 'POST', `/rest/issuesFolder/setContextFolder${q({ folderId })}`, json);
const saveSearch = (user: string, name: string, query: string, shared?: boolean, json = true) =>
  as(user, 'PUT', `/rest/user/search/${encodeURIComponent(name)}${q({ query, shared })}`, json);
const createTag = (user: string, name: string, shared?: boolean, json = true) =>
  as(user, 'PUT', `/rest/user/tag/${encodeURIComponent(name)}${q({ shared })}`, json);
const folderId = async (user: string, type: string, name: string) => {
  const found = (await folders(user)).find((f) => f.type === type && f.name === name);
  if (!found) throw new Error(`${user} has no ${type} folder ${name}`);
  return found.id;
};

const EVERYTHING: Folder = { id: 'everything', type: 'everything', name: 'Everything', query: '' };
const PRJ_FOLDER: Folder = {
  id: `p-${PRJ}`,
  type: 'project',
  name: 'Main Project',
  shortName: PRJ,
  query: `project: ${PRJ}`,
};

describe('GET /rest/issuesFolder', () => {
  it('lists Everything, then the readable projects, as XML by default', async () => {
    const res = await as('u_dev', 'GET', '/rest/issuesFolder', false);
    expectXml(res, 200);
    expect(res.text).toBe(
      `${XML_DECLARATION}<issuesFolders>` +
        '<folder id="everything" type="everything" name="Everything" query=""/>' +
        `<folder id="p-${PRJ}" type="project" name="Main Project" shortName="${PRJ}" query="project: ${PRJ}"/>` +
        '</issuesFolders>',
    );
  });

  it('the same as JSON; root sees every project; a user without roles only Everything', async () => {
    expect(await folders('u_dev')).toEqual([EVERYTHING, PRJ_FOLDER]);
    expect(await folders('root')).toEqual([
      EVERYTHING,
      PRJ_FOLDER,
      {
        id: `p-${SECRET}`,
        type: 'project',
        name: 'Secret Project',
        shortName: SECRET,
        query: `project: ${SECRET}`,
      },
    ]);
    expect(await folders('u_none')).toEqual([EVERYTHING]);
  });

  it('then own and shared saved searches, then own and shared tags, each with id/type/name/query', async () => {
    expect((await saveSearch('u_rep', 'My open', '#Unresolved for: me')).status).toBe(201);
    expect((await createTag('u_rep', 'to read')).status).toBe(201);
    expect((await saveSearch('u_dev', 'Team view', 'State: Open', true)).status).toBe(201);
    expect((await createTag('u_dev', 'team', true)).status).toBe(201);
    const list = await folders('u_rep');
    expect(list.map((f) => [f.type, f.name, f.query])).toEqual([
      ['everything', 'Everything', ''],
      ['project', 'Main Project', `project: ${PRJ}`],
      ['savedSearch', 'My open', '#Unresolved for: me'],
      ['savedSearch', 'Team view', 'State: Open'],
      ['tag', 'to read', 'tag: {to read}'],
      ['tag', 'team', 'tag: {team}'],
    ]);
    for (const f of list) {
      expect(f.id).toMatch(/^(everything|p-\w+|s-\d+|t-\d+)$/);
      expect(Object.keys(f).sort()).toEqual(
        f.type === 'project' ? ['id', 'name', 'query', 'shortName', 'type'] : ['id', 'name', 'query', 'type'],
      );
    }
  });
});

describe('GET /rest/issuesFolder/{id}', () => {
  it('answers one folder by id, case-insensitively, in XML or JSON', async () => {
    const res = await as('u_dev', 'GET', `/rest/issuesFolder/p-${PRJ}`, false);
    expectXml(res, 200);
    expect(xmlElements(res.text, 'folder')).toEqual([
      { id: `p-${PRJ}`, type: 'project', name: 'Main Project', shortName: PRJ, query: `project: ${PRJ}` },
    ]);
    expect(expectJson(await as('u_dev', 'GET', `/rest/issuesFolder/P-${PRJ.toLowerCase()}`), 200)).toEqual(
      PRJ_FOLDER,
    );
    expect(expectJson(await as('u_dev', 'GET', '/rest/issuesFolder/everything'), 200)).toEqual(EVERYTHING);
    const id = await folderId('u_dev', 'savedSearch', 'Team view');
    expect(expectJson(await as('u_dev', 'GET', `/rest/issuesFolder/${id}`), 200)).toEqual({
      id,
      type: 'savedSearch',
      name: 'Team view',
      query: 'State: Open',
    });
  });

  it('is 404 for an unknown folder and for one the caller cannot see, alike', async () => {
    expectXmlError(
      await as('u_dev', 'GET', '/rest/issuesFolder/zzz', false),
      404,
      'Issue folder [ zzz ] not found.',
    );
    expectXmlError(
      await as('u_dev', 'GET', `/rest/issuesFolder/p-${SECRET}`, false),
      404,
      `Issue folder [ p-${SECRET} ] not found.`,
    );
    expectJsonError(
      await as('u_none', 'GET', `/rest/issuesFolder/p-${PRJ}`),
      404,
      'NOT_FOUND',
      `Issue folder [ p-${PRJ} ] not found.`,
    );
    expectJsonError(
      await as('u_dev', 'GET', '/rest/issuesFolder/s-99999'),
      404,
      'NOT_FOUND',
      'Issue folder [ s-99999 ] not found.',
    );
  });
});

describe('the context folder', () => {
  it('is Everything when unset', async () => {
    const res = await as('u_obs', 'GET', '/rest/issuesFolder/current', false);
    expectXml(res, 200);
    expect(res.text).toBe(
      `${XML_DECLARATION}<folder id="everything" type="everything" name="Everything" query=""/>`,
    );
    expect(await current('u_obs')).toEqual(EVERYTHING);
  });

  it('setContextFolder stores it per user and answers the folder', async () => {
    const res = await setContext('u_obs', `p-${PRJ}`, false);
    expectXml(res, 200);
    expect(xmlElements(res.text, 'folder')[0]?.id).toBe(`p-${PRJ}`);
    expect(await current('u_obs')).toEqual(PRJ_FOLDER);
    const stored = await fork(server.orm).findOneOrFail(User, { loginKey: 'u_obs' });
    expect(stored.contextFolder).toBe(`p-${PRJ}`);
    // Another user's context is untouched.
    expect(await current('u_dev')).toEqual(EVERYTHING);
  });

  it('stores the canonical id when given a differently-cased id or a name', async () => {
    expect(expectJson(await setContext('u_obs', PRJ.toLowerCase()), 200)).toEqual(PRJ_FOLDER);
    expect(await current('u_obs')).toEqual(PRJ_FOLDER);
  });

  it('an empty or missing folderId means Everything', async () => {
    expect(expectJson(await setContext('u_obs', ''), 200)).toEqual(EVERYTHING);
    expect(await current('u_obs')).toEqual(EVERYTHING);
    await setContext('u_obs', `p-${PRJ}`);
    expect(expectJson(await setContext('u_obs'), 200)).toEqual(EVERYTHING);
    expect(await current('u_obs')).toEqual(EVERYTHING);
  });

  it('an unknown or invisible folder is 404 and the stored one stays', async () => {
    await setContext('u_dev', `p-${PRJ}`);
    const before = await issueSnapshot(server);
    expectXmlError(await setContext('u_dev', 'nope', false), 404, 'Issue folder [ nope ] not found.');
    expectJsonError(
      await setContext('u_dev', `p-${SECRET}`),
      404,
      'NOT_FOUND',
      `Issue folder [ p-${SECRET} ] not found.`,
    );
    expect(await issueSnapshot(server)).toEqual(before);
    expect(await current('u_dev')).toEqual(PRJ_FOLDER);
  });

  it('falls back to Everything when the stored saved search is deleted', async () => {
    expect((await saveSearch('u_obs', 'Short lived', 'State: Open')).status).toBe(201);
    const id = await folderId('u_obs', 'savedSearch', 'Short lived');
    expect(expectJson(await setContext('u_obs', id), 200).id).toBe(id);
    expect((await current('u_obs')).name).toBe('Short lived');
    expect((await as('u_obs', 'DELETE', '/rest/user/search/Short%20lived')).status).toBe(200);
    expect(await current('u_obs')).toEqual(EVERYTHING);
  });
});

describe('saved searches: PUT/GET/DELETE /rest/user/search/{name}', () => {
  it('PUT creates (201, Location, XML <search name owner shared>query</search>)', async () => {
    const res = await saveSearch(
      'u_dev',
      'Critical ones',
      'Priority: Critical #Unresolved',
      undefined,
      false,
    );
    expectXml(res, 201);
    expect(res.headers.get('location')).toBe(`${server.url}/rest/user/search/Critical%20ones`);
    expect(res.text).toBe(
      `${XML_DECLARATION}<search name="Critical ones" owner="u_dev" shared="false">Priority: Critical #Unresolved</search>`,
    );
  });

  it('PUT of an existing own name updates it (200), without a duplicate', async () => {
    const res = await saveSearch('u_dev', 'critical ONES', 'Priority: Critical');
    expect(expectJson(res, 200)).toEqual({
      name: 'Critical ones',
      query: 'Priority: Critical',
      owner: 'u_dev',
      shared: false,
    });
    const list = expectJson(await as('u_dev', 'GET', '/rest/user/search'), 200);
    expect(list.filter((s: { name: string }) => s.name === 'Critical ones')).toHaveLength(1);
  });

  it('GET lists own then shared searches, XML and JSON', async () => {
    const json = expectJson(await as('u_rep', 'GET', '/rest/user/search'), 200);
    expect(json).toEqual([
      { name: 'My open', query: '#Unresolved for: me', owner: 'u_rep', shared: false },
      { name: 'Team view', query: 'State: Open', owner: 'u_dev', shared: true },
    ]);
    const xml = await as('u_rep', 'GET', '/rest/user/search', false);
    expectXml(xml, 200);
    expect(xml.text).toBe(
      `${XML_DECLARATION}<savedSearches>` +
        '<search name="My open" owner="u_rep" shared="false">#Unresolved for: me</search>' +
        '<search name="Team view" owner="u_dev" shared="true">State: Open</search>' +
        '</savedSearches>',
    );
  });

  it('GET /rest/user/search/{name} answers one saved search', async () => {
    const res = await as('u_dev', 'GET', '/rest/user/search/Critical%20ones');
    expect(expectJson(res, 200)).toEqual({
      name: 'Critical ones',
      query: 'Priority: Critical',
      owner: 'u_dev',
      shared: false,
    });
  });

  it('runs as a folder: its query gives the search results', async () => {
    const id = await createIssue(server, 'critical and open');
    await mustExecute(server, id, 'Priority Critical');
    const folder = expectJson(
      await as(
        'u_dev',
        'GET',
        `/rest/issuesFolder/${await folderId('u_dev', 'savedSearch', 'Critical ones')}`,
      ),
      200,
    );
    const found = expectJson(
      await as('u_dev', 'GET', `/rest/issue${q({ filter: folder.query, max: 500 })}`),
      200,
    );
    expect(found.issue.map((i: { id: string }) => i.id)).toContain(id);
  });

  it('DELETE removes it (200); again is 404', async () => {
    expect((await saveSearch('u_dev', 'Doomed', 'State: Open')).status).toBe(201);
    const res = await as('u_dev', 'DELETE', '/rest/user/search/Doomed', false);
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe('');
    const list = expectJson(await as('u_dev', 'GET', '/rest/user/search'), 200);
    expect(list.map((s: { name: string }) => s.name)).not.toContain('Doomed');
    expectXmlError(
      await as('u_dev', 'DELETE', '/rest/user/search/Doomed', false),
      404,
      'Saved search [ Doomed ] not found.',
    );
  });

  it('sharing needs SHARE_WATCH_FOLDER: a Reporter is refused', async () => {
    const before = await issueSnapshot(server);
    expectJsonError(
      await saveSearch('u_rep', 'Shared by reporter', 'State: Open', true),
      403,
      'PERMISSION_DENIED',
      'You have no rights to share saved searches and tags (SHARE_WATCH_FOLDER).',
    );
    expect(await issueSnapshot(server)).toEqual(before);
  });

  it('a saved search with a malformed query is 400 naming the query', async () => {
    expectJsonError(
      await saveSearch('u_dev', 'Broken', 'State: {Open'),
      400,
      'VALIDATION_FAILED',
      /^query: Missing } to close \[ \{Open \] at position/,
    );
  });
});

describe('tags: PUT/GET/DELETE /rest/user/tag/{name}', () => {
  it('PUT creates (201, Location, <tag name owner shared/>); again is 409', async () => {
    const res = await createTag('u_dev', 'Fix soon', undefined, false);
    expectXml(res, 201);
    expect(res.headers.get('location')).toBe(`${server.url}/rest/user/tag/Fix%20soon`);
    expect(res.text).toBe(
      `${XML_DECLARATION}<tag name="Fix soon" owner="u_dev" shared="false" untagOnResolve="false"/>`,
    );
    expectJsonError(
      await createTag('u_dev', 'fix SOON'),
      409,
      'ALREADY_EXISTS',
      'Tag [ fix SOON ] already exists.',
    );
  });

  it('GET lists own then shared tags', async () => {
    expect(expectJson(await as('u_rep', 'GET', '/rest/user/tag'), 200)).toEqual([
      { name: 'to read', owner: 'u_rep', shared: false, untagOnResolve: false },
      { name: 'team', owner: 'u_dev', shared: true, untagOnResolve: false },
    ]);
    const xml = await as('u_rep', 'GET', '/rest/user/tag', false);
    expectXml(xml, 200);
    expect(xml.text).toBe(
      `${XML_DECLARATION}<tags><search name="to read" owner="u_rep" shared="false" untagOnResolve="false"/>` +
        '<search name="team" owner="u_dev" shared="true" untagOnResolve="false"/></tags>',
    );
  });

  it('GET /rest/user/tag/{name} answers one tag', async () => {
    const res = await as('u_dev', 'GET', '/rest/user/tag/Fix%20soon');
    expect(expectJson(res, 200)).toEqual({
      name: 'Fix soon',
      owner: 'u_dev',
      shared: false,
      untagOnResolve: false,
    });
  });

  it('a tag is usable by commands and search, and DELETE removes it from every issue', async () => {
    const id = await createIssue(server, 'tagged then untagged');
    await mustExecute(server, id, 'tag {Fix soon}', 'u_dev');
    expect((await getIssueJson(server, id, 'u_dev')).tag).toEqual([{ value: 'Fix soon', cssClass: 'c0' }]);
    const found = expectJson(await as('u_dev', 'GET', `/rest/issue${q({ filter: 'tag: {Fix soon}' })}`), 200);
    expect(found.issue.map((i: { id: string }) => i.id)).toEqual([id]);
    const res = await as('u_dev', 'DELETE', '/rest/user/tag/Fix%20soon', false);
    expect(res.status, res.text).toBe(200);
    expect((await getIssueJson(server, id, 'u_dev')).tag).toEqual([]);
    expectJsonError(
      await as('u_dev', 'DELETE', '/rest/user/tag/Fix%20soon'),
      404,
      'NOT_FOUND',
      'Tag [ Fix soon ] not found.',
    );
  });

  it('a shared tag is visible to others but only its owner may delete it', async () => {
    const before = await issueSnapshot(server);
    expectJsonError(
      await as('u_rep', 'DELETE', '/rest/user/tag/team'),
      403,
      'PERMISSION_DENIED',
      'You have no rights to delete tags of another user (DELETE_WATCH_FOLDER).',
    );
    expectJsonError(
      await as('u_rep', 'DELETE', '/rest/user/search/Team%20view'),
      403,
      'PERMISSION_DENIED',
      'You have no rights to delete saved searches of another user (DELETE_WATCH_FOLDER).',
    );
    expect(await issueSnapshot(server)).toEqual(before);
  });
});

describe('BOLA: a private saved search or tag of user B is invisible to user A', () => {
  let searchId: string;
  let tagId: string;
  let issue: string;
  beforeAll(async () => {
    expect((await saveSearch('u_dev', 'Dev private', 'for: me')).status).toBe(201);
    expect((await createTag('u_dev', 'devsecret')).status).toBe(201);
    searchId = await folderId('u_dev', 'savedSearch', 'Dev private');
    tagId = await folderId('u_dev', 'tag', 'devsecret');
    issue = await createIssue(server, 'privately tagged');
    await mustExecute(server, issue, 'tag devsecret', 'u_dev');
  });

  it('not in A’s lists', async () => {
    const names = (await folders('u_rep')).map((f) => f.name);
    expect(names).not.toContain('Dev private');
    expect(names).not.toContain('devsecret');
    const searches = expectJson(await as('u_rep', 'GET', '/rest/user/search'), 200);
    expect(searches.map((s: { name: string }) => s.name)).not.toContain('Dev private');
    const tags = expectJson(await as('u_rep', 'GET', '/rest/user/tag'), 200);
    expect(tags.map((t: { name: string }) => t.name)).not.toContain('devsecret');
  });

  it('not readable as a folder, by id or by name: 404 like a missing one', async () => {
    for (const ref of [searchId, tagId, 'Dev%20private', 'devsecret']) {
      const res = await as('u_rep', 'GET', `/rest/issuesFolder/${ref}`);
      expectJsonError(res, 404, 'NOT_FOUND', `Issue folder [ ${decodeURIComponent(ref)} ] not found.`);
    }
  });

  it('not usable as A’s context folder, nor as a command-assist folder', async () => {
    for (const ref of [searchId, tagId]) {
      expectJsonError(await setContext('u_rep', ref), 404, 'NOT_FOUND', `Issue folder [ ${ref} ] not found.`);
      expectJsonError(
        await as('u_rep', 'GET', `/rest/command/suggest${q({ folder: ref, command: '' })}`),
        404,
        'NOT_FOUND',
        `Issue folder [ ${ref} ] not found.`,
      );
    }
    expect(await current('u_rep')).toEqual(EVERYTHING);
  });

  it('A cannot delete them: 404, and they survive', async () => {
    const before = await issueSnapshot(server);
    expectJsonError(
      await as('u_rep', 'DELETE', '/rest/user/search/Dev%20private'),
      404,
      'NOT_FOUND',
      'Saved search [ Dev private ] not found.',
    );
    expectJsonError(
      await as('u_rep', 'DELETE', '/rest/user/tag/devsecret'),
      404,
      'NOT_FOUND',
      'Tag [ devsecret ] not found.',
    );
    expect(await issueSnapshot(server)).toEqual(before);
    expect((await folders('u_dev')).map((f) => f.name)).toEqual(
      expect.arrayContaining(['Dev private', 'devsecret']),
    );
  });

  it('A’s PUT of the same name creates A’s own; B’s is unchanged', async () => {
    expect((await saveSearch('u_rep', 'Dev private', 'State: Open')).status).toBe(201);
    expect((await createTag('u_rep', 'devsecret')).status).toBe(201);
    expect(expectJson(await as('u_dev', 'GET', `/rest/issuesFolder/${searchId}`), 200).query).toBe('for: me');
    const mine = (await folders('u_rep')).filter((f) => f.name === 'Dev private' || f.name === 'devsecret');
    expect(mine.map((f) => f.id)).not.toContain(searchId);
    expect(mine.map((f) => f.id)).not.toContain(tagId);
    expect(mine).toHaveLength(2);
  });

  it('B’s private tag on an issue is not shown to A, nor matched by A’s search or commands', async () => {
    expect((await getIssueJson(server, issue, 'u_dev')).tag).toEqual([
      { value: 'devsecret', cssClass: 'c0' },
    ]);
    expect((await getIssueJson(server, issue, 'u_rep')).tag).toEqual([]);
    // A's own tag of that name is empty: searching it finds nothing of B's.
    const found = expectJson(await as('u_rep', 'GET', `/rest/issue${q({ filter: 'tag: devsecret' })}`), 200);
    expect(found).toEqual({ issue: [] });
    expectJsonError(
      await as('u_obs', 'GET', `/rest/issue${q({ filter: 'tag: devsecret' })}`),
      400,
      'VALIDATION_FAILED',
      'filter: Unknown tag [ devsecret ] at position 5',
    );
  });
});

describe('authentication', () => {
  it('every folder route needs credentials (401)', async () => {
    for (const [method, path] of [
      ['GET', '/rest/issuesFolder'],
      ['GET', '/rest/issuesFolder/current'],
      ['GET', '/rest/issuesFolder/everything'],
      ['POST', '/rest/issuesFolder/setContextFolder?folderId=everything'],
      ['GET', '/rest/user/search'],
      ['PUT', '/rest/user/search/x?query=y'],
      ['DELETE', '/rest/user/search/x'],
      ['GET', '/rest/user/tag'],
      ['PUT', '/rest/user/tag/x'],
      ['DELETE', '/rest/user/tag/x'],
    ] as const) {
      expectXmlError(await server.request(method, path), 401, 'Authentication required.');
    }
  });
});

describe('hygiene', () => {
  it('no response of this suite carried a stack trace', async () => {
    await root(server, 'GET', '/rest/issuesFolder');
    expectNoLeaks(server);
  });
});
