import { SavedSearch, Tag, User } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedTables, dbSnapshot } from '../db-snapshot.js';
import {
  expectJson,
  expectJsonError,
  fork,
  JSON_ACCEPT,
  startTestServer,
  type TestServer,
} from '../harness.js';
import { createIssue, getIssueJson, PRJ, q, ROLE_USERS, setUpWorld } from '../issue-fixtures.js';

/**
 * Resource limits: per-user caps on tags and saved searches (configured small here), folder
 * lists in pages, at most 5 new tags per command text, and at most 50 words/terms per search
 * query wherever a query is parsed (search, count, command assist, saved searches, and a
 * saved search that predates the limit).
 */

const MAX_TAGS = 8;
const MAX_SEARCHES = 3;
const DEV = ROLE_USERS.Developer;
const REP = ROLE_USERS.Reporter;
const OBS = ROLE_USERS.Observer;

let server: TestServer;
let issue: string;

const as = (user: string, method: string, path: string) =>
  server.request(method, path, { user, accept: JSON_ACCEPT });
const execute = (user: string, command: string) =>
  as(user, 'POST', `/rest/issue/${issue}/execute${q({ command })}`);
const words = (n: number) => 'x '.repeat(n).trim();

/** Runs a request that must be refused with `status`, and proves the database did not change. */
async function refused(status: number, send: () => ReturnType<TestServer['request']>) {
  const before = await dbSnapshot(server.orm);
  const res = await send();
  expect(res.status, res.text).toBe(status);
  expect(changedTables(before, await dbSnapshot(server.orm))).toEqual([]);
  return res;
}

beforeAll(async () => {
  server = await startTestServer({
    handler: { resourceLimits: { maxTagsPerUser: MAX_TAGS, maxSavedSearchesPerUser: MAX_SEARCHES } },
  });
  await setUpWorld(server);
  issue = await createIssue(server, 'limits');
});
afterAll(() => server.close());

