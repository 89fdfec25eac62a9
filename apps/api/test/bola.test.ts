import { encodeCompressedId } from '@trackline/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedTables, changeMark, dbSnapshot } from './db-snapshot.js';
import {
  createToken,
  expectNoStackTraces,
  JSON_ACCEPT,
  type RequestOptions,
  startTestServer,
  type TestResponse,
  type TestServer,
  userWithRole,
  XML_ACCEPT,
} from './harness.js';

/**
 * Object-level authorisation. Two users, each a Developer in their own project only, each with
 * issues, a saved search, a tag and a token. Every route taking an object id, given the other
 * user's object, must refuse (403 or 404) and change nothing; and nothing of the other's may
 * show up in what a route answers. Both directions are checked.
 */

type Side = {
  login: string;
  project: string;
  issue: string;
  second: string;
  compressed: string;
  search: string;
  tag: string;
  searchFolder: string;
  tagFolder: string;
  tokenName: string;
  token: string;
};

let server: TestServer;
const sides: Record<'a' | 'b', Side> = {} as never;

const q = (params: Record<string, string | number>) =>
  `?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString()}`;
const root = (method: string, path: string) => server.request(method, path, { user: 'root' });
const as = (side: Side, method: string, path: string, options: RequestOptions = {}) =>
  server.request(method, path, { token: side.token, ...options });

async function expectStatus(res: Promise<TestResponse>, status: number) {
  const r = await res;
  expect(r.status, r.text).toBe(status);
  return r;
}

async function setUpSide(key: 'a' | 'b'): Promise<Side> {
  const login = `bola_${key}`;
  const project = `P${key.toUpperCase()}`;
  await expectStatus(
    root('PUT', `/rest/admin/project/${project}${q({ projectName: `Project ${key}` })}`),
    201,
  );
  await userWithRole(server.orm, login, 'Developer', project);
  const basic = { user: login };
  const issues: string[] = [];
  for (const summary of ['first', 'second']) {
    const res = await expectStatus(
      server.request('PUT', `/rest/issue${q({ project, summary: `${key} ${summary}` })}`, basic),
      201,
    );
    issues.push(decodeURIComponent(res.headers.get('location')?.split('/').pop() ?? ''));
  }
  const [issue = '', second = ''] = issues;
  const search = `${key}-search`;
  const tag = `${key}-tag`;
  await expectStatus(
    server.request('PUT', `/rest/user/search/${search}${q({ query: `project: ${project}` })}`, basic),
    201,
  );
  await expectStatus(server.request('PUT', `/rest/user/tag/${tag}`, basic), 201);
  await expectStatus(
    server.request('POST', `/rest/issue/${issue}/execute${q({ command: `tag ${tag}` })}`, basic),
    200,
  );
  const tokenName = `${key}-token`;
  const token = await createToken(server, login, tokenName);
  const folders = (
    await server.request('GET', '/rest/issuesFolder', { ...basic, accept: JSON_ACCEPT })
  ).json() as {
    id: string;
    name: string;
  }[];
  const folderId = (name: string) => folders.find((f) => f.name === name)?.id ?? '';
  const entity = (
    await server.request('GET', `/rest/issue/${issue}`, { ...basic, accept: JSON_ACCEPT })
  ).json().entityId as string;
  return {
    login,
    project,
    issue,
    second,
    compressed: encodeCompressedId(Number(entity.split('-')[1])),
    search,
    tag,
    searchFolder: folderId(search),
    tagFolder: folderId(tag),
    tokenName,
    token,
  };
}

beforeAll(async () => {
  server = await startTestServer();
  sides.a = await setUpSide('a');
  sides.b = await setUpSide('b');
  expect(sides.a.searchFolder).toMatch(/^s-\d+$/);
  expect(sides.b.tagFolder).toMatch(/^t-\d+$/);
});
afterAll(() => server.close());

type Attempt = {
  name: string;
  method: string;
  path: string;
  options?: RequestOptions;
  /** A link to an unreadable issue is the command error naming it (400), as for a missing one. */
  commandError?: boolean;
};

