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
  xmlElements,
} from '../harness.js';
import { createIssue, execute, q, ROLE_USERS, root, setUpWorld } from '../issue-fixtures.js';

/*
 * Comments as the legacy clients read and change them (legacy-clients.md, "comments"):
 *   - `GET /rest/issue/{id}/comment`: XML `comments` > `comment id author authorFullName issueId
 *     deleted text shownForIssueAuthor created updated` with a `replies` child; JSON an array whose
 *     objects also carry `parentId`, `permittedGroup`, and `updated` even when it is null.
 *   - `PUT /rest/issue/{id}/comment/{cid}` with the JSON body `{"text": …}` (or query/form): 200.
 *   - `DELETE /rest/issue/{id}/comment/{cid}[?permanently=true]`: 200; without `permanently` the
 *     comment stays listed with `deleted="true"`.
 *   - `group` on `POST /rest/issue/{id}/execute` limits the comment's visibility to that group.
 */

let server: TestServer;
let issueId: string;
const REP = ROLE_USERS.Reporter;
const DEV = ROLE_USERS.Developer;

beforeAll(async () => {
  server = await startTestServer();
  await setUpWorld(server);
  issueId = await createIssue(server, 'Discussed', { user: REP });
  const res = await execute(server, issueId, { comment: 'First, by the reporter' }, { user: REP });
  if (res.status !== 200) throw new Error(res.text);
});
afterAll(() => server.close());

const commentsPath = () => `/rest/issue/${issueId}/comment`;
const rootElement = (xml: string) => /^<\?xml[^>]*\?><([\w:-]+)/.exec(xml)?.[1];
const listJson = async (user = 'root') =>
  expectJson(await server.request('GET', commentsPath(), { user, accept: JSON_ACCEPT }), 200) as {
    id: string;
    text: string;
    deleted: boolean;
    updated: number | null;
    permittedGroup: string | null;
  }[];

describe('GET /rest/issue/{id}/comment', () => {
  it('XML (no Accept): comments > comment with the original attributes and a replies child', async () => {
    const res = await server.request('GET', commentsPath(), { user: REP });
    expectXml(res, 200);
    expect(rootElement(res.text)).toBe('comments');
    const [comment] = xmlElements(res.text, 'comment');
    expect(Object.keys(comment ?? {}).sort()).toEqual(
      [
        'author',
        'authorFullName',
        'created',
        'deleted',
        'id',
        'issueId',
        'shownForIssueAuthor',
        'text',
      ].sort(),
    );
    expect(comment).toMatchObject({
      author: REP,
      issueId,
      deleted: 'false',
      text: 'First, by the reporter',
      shownForIssueAuthor: 'false',
    });
    expect(Number(comment?.created)).toBeGreaterThan(0);
    expect(res.text).toMatch(/<comment [^>]*><replies><\/replies><\/comment>/);
  });

  it('JSON: an array of objects with parentId, permittedGroup and updated present (null)', async () => {
    const [comment] = await listJson(REP);
    expect(Object.keys(comment ?? {}).sort()).toEqual(
      [
        'author',
        'authorFullName',
        'created',
        'deleted',
        'id',
        'issueId',
        'parentId',
        'permittedGroup',
        'replies',
        'shownForIssueAuthor',
        'text',
        'updated',
      ].sort(),
    );
    expect(comment).toMatchObject({ parentId: null, permittedGroup: null, updated: null, deleted: false });
  });
});