describe('hardening item 7: resource limits', () => {
  it('a user owns at most the configured number of tags: the next PUT is 409 naming the limit', async () => {
    for (let i = 0; i < MAX_TAGS; i++)
      expect((await as(DEV, 'PUT', `/rest/user/tag/t${i}`)).status).toBe(201);
    const res = await refused(409, () => as(DEV, 'PUT', '/rest/user/tag/one-too-many'));
    expectJsonError(res, 409, 'CONFLICT', `Limit reached: a user may own at most ${MAX_TAGS} tags.`);
    // Others are not affected; a command cannot go around the cap either.
    expect((await as(REP, 'PUT', '/rest/user/tag/mine')).status).toBe(201);
    const viaCommand = await refused(409, () => execute(DEV, 'tag brand-new'));
    expect(viaCommand.json().value).toContain(`at most ${MAX_TAGS} tags`);
    // Existing tags stay usable by commands.
    expect((await execute(DEV, 'tag t1')).status).toBe(200);
  });

  it('a user owns at most the configured number of saved searches; updating one stays possible', async () => {
    for (let i = 0; i < MAX_SEARCHES; i++)
      expect((await as(DEV, 'PUT', `/rest/user/search/s${i}${q({ query: '#Unresolved' })}`)).status).toBe(
        201,
      );
    const res = await refused(409, () => as(DEV, 'PUT', `/rest/user/search/extra${q({ query: 'x' })}`));
    expectJsonError(
      res,
      409,
      'CONFLICT',
      `Limit reached: a user may own at most ${MAX_SEARCHES} saved searches.`,
    );
    expect((await as(DEV, 'PUT', `/rest/user/search/s0${q({ query: '#Resolved' })}`)).status).toBe(200);
  });

  it('one command text creates at most 5 new tags (400 naming the limit); 5 are fine', async () => {
    const six = Array.from({ length: 6 }, (_, i) => `tag n${i}`).join(' ');
    const res = await refused(400, () => execute(OBS, six));
    expectJsonError(res, 400, 'VALIDATION_FAILED', /at most 5 new tags/);
    const five = Array.from({ length: 5 }, (_, i) => `tag n${i}`).join(' ');
    expect((await execute(OBS, five)).status).toBe(200);
    expect((await getIssueJson(server, issue, OBS)).tag.map((t) => t.value)).toEqual(
      expect.arrayContaining(['n0', 'n4']),
    );
    // Existing tags do not count against the per-command limit.
    expect((await execute(OBS, `${five} tag n5`)).status).toBe(200);
  });

  it('a search query of more than 50 words or terms is 400 everywhere a query is parsed', async () => {
    const many = words(996);
    const expect400 = async (path: string) => {
      const res = await as(DEV, 'GET', path);
      expectJsonError(
        res,
        400,
        'VALIDATION_FAILED',
        /^(query|filter): The query has \d+ words and values; at most 50/,
      );
    };
    await expect400(`/rest/issue${q({ filter: many })}`);
    await expect400(`/rest/issue${q({ filter: words(51) })}`);
    await expect400(`/rest/command/suggest${q({ command: 'Fixed', query: many })}`);
    await expect400(`/rest/command/underline${q({ command: 'Fixed', query: many })}`);
    await refused(400, () => as(DEV, 'PUT', `/rest/user/search/huge${q({ query: words(51) })}`));
    await refused(400, () => as(DEV, 'PUT', `/rest/user/search/s1${q({ query: words(51) })}`));
    // Values of one attribute count as well: `for: a, b, c...` would be a chain of ORs.
    await expect400(`/rest/issue${q({ filter: `for: ${words(60).replaceAll(' ', ', ')}` })}`);
    // At the limit, the search runs.
    expect((await as(DEV, 'GET', `/rest/issue${q({ filter: words(50) })}`)).status).toBe(200);
    expect((await as(DEV, 'GET', `/rest/issue${q({ filter: `project: ${PRJ} #Unresolved` })}`)).status).toBe(
      200,
    );
  });

  it('a shared saved search stored before the limit answers 400, not 500, for everyone who uses it', async () => {
    const em = fork(server.orm);
    const owner = await em.findOneOrFail(User, { loginKey: 'root' });
    const legacy = em.create(SavedSearch, {
      owner,
      name: 'legacy',
      nameKey: 'legacy',
      query: words(996).slice(0, 2000),
      shared: true,
    });
    await em.flush();
    for (const user of [DEV, REP]) {
      const res = await as(
        user,
        'GET',
        `/rest/command/suggest${q({ command: 'Fixed', folder: `s-${legacy.id}` })}`,
      );
      expectJsonError(
        res,
        400,
        'VALIDATION_FAILED',
        /^(query|filter): The query has \d+ words and values; at most 50/,
      );
    }
  });

  it('folder lists are paged with start (or after) and max; without them small lists answer as before', async () => {
    const all = await expectJson(await as(DEV, 'GET', '/rest/user/tag'), 200);
    const names = all.map((t: { name: string }) => t.name);
    expect(names.length).toBeGreaterThanOrEqual(MAX_TAGS);
    const page = await expectJson(await as(DEV, 'GET', `/rest/user/tag${q({ start: 2, max: 3 })}`), 200);
    expect(page.map((t: { name: string }) => t.name)).toEqual(names.slice(2, 5));
    const legacy = await expectJson(await as(DEV, 'GET', `/rest/user/tag${q({ after: 2, max: 3 })}`), 200);
    expect(legacy).toEqual(page);

    const folders = await expectJson(await as(DEV, 'GET', '/rest/issuesFolder'), 200);
    for (const [start, max] of [
      [0, 1],
      [1, 2],
      [2, 5],
      [3, 100],
    ] as const) {
      const slice = await expectJson(await as(DEV, 'GET', `/rest/issuesFolder${q({ start, max })}`), 200);
      expect(slice).toEqual(folders.slice(start, start + max));
    }
    const searches = await expectJson(await as(DEV, 'GET', '/rest/user/search'), 200);
    const second = await expectJson(await as(DEV, 'GET', `/rest/user/search${q({ start: 1, max: 1 })}`), 200);
    expect(second).toEqual(searches.slice(1, 2));

    const tooMany = await as(DEV, 'GET', `/rest/user/tag${q({ max: 501 })}`);
    expectJsonError(tooMany, 400, 'VALIDATION_FAILED', /max/);
  });

  it('a page never loads more than max rows: shared tags of many users page like own ones', async () => {
    const em = fork(server.orm);
    const owner = await em.findOneOrFail(User, { loginKey: 'root' });
    for (let i = 0; i < 30; i++)
      em.create(Tag, {
        owner,
        name: `shared${String(i).padStart(2, '0')}`,
        nameKey: `shared${String(i).padStart(2, '0')}`,
        shared: true,
      });
    await em.flush();
    const page = await expectJson(await as(REP, 'GET', `/rest/user/tag${q({ start: 10, max: 5 })}`), 200);
    // REP owns `mine`; then root's shared tags by name (DEV's are private).
    expect(page.map((t: { name: string }) => t.name)).toEqual([
      'shared09',
      'shared10',
      'shared11',
      'shared12',
      'shared13',
    ]);
  });
});