/** Every id-taking route, pointed by `me` at `other`'s objects. */
function attempts(me: Side, other: Side): Attempt[] {
  const assist = ['suggest', 'underline', 'underlineAndSuggest', 'underlineAndSuggestAndCommands'];
  const list: Attempt[] = [
    { name: 'issue get', method: 'GET', path: `/rest/issue/${other.issue}` },
    { name: 'issue get (lower case)', method: 'GET', path: `/rest/issue/${other.issue.toLowerCase()}` },
    {
      name: 'execute',
      method: 'POST',
      path: `/rest/issue/${other.issue}/execute${q({ command: 'Critical' })}`,
    },
    {
      name: 'execute comment only',
      method: 'POST',
      path: `/rest/issue/${other.issue}/execute${q({ comment: 'hi' })}`,
    },
    {
      name: 'execute with a JSON body',
      method: 'POST',
      path: `/rest/issue/${other.issue}/execute`,
      options: { contentType: 'application/json', body: JSON.stringify({ command: 'Fixed' }) },
    },
    {
      name: 'intellisense',
      method: 'GET',
      path: `/rest/issue/${other.issue}/execute/intellisense${q({ command: 'S' })}`,
    },
    {
      name: 'create issue in other project',
      method: 'PUT',
      path: `/rest/issue${q({ project: other.project, summary: 'x' })}`,
    },
    ...assist.flatMap((route) => [
      {
        name: `${route} issueIds readable`,
        method: 'GET',
        path: `/rest/command/${route}${q({ command: 'S', issueIds: other.issue })}`,
      },
      {
        name: `${route} issueIds compressed`,
        method: 'GET',
        path: `/rest/command/${route}${q({ command: 'S', issueIds: other.compressed })}`,
      },
      {
        name: `${route} issueIds mixed`,
        method: 'GET',
        path: `/rest/command/${route}${q({ command: 'S', issueIds: `${me.issue},${other.issue}` })}`,
      },
      {
        name: `${route} issueIds own readable + other compressed`,
        method: 'GET',
        path: `/rest/command/${route}${q({ command: 'S', issueIds: `${me.issue},${other.compressed}` })}`,
      },
      ...[
        other.searchFolder,
        other.search,
        other.tagFolder,
        other.tag,
        `p-${other.project}`,
        other.project,
      ].map((folder) => ({
        name: `${route} folder ${folder}`,
        method: 'GET',
        path: `/rest/command/${route}${q({ command: 'S', folder })}`,
      })),
    ]),
    ...[
      other.searchFolder,
      other.search,
      other.tagFolder,
      other.tag,
      `p-${other.project}`,
      other.project,
    ].flatMap((folder) => [
      {
        name: `issuesFolder get ${folder}`,
        method: 'GET',
        path: `/rest/issuesFolder/${encodeURIComponent(folder)}`,
      },
      {
        name: `setContextFolder ${folder}`,
        method: 'POST',
        path: `/rest/issuesFolder/setContextFolder${q({ folderId: folder })}`,
      },
    ]),
    { name: 'saved search get', method: 'GET', path: `/rest/user/search/${other.search}` },
    { name: 'tag get', method: 'GET', path: `/rest/user/tag/${other.tag}` },
    { name: 'saved search delete', method: 'DELETE', path: `/rest/user/search/${other.search}` },
    { name: 'tag delete', method: 'DELETE', path: `/rest/user/tag/${other.tag}` },
    { name: 'project get', method: 'GET', path: `/rest/admin/project/${other.project}` },
    { name: 'project delete', method: 'DELETE', path: `/rest/admin/project/${other.project}` },
    { name: 'token revoke', method: 'DELETE', path: `/rest/user/token/${other.tokenName}` },
    { name: 'user get', method: 'GET', path: `/rest/admin/user/${other.login}` },
    {
      name: 'grant self a role in the other project',
      method: 'POST',
      path: `/rest/admin/user/${me.login}/role/Developer${q({ project: other.project })}`,
    },
    {
      name: 'grant the other user a role in the other project',
      method: 'POST',
      path: `/rest/admin/user/${other.login}/role/Admin${q({ project: other.project })}`,
    },
    {
      name: 'revoke the other user’s role',
      method: 'DELETE',
      path: `/rest/admin/user/${other.login}/role/Developer${q({ project: other.project })}`,
    },
    {
      name: 'grant the other user a role in my project',
      method: 'POST',
      path: `/rest/admin/user/${other.login}/role/Developer${q({ project: me.project })}`,
    },
    {
      name: 'update the other user',
      method: 'PUT',
      path: `/rest/admin/user/${other.login}${q({ fullName: 'Owned' })}`,
    },
    {
      name: 'run as the other user',
      method: 'POST',
      path: `/rest/issue/${me.issue}/execute${q({ command: 'Critical', runAs: other.login })}`,
    },
    ...[
      'relates to',
      'depends on',
      'is required for',
      'duplicates',
      'is duplicated by',
      'subtask of',
      'parent for',
    ].map((phrase) => ({
      name: `link ${phrase} the other’s issue`,
      method: 'POST',
      path: `/rest/issue/${me.issue}/execute${q({ command: `${phrase} ${other.issue}` })}`,
      commandError: true,
    })),
    {
      name: 'link in a longer command',
      method: 'POST',
      path: `/rest/issue/${me.issue}/execute${q({ command: `Critical relates to ${other.issue}` })}`,
      commandError: true,
    },
    {
      name: 'remove a link to the other’s issue',
      method: 'POST',
      path: `/rest/issue/${me.issue}/execute${q({ command: `remove relates to ${other.issue}` })}`,
      commandError: true,
    },
  ];
  return list;
}