describe('PUT and DELETE /rest/issue/{id}/comment/{cid}', () => {
  it('PUT with a JSON {"text"} body changes the text and sets updated; query and form work too', async () => {
    const [first] = await listJson(REP);
    const path = `${commentsPath()}/${first?.id}`;
    const json = await server.request('PUT', path, {
      user: REP,
      body: JSON.stringify({ text: 'Edited in JSON' }),
      contentType: 'application/json',
    });
    expect(json.status, json.text).toBe(200);
    let [after] = await listJson(REP);
    expect(after?.text).toBe('Edited in JSON');
    expect(typeof after?.updated).toBe('number');
    expect(
      (await server.request('PUT', `${path}${q({ text: 'Edited in query' })}`, { user: REP })).status,
    ).toBe(200);
    const form = await server.request('PUT', path, {
      user: REP,
      body: 'text=Edited+in+a+form',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(form.status, form.text).toBe(200);
    [after] = await listJson(REP);
    expect(after?.text).toBe('Edited in a form');
  });

  it('editing someone else’s comment without UPDATE_NOT_OWN_COMMENT is 403; an unknown comment 404', async () => {
    const [first] = await listJson(REP);
    const refused = await server.request('PUT', `${commentsPath()}/${first?.id}${q({ text: 'hijack' })}`, {
      user: DEV,
    });
    expect(refused.status).toBe(403);
    expectXmlError(
      await root(server, 'PUT', `${commentsPath()}/987654${q({ text: 'x' })}`),
      404,
      'Comment [ 987654 ] not found.',
    );
    // Beyond the database's integer range: still a plain 404 (PostgreSQL would refuse the comparison).
    expect((await root(server, 'DELETE', `${commentsPath()}/99999999999999`)).status).toBe(404);
  });

  it('DELETE marks the comment deleted (still listed, deleted="true"); permanently=true removes it', async () => {
    await execute(server, issueId, { comment: 'Short-lived' }, { user: REP });
    const target = (await listJson(REP)).find((c) => c.text === 'Short-lived');
    const path = `${commentsPath()}/${target?.id}`;
    expect((await server.request('DELETE', path, { user: REP })).status).toBe(200);
    const xml = await server.request('GET', commentsPath(), { user: REP });
    expect(xmlElements(xml.text, 'comment').find((c) => c.id === target?.id)?.deleted).toBe('true');
    expect((await server.request('DELETE', `${path}?permanently=true`, { user: REP })).status).toBe(200);
    expect((await listJson(REP)).some((c) => c.id === target?.id)).toBe(false);
  });
});

describe('group on execute limits a comment to a group', () => {
  it('members and the author see it, with permittedGroup; others do not', async () => {
    await root(server, 'PUT', '/rest/admin/group/reviewers');
    await root(server, 'POST', `/rest/admin/user/${DEV}/group/reviewers`);
    const grouped = await root(
      server,
      'POST',
      `/rest/issue/${issueId}/execute${q({ comment: 'For reviewers', group: 'reviewers' })}`,
    );
    expect(grouped.status, grouped.text).toBe(200);
    expect((await listJson(DEV)).find((c) => c.text === 'For reviewers')?.permittedGroup).toBe('reviewers');
    expect((await listJson(REP)).some((c) => c.text === 'For reviewers')).toBe(false);
    const unknown = await root(
      server,
      'POST',
      `/rest/issue/${issueId}/execute${q({ comment: 'x', group: 'nobody-group' })}`,
    );
    expectXmlError(unknown, 404, 'Group [ nobody-group ] not found.');
  });
});

describe('comments: bad input', () => {
  it('a lone surrogate or an empty text is 400, nothing changed', async () => {
    const [first] = await listJson(REP);
    const path = `${commentsPath()}/${first?.id}`;
    const surrogate = await server.request('PUT', path, {
      user: REP,
      body: '{"text":"bad \\ud800"}',
      contentType: 'application/json',
      accept: JSON_ACCEPT,
    });
    expectJsonError(surrogate, 400, 'VALIDATION_FAILED', /text/);
    expect((await server.request('PUT', `${path}${q({ text: '  ' })}`, { user: REP })).status).toBe(400);
    expect((await listJson(REP))[0]?.text).toBe(first?.text);
  });

  it('no answer carries a stack trace', () => expectNoStackTraces(server));
});
