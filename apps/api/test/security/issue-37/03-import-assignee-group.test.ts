import {
  addUserToGroup,
  createGroup,
  createIssue,
  createProject,
  Group,
  grantRole,
  Issue,
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
 * Issue 37, item 3: an IMPORT_DATA holder imported one issue with `assigneeGroup=secret` and
 * itself as Assignee, became a member of `secret` and read the issues visible to it. An import
 * now adds members to an existing group only for a caller holding UPDATE_USERGROUP (and the
 * group's roles, as before); a missing group is still created (without roles) and filled.
 */
describe('issue 37 item 3: an import joins an existing group only with UPDATE_USERGROUP', () => {
  let server: TestServer;
  let hidden = '';
  let number = 100;
  /** The bytes of the python library's importer: fields as `<field name><value/></field>`. */
  const issueXml = (assignee: string) =>
    `<issues><issue><field name="numberInProject"><value>${++number}</value></field>` +
    '<field name="summary"><value>imported</value></field>' +
    `<field name="created"><value>1400000000000</value></field><field name="reporterName"><value>root</value></field>` +
    `<field name="Assignee"><value>${assignee}</value></field></issue></issues>`;
  const importAs = (login: string, group: string, assignee: string) =>
    server.request('PUT', `/rest/import/PA/issues?assigneeGroup=${encodeURIComponent(group)}`, {
      user: login,
      accept: JSON_ACCEPT,
      contentType: 'application/xml',
      body: issueXml(assignee),
    });
  const memberLogins = async (name: string) =>
    (
      await fork(server.orm).execute<{ login: string }[]>(
        'select u.login from group_members m join users u on u.id = m.user_id join user_groups g on g.id = m.group_id where g.name = ? order by u.login_key',
        [name],
      )
    ).map((r) => r.login);

  beforeAll(async () => {
    server = await startTestServer();
    const root = await actorFor(server.orm, 'root');
    await createProject(fork(server.orm), root, { shortName: 'PA', name: 'Project A' });
    await createGroup(fork(server.orm), root, 'secret');
    await userWithRole(server.orm, 'insider', 'Developer', 'PA');
    await addUserToGroup(fork(server.orm), root, 'insider', 'secret');
    hidden = (
      await createIssue(fork(server.orm), root, {
        project: 'PA',
        summary: 'for secret',
        permittedGroup: 'secret',
      })
    ).id;
    await holderOf(server, 'importer', ['IMPORT_DATA']);
    await grantRole(fork(server.orm), root, 'importer', 'Developer', 'PA');
    await holderOf(server, 'group_importer', ['IMPORT_DATA', 'UPDATE_USERGROUP']);
    await grantRole(fork(server.orm), root, 'group_importer', 'Developer', 'PA');
  });
  afterAll(() => server.close());

  it('IMPORT_DATA alone: assigneeGroup=secret with oneself as Assignee is 403, nothing stored, secret unchanged', async () => {
    const before = await fork(server.orm).count(Issue, {});
    const res = await importAs('importer', 'secret', 'importer');
    expect(res.status, res.text).toBe(403);
    expect(res.json().value).toBe(
      'You have no rights to add imported assignees to group [ secret ] (UPDATE_USERGROUP).',
    );
    expect(await memberLogins('secret')).toEqual(['insider']);
    expect(await fork(server.orm).count(Issue, {})).toBe(before);
    const read = await server.request('GET', `/rest/issue/${hidden}`, { user: 'importer' });
    expect(read.status).toBe(404);
  });

  it('an existing member as the only assignee joins nobody: the import passes', async () => {
    const res = await importAs('importer', 'secret', 'insider');
    expect(res.status, res.text).toBe(200);
    expect(res.json()[0]).toMatchObject({ imported: true });
    expect(await memberLogins('secret')).toEqual(['insider']);
  });

  it('a login unknown so far (a placeholder the user import later makes real) is refused the same way', async () => {
    const res = await importAs('importer', 'secret', 'not_yet_a_user');
    expect(res.status, res.text).toBe(403);
    expect(await memberLogins('secret')).toEqual(['insider']);
  });

  it('a missing group is still created without roles and filled; adding a new assignee later needs UPDATE_USERGROUP', async () => {
    const created = await importAs('importer', 'PA Assignees', 'importer');
    expect(created.status, created.text).toBe(200);
    expect(await fork(server.orm).count(Group, { name: 'PA Assignees', autoJoin: false })).toBe(1);
    expect(await memberLogins('PA Assignees')).toEqual(['importer']);
    const again = await importAs('importer', 'PA Assignees', 'importer');
    expect(again.status, again.text).toBe(200);
    const more = await importAs('importer', 'PA Assignees', 'insider');
    expect(more.status, more.text).toBe(403);
  });

  it('with UPDATE_USERGROUP the import joins the existing group, as adding the member by hand would', async () => {
    const res = await importAs('group_importer', 'secret', 'group_importer');
    expect(res.status, res.text).toBe(200);
    expect(await memberLogins('secret')).toEqual(['group_importer', 'insider']);
    expect((await server.request('GET', `/rest/issue/${hidden}`, { user: 'group_importer' })).status).toBe(
      200,
    );
  });
});
