import {
  addUserToGroup,
  createGroup,
  createIssue,
  createProject,
  executeIssueCommand,
  grantRole,
  IssueComment,
  removeUserFromGroup,
  User,
} from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actorFor,
  fork,
  JSON_ACCEPT,
  startTestServer,
  type TestServer,
  userWithRole,
  xmlError,
} from '../../harness.js';
import { holderOf } from '../holders.js';

/**
 * Issue 37, item 2: a user holding UPDATE_USER, DELETE_USER and READ_USER (no UPDATE_USERGROUP)
 * was refused adding themself to the group `secret`, yet merging a member of `secret` into
 * themself answered 200 and gave them the membership, and with it the issues visible to that
 * group; merging also handed over the merged user's restricted issues (the reporter reads them)
 * and group-restricted comments (the author reads them). A merge now needs UPDATE_USERGROUP for
 * every group the kept account gains by either way.
 */
describe('issue 37 item 2: a merge is no way into a visibility group', () => {
  let server: TestServer;
  let hidden = '';
  const as = (login: string) => ({ user: login, accept: JSON_ACCEPT });
  const exists = async (login: string) =>
    (await fork(server.orm).findOne(User, { loginKey: login })) !== null;

  beforeAll(async () => {
    server = await startTestServer();
    const root = await actorFor(server.orm, 'root');
    await createProject(fork(server.orm), root, { shortName: 'PA', name: 'Project A' });
    await createGroup(fork(server.orm), root, 'secret');
    await holderOf(server, 'hr', ['UPDATE_USER', 'DELETE_USER', 'READ_USER']);
    await holderOf(server, 'groupadmin', ['UPDATE_USER', 'DELETE_USER', 'READ_USER', 'UPDATE_USERGROUP']);
    // hr reads the project's issues as a Reporter, not those visible to `secret`.
    await grantRole(fork(server.orm), root, 'hr', 'Reporter', 'PA');
    await grantRole(fork(server.orm), root, 'groupadmin', 'Reporter', 'PA');
    await userWithRole(server.orm, 'insider');
    await addUserToGroup(fork(server.orm), root, 'insider', 'secret');
    await createIssue(fork(server.orm), root, { project: 'PA', summary: 'open' });
    hidden = (
      await createIssue(fork(server.orm), root, {
        project: 'PA',
        summary: 'for secret',
        permittedGroup: 'secret',
      })
    ).id;
    // `author`: no member of `secret` any more, but the reporter of an issue and the author of a
    // comment visible to it only, which it still reads.
    await userWithRole(server.orm, 'author', 'Reporter', 'PA');
    await addUserToGroup(fork(server.orm), root, 'author', 'secret');
    const author = await actorFor(server.orm, 'author');
    await createIssue(fork(server.orm), author, {
      project: 'PA',
      summary: 'reported for secret',
      permittedGroup: 'secret',
    });
    await executeIssueCommand(fork(server.orm), author, {
      issue: 'PA-1',
      comment: 'for secret only',
      group: 'secret',
    });
    await removeUserFromGroup(fork(server.orm), root, 'author', 'secret');
  });
  afterAll(() => server.close());

  it('hr may not add themself to secret (403), the reference refusal', async () => {
    const res = await server.request('POST', '/rest/admin/user/hr/group/secret', as('hr'));
    expect(res.status, res.text).toBe(403);
  });

  it('merging a member of secret into hr is refused (403 naming the group); nothing changes', async () => {
    const res = await server.request('POST', '/rest/admin/user/hr/merge/insider', { user: 'hr' });
    expect(res.status, res.text).toBe(403);
    expect(xmlError(res.text)).toBe(
      'You have no rights to merge [ insider ] into [ hr ]: [ hr ] would join or read what is visible to group [ secret ] only, which needs UPDATE_USERGROUP.',
    );
    expect(await exists('insider')).toBe(true);
    expect((await server.request('GET', `/rest/issue/${hidden}`, as('hr'))).status).toBe(404);
  });

  it('merging the reporter and author of content visible to secret only is refused the same way', async () => {
    const res = await server.request('POST', '/rest/admin/user/hr/merge/author', as('hr'));
    expect(res.status, res.text).toBe(403);
    expect(res.json().value).toMatch(/group \[ secret \] only, which needs UPDATE_USERGROUP/);
    expect(await exists('author')).toBe(true);
    const comments = await fork(server.orm).count(IssueComment, { author: { loginKey: 'author' } });
    expect(comments).toBe(1);
  });

  it('with UPDATE_USERGROUP the same merges pass, and hr then reads what secret reads', async () => {
    const first = await server.request('POST', '/rest/admin/user/hr/merge/insider', as('groupadmin'));
    expect(first.status, first.text).toBe(200);
    expect(first.json()).toEqual({ mergedTags: [], renamedSearches: [] });
    const second = await server.request('POST', '/rest/admin/user/hr/merge/author', as('groupadmin'));
    expect(second.status, second.text).toBe(200);
    expect((await server.request('GET', `/rest/issue/${hidden}`, as('hr'))).status).toBe(200);
  });

  it('a merge that gains no group still needs no UPDATE_USERGROUP', async () => {
    await userWithRole(server.orm, 'plain_twin');
    const res = await server.request('POST', '/rest/admin/user/hr/merge/plain_twin', { user: 'hr' });
    expect(res.status, res.text).toBe(200);
    expect(await exists('plain_twin')).toBe(false);
  });
});