/** What `me` could read that belongs to `other`, in any answer. */
function leaks(text: string, other: Side): string[] {
  return [
    other.issue,
    `${other.project.toLowerCase()}-`,
    other.search,
    other.tag,
    other.login,
    `Project ${other.login.slice(-1)}`,
  ].filter((secret) => text.toLowerCase().includes(secret.toLowerCase()));
}

for (const [meKey, otherKey] of [
  ['a', 'b'],
  ['b', 'a'],
] as const) {
  describe(`${meKey.toUpperCase()} against ${otherKey.toUpperCase()}’s objects`, () => {
    it('every id-taking route refuses with 403 or 404 and changes nothing, in XML and JSON', async () => {
      const me = sides[meKey];
      const other = sides[otherKey];
      const failures: string[] = [];
      // A snapshot only when the change mark moved (equal marks prove nothing was written).
      let before = await dbSnapshot(server.orm);
      for (const attempt of attempts(me, other)) {
        for (const accept of [XML_ACCEPT, JSON_ACCEPT]) {
          const mark = await changeMark(server.orm);
          const res = await as(me, attempt.method, attempt.path, { accept, ...attempt.options });
          if (![403, 404, ...(attempt.commandError ? [400] : [])].includes(res.status))
            failures.push(`${attempt.name}: ${res.status} ${res.text.slice(0, 200)}`);
          if ((await changeMark(server.orm)) === mark) continue;
          const after = await dbSnapshot(server.orm);
          const changed = changedTables(before, after);
          before = after;
          if (changed.length > 0) failures.push(`${attempt.name}: changed ${changed.join(', ')}`);
        }
      }
      expect(failures).toEqual([]);
    });

    it('a hidden issue answers exactly like a missing one', async () => {
      const me = sides[meKey];
      const other = sides[otherKey];
      const missing = `${other.project}-999`;
      for (const path of [
        (id: string) => `/rest/issue/${id}`,
        (id: string) => `/rest/issue/${id}/execute?command=Critical`,
      ]) {
        const method = path('').includes('execute') ? 'POST' : 'GET';
        const hidden = await as(me, method, path(other.issue), { accept: JSON_ACCEPT });
        const absent = await as(me, method, path(missing), { accept: JSON_ACCEPT });
        expect(hidden.status).toBe(absent.status);
        expect(hidden.json().value.replace(other.issue, 'X')).toBe(absent.json().value.replace(missing, 'X'));
      }
      const hidden = await as(
        me,
        'GET',
        `/rest/command/suggest${q({ command: 'S', issueIds: other.issue })}`,
        { accept: JSON_ACCEPT },
      );
      const absent = await as(me, 'GET', `/rest/command/suggest${q({ command: 'S', issueIds: missing })}`, {
        accept: JSON_ACCEPT,
      });
      expect(hidden.status).toBe(absent.status);
      expect(hidden.json().value.replace(other.issue, 'X')).toBe(absent.json().value.replace(missing, 'X'));
    });

    it('lists and searches show nothing of the other user', async () => {
      const me = sides[meKey];
      const other = sides[otherKey];
      const reads = [
        '/rest/issuesFolder',
        '/rest/issuesFolder/current',
        '/rest/user/search',
        '/rest/user/tag',
        '/rest/user/token',
        '/rest/admin/project',
        `/rest/issue${q({ max: 500 })}`,
        `/rest/issue${q({ filter: `project: ${me.project}` })}`,
        `/rest/issue${q({ filter: other.issue })}`,
        `/rest/issue${q({ filter: `${other.project.toLowerCase()}` })}`,
        `/rest/command/suggest${q({ command: 'relates to ', issueIds: me.issue, optionsLimit: 100 })}`,
        `/rest/command/suggest${q({ command: 'tag ', issueIds: me.issue, optionsLimit: 100 })}`,
        `/rest/command/suggest${q({ command: 'for ', issueIds: me.issue, optionsLimit: 100 })}`,
        `/rest/issue/${me.issue}/execute/intellisense${q({ command: 'relates to ', optionsLimit: 100 })}`,
      ];
      const found: string[] = [];
      for (const path of reads) {
        for (const accept of [XML_ACCEPT, JSON_ACCEPT]) {
          const res = await as(me, 'GET', path, { accept });
          // A search term naming something unreadable may be refused; it must not reveal anything.
          expect([200, 400], `${path}: ${res.text}`).toContain(res.status);
          const leaked = leaks(res.text, other).filter((s) => !path.toLowerCase().includes(s.toLowerCase()));
          if (leaked.length > 0) found.push(`${path}: ${leaked.join(', ')} in ${res.text.slice(0, 300)}`);
        }
      }
      expect(found).toEqual([]);
    });

    it('the other user’s objects are all still there and still theirs', async () => {
      const other = sides[otherKey];
      await expectStatus(as(other, 'GET', `/rest/issue/${other.issue}`), 200);
      const search = await as(other, 'GET', `/rest/user/search/${other.search}`, { accept: JSON_ACCEPT });
      expect(search.json()).toMatchObject({ name: other.search, owner: other.login, shared: false });
      const tag = await as(other, 'GET', `/rest/user/tag/${other.tag}`, { accept: JSON_ACCEPT });
      expect(tag.json()).toMatchObject({ name: other.tag, owner: other.login, shared: false });
      const issue = (await as(other, 'GET', `/rest/issue/${other.issue}`, { accept: JSON_ACCEPT })).json();
      expect(issue.link).toEqual([]);
      expect(issue.comment).toEqual([]);
      expect(issue.tag).toEqual([{ value: other.tag, cssClass: 'c0' }]);
      expect(issue.field).not.toContainEqual({ name: 'Priority', value: 'Critical' });
      const tokens = (await as(other, 'GET', '/rest/user/token', { accept: JSON_ACCEPT })).json() as {
        name: string;
      }[];
      expect(tokens.map((t) => t.name)).toEqual([other.tokenName]);
    });
  });
}

