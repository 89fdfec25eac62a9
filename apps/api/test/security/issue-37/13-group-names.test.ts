import {
  addUserToGroup,
  createGroup,
  createIssue,
  createProject,
  grantRole,
  Issue,
  IssueComment,
} from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actorFor,
  fork,
  JSON_ACCEPT,
  startTestServer,
  type TestServer,
  userWithRole,
} from '../../harness.js';
import { holderOf } from '../holders.js';

/**
 * Issue 37, item 13: group names could be probed without READ_USERGROUP: `permittedGroup=secret`
 * on issue creation and `group=secret` on a comment answered 201/200 where an unknown group
 * answered 404, and the `visible to` completion listed every group. A caller now names only the
 * groups it may use (its own, or every one with READ_USERGROUP): any other answers exactly like
 * an unknown group, and is not offered.
 */
describe('issue 37 item 13: a group the caller may not use answers as unknown', () => {
  let server: TestServer;
  let hidden = '';
  const as = (login: string) => ({ user: login, accept: JSON_ACCEPT });
  const form = (login: string, body: string) => ({
    ...as(login),
    body,
    contentType: 'application/x-www-form-urlencoded',
  });
  const create = (login: string, group: string) =>
    server.request(
      'PUT',
      `/rest/issue?project=PA&summary=probe&permittedGroup=${encodeURIComponent(group)}`,
      as(login),
    );
  const comment = (login: string, group: string) =>
    server.request(
      'POST',
      '/rest/issue/PA-1/execute',
      form(login, `comment=probe&group=${encodeURIComponent(group)}`),
    );
  const command = (login: string, issue: string, text: string) =>
    server.request(
      'POST',
      `/rest/issue/${issue}/execute`,
      form(login, `command=${encodeURIComponent(text)}`),
    );
  const offered = async (login: string) => {
    const query = new URLSearchParams({ issueIds: 'PA-1', command: 'visible to ', caret: '11' });
    const res = await server.request(
      'GET',
      `/rest/command/underlineAndSuggestAndCommands?${query}`,
      as(login),
    );
    expect(res.status, res.text).toBe(200);
    return (res.json().suggest.items as { option: string }[]).map((i) => i.option).sort();
  };

  beforeAll(async () => {
    server = await startTestServer();
    const root = await actorFor(server.orm, 'root');
    await createProject(fork(server.orm), root, { shortName: 'PA', name: 'Project A' });
    await createIssue(fork(server.orm), root, { project: 'PA', summary: 'open' });
    for (const name of ['secret', 'team']) await createGroup(fork(server.orm), root, name);
    await userWithRole(server.orm, 'outsider', 'Developer', 'PA');
    await addUserToGroup(fork(server.orm), root, 'outsider', 'team');
    await userWithRole(server.orm, 'padmin', 'Project Admin', 'PA');
    await holderOf(server, 'group_reader', ['READ_USERGROUP']);
    await grantRole(fork(server.orm), root, 'group_reader', 'Developer', 'PA');
    hidden = (
      await createIssue(fork(server.orm), root, {
        project: 'PA',
        summary: 'for secret',
        permittedGroup: 'secret',
      })
    ).id;
  });
  afterAll(() => server.close());

  it('permittedGroup on creation: an existing group one is not in answers like an unknown one (404), nothing created', async () => {
    const before = await fork(server.orm).count(Issue, {});
    const existing = await create('outsider', 'secret');
    const unknown = await create('outsider', 'nosuch');
    expect([existing.status, unknown.status]).toEqual([404, 404]);
    expect(existing.json().value).toBe('Group [ secret ] not found.');
    expect(unknown.json().value).toBe('Group [ nosuch ] not found.');
    expect(await fork(server.orm).count(Issue, {})).toBe(before);
    expect((await create('outsider', 'team')).status).toBe(201);
    expect((await create('group_reader', 'secret')).status).toBe(201);
    // A Project Admin holds READ_USERGROUP in its project: every group is a name it may use there.
    expect((await create('padmin', 'secret')).status).toBe(201);
  });

  it('group on a comment: the same, and nothing written', async () => {
    const before = await fork(server.orm).count(IssueComment, {});
    const existing = await comment('outsider', 'secret');
    const unknown = await comment('outsider', 'nosuch');
    expect([existing.status, unknown.status]).toEqual([404, 404]);
    expect(existing.json().value).toBe('Group [ secret ] not found.');
    expect(await fork(server.orm).count(IssueComment, {})).toBe(before);
    expect((await comment('outsider', 'team')).status).toBe(200);
    expect((await comment('group_reader', 'secret')).status).toBe(200);
  });

  it('visible to: the completion offers only one’s own groups; the command answers the same for secret and an unknown group', async () => {
    expect(await offered('outsider')).toEqual(['All Users', 'team']);
    expect(await offered('group_reader')).toEqual(['All Users', 'secret', 'team']);
    const existing = await command('outsider', 'PA-1', 'visible to secret');
    const unknown = await command('outsider', 'PA-1', 'visible to nosuch');
    expect([existing.status, unknown.status]).toEqual([400, 400]);
    expect(existing.json().value.replace('secret', 'X')).toBe(unknown.json().value.replace('nosuch', 'X'));
    expect((await command('outsider', 'PA-1', 'visible to team')).status).toBe(200);
    expect((await command('outsider', 'PA-1', 'remove visible to team')).status).toBe(200);
  });

  it('the group an issue is visible to stays a word on it for who reads it: a project admin lifts it', async () => {
    const res = await command('padmin', hidden, 'remove visible to secret');
    expect(res.status, res.text).toBe(200);
    const issue = await fork(server.orm).findOneOrFail(Issue, { summary: 'for secret' });
    expect(issue.permittedGroup).toBeNull();
  });
});