describe('names are per owner', () => {
  it('tagging with the other user’s tag name makes an own tag; the other’s tag is not touched', async () => {
    const { a, b } = sides;
    const tagged = (side: Side) =>
      as(side, 'GET', `/rest/issue${q({ filter: `tag: {${b.tag}}` })}`, { accept: JSON_ACCEPT });
    const before = (await tagged(b)).json().issue.map((i: { id: string }) => i.id);
    expect(before).toEqual([b.issue]);
    await expectStatus(
      as(a, 'POST', `/rest/issue/${a.second}/execute${q({ command: `tag ${b.tag}` })}`),
      200,
    );
    expect((await tagged(b)).json().issue.map((i: { id: string }) => i.id)).toEqual([b.issue]);
    expect((await tagged(a)).json().issue.map((i: { id: string }) => i.id)).toEqual([a.second]);
    const own = await as(a, 'GET', `/rest/user/tag/${b.tag}`, { accept: JSON_ACCEPT });
    expect(own.json()).toMatchObject({ name: b.tag, owner: a.login });
    await expectStatus(as(a, 'DELETE', `/rest/user/tag/${b.tag}`), 200);
    const theirs = await as(b, 'GET', `/rest/user/tag/${b.tag}`, { accept: JSON_ACCEPT });
    expect(theirs.json()).toMatchObject({ name: b.tag, owner: b.login });
    expect((await tagged(b)).json().issue.map((i: { id: string }) => i.id)).toEqual([b.issue]);
  });
});

describe('the same refusals over /trpc', () => {
  it('issues.get, issues.execute, folders.get and commands.suggest refuse the other user’s objects', async () => {
    const { a, b } = sides;
    const before = await dbSnapshot(server.orm);
    const get = (path: string, input: unknown) =>
      as(a, 'GET', `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`);
    const post = (path: string, input: unknown) =>
      as(a, 'POST', `/trpc/${path}`, { contentType: 'application/json', body: JSON.stringify(input) });
    expect((await get('issues.get', { issue: b.issue })).status).toBe(404);
    expect((await get('folders.get', { issueFolder: b.searchFolder })).status).toBe(404);
    expect((await get('commands.suggest', { command: 'S', issueIds: b.compressed })).status).toBe(404);
    expect((await post('issues.execute', { issue: b.issue, command: 'Critical' })).status).toBe(404);
    expect((await post('issues.execute', { issue: a.issue, command: `relates to ${b.issue}` })).status).toBe(
      400,
    );
    expect((await post('folders.deleteTag', { name: b.tag })).status).toBeOneOf([403, 404]);
    expect(changedTables(before, await dbSnapshot(server.orm))).toEqual([]);
  });
});

describe('hygiene', () => {
  it('no response of this suite carried a stack trace', () => expectNoStackTraces(server));
});
