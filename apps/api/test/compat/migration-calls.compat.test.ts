import { ROOT_PASSWORD } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXmlDocument } from '../../src/rest/xml-document.js';
import { startTestServer, type TestServer, XML_ACCEPT, xmlElements } from '../harness.js';
import { createIssue, createProjectOverHttp, mustExecute, q, root } from '../issue-fixtures.js';
import { LegacyConnection, pyIssue } from './python-library.js';

/*
 * The calls of the original's importer scripts that a move between two servers depends on
 * (issue 22), each checked with the request the public python library sends and the way it
 * reads the answer (see `python-library.ts`): the export's namespace declaration and read-only
 * fields, root-relative attachment URLs, project work types, the import's updater and link
 * direction, and the attributes the scripts read.
 */

let server: TestServer;
let yt: LegacyConnection;
const P = 'MIG';

beforeAll(async () => {
  server = await startTestServer();
  await createProjectOverHttp(server, P, 'Migration calls');
  yt = await LegacyConnection.open(server.url, 'root', ROOT_PASSWORD);
});
afterAll(() => server.close());

describe('the export of issues (GET /rest/issue/byproject/{p}) and its import back', () => {
  it('declares xmlns:xsi once, on the root, never on an <issue> (the client copies issue attributes into fields)', async () => {
    await createIssue(server, 'first', { project: P });
    await createIssue(server, 'second', { project: P });
    const res = await root(server, 'GET', `/rest/issue/byproject/${P}${q({ max: 10 })}`, {
      accept: XML_ACCEPT,
    });
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/<issues xmlns:xsi="http:\/\/www\.w3\.org\/2001\/XMLSchema-instance"><issue /);
    const issues = xmlElements(res.text, 'issue');
    expect(issues).toHaveLength(2);
    for (const issue of issues) expect(Object.keys(issue).sort()).toEqual(['entityId', 'id']);
    // Every xsi:type attribute stays resolvable: the document is namespace-well-formed.
    expect(readXmlDocument(res.text, 64).attributes['xmlns:xsi']).toBeDefined();
    // The single issue keeps the declaration on its own root.
    const one = await root(server, 'GET', `/rest/issue/${P}-1`, { accept: XML_ACCEPT });
    expect(one.text).toMatch(
      /<issue id="MIG-1" entityId="[^"]+" xmlns:xsi="http:\/\/www\.w3\.org\/2001\/XMLSchema-instance">/,
    );
  });

  it('imports the exported issues back unchanged: namespace declarations and read-only fields are ignored', async () => {
    // moveIssue and youtrack2youtrack feed what getIssue / getIssues parsed into importIssues. A
    // single issue's root carries xmlns:xsi, which becomes a field named "xmlns:xsi".
    const issue = await yt.getIssue(`${P}-1`);
    expect(issue.fields['xmlns:xsi']).toBe('http://www.w3.org/2001/XMLSchema-instance');
    issue.fields.numberInProject = '7';
    issue.comments = [];
    // Names the original ignored on import though its library did not drop them all.
    Object.assign(issue.fields, {
      updaterFullName: 'x',
      historyUpdated: '1',
      wikified: 'false',
      markdown: 'false',
    });
    const answer = await yt.importIssues(P, `${P} Assignees`, [
      issue,
      { ...issue, fields: { ...issue.fields, xmlns: 'urn:x', numberInProject: '8' } },
    ]);
    expect(answer.items.map((i) => [i.id, i.imported])).toEqual([
      ['7', 'true'],
      ['8', 'true'],
    ]);
    const copy = pyIssue(readXmlDocument((await root(server, 'GET', `/rest/issue/${P}-7`)).text, 64));
    expect(copy.fields.summary).toBe('first');
    expect(copy.fields['xmlns:xsi']).toBe('http://www.w3.org/2001/XMLSchema-instance');
    // An unknown name is still refused: only declarations and read-only names are skipped.
    const bad = await yt.importIssues(P, '', [
      { ...issue, fields: { ...issue.fields, numberInProject: '9', xmlnsNot: 'x' } },
    ]);
    expect(bad.items.map((i) => i.imported)).toEqual(['false']);
    expect(bad.text).toMatch(/xmlnsNot/);
  });
});

describe('attachments under the original path shape (point 5)', () => {
  it('lists root-relative /_persistent/… URLs that the client fetches from its base URL, bytes intact', async () => {
    const id = await createIssue(server, 'with a file', { project: P });
    const bytes = Buffer.from([0, 1, 2, 250, 255, 10, 13, 60, 38]);
    const form = new FormData();
    form.append('shot.png', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'shot one.png');
    const up = await yt.req('POST', `/issue/${id}/attachment`, form);
    expect(up.status).toBe(201);
    const [file] = await yt.getAttachments(id);
    expect(file?.url).toMatch(/^\/_persistent\/shot%20one\.png\?file=\d+&issue=MIG-\d+&v=0&c=false$/);
    const content = await yt.getAttachmentContent(String(file?.url));
    expect(Buffer.compare(content.bytes, bytes)).toBe(0);
    expect(content.contentType).toBe('image/png');
    // The same rules as the /rest download: a login, read access to the issue, an existing file.
    const anonymous = await fetch(`${server.url}${file?.url}`);
    expect(anonymous.status).toBe(401);
    await createProjectOverHttp(server, 'HID', 'Hidden');
    const outsider = await server.request(
      'PUT',
      '/rest/admin/user/mig_outsider?password=password-1&email=o%40example.com',
      { user: 'root' },
    );
    expect(outsider.status).toBe(201);
    const hiddenId = await createIssue(server, 'hidden', { project: 'HID' });
    const hiddenForm = new FormData();
    hiddenForm.append('files', new Blob(['secret']), 'secret.txt');
    await yt.req('POST', `/issue/${hiddenId}/attachment`, hiddenForm);
    const [hidden] = await yt.getAttachments(hiddenId);
    const other = await server.request('GET', String(hidden?.url), { user: 'mig_outsider' });
    expect(other.status).toBe(404);
    expect(other.text).not.toContain('secret');
    const wrong = String(file?.url).replace(/file=\d+/, 'file=999999');
    expect((await server.request('GET', wrong, { user: 'root' })).status).toBe(404);
    expect(
      (await server.request('GET', String(file?.url).replace(/file=\d+/, 'file=x'), { user: 'root' })).status,
    ).toBe(404);
  });
});

describe('project work types (point 6)', () => {
  it('answers GET …/project/{p}/timetracking/worktype in the original shape; the client creates, finds and attaches types', async () => {
    // The original's page "GET Work Types for a Project": <workItemTypes><workType><name/><id/><url/>.
    const created = await yt.req(
      'POST',
      '/admin/timetracking/worktype',
      '<workType><name>Development</name><autoAttached>true</autoAttached></workType>',
    );
    expect(created.status).toBe(201);
    const location = String(created.headers.get('location'));
    expect(location).toMatch(/\/rest\/admin\/timetracking\/worktype\/\d+$/);
    const list = await root(server, 'GET', `/rest/admin/project/${P}/timetracking/worktype`, {
      accept: XML_ACCEPT,
    });
    expect(list.status).toBe(200);
    expect(list.text).toMatch(
      /<workItemTypes><workType><name>Development<\/name><id>\d+<\/id><url>http:\/\/[^<]+\/rest\/admin\/timetracking\/worktype\/\d+<\/url><autoAttached>true<\/autoAttached><\/workType><\/workItemTypes>$/,
    );
    // youtrack2youtrack: get_work_types(source project) then create_project_work_type on the target:
    // the second creation is a 409, found by name in the global list, then attached by id.
    const types = await yt.getWorkTypes(P);
    expect(types.map((t) => t.name)).toEqual(['Development']);
    expect(String(types[0]?.url)).toBe(location);
    const attached = await yt.createProjectWorkType(P, types[0] ?? {});
    expect(attached.status).toBe(200);
    expect((await yt.getWorkTypes()).map((t) => [t.name, t.id])).toEqual([['Development', types[0]?.id]]);
    // The attach route checks the type and the project.
    expect((await root(server, 'PUT', `/rest/admin/project/${P}/timetracking/worktype/999999`)).status).toBe(
      404,
    );
    expect(
      (await root(server, 'PUT', `/rest/admin/project/NOPE/timetracking/worktype/Development`)).status,
    ).toBe(404);
    expect((await root(server, 'GET', `/rest/admin/project/NOPE/timetracking/worktype`)).status).toBe(404);
    const dup = await root(server, 'POST', '/rest/admin/timetracking/worktype', {
      body: '<workType><name>development</name></workType>',
      contentType: 'application/xml',
    });
    expect(dup.status).toBe(409);
    const empty = await root(server, 'POST', '/rest/admin/timetracking/worktype', {
      body: '<workType><name></name></workType>',
      contentType: 'application/xml',
    });
    expect(empty.status).toBe(400);
    expect(empty.text).toMatch(/name/);
  });
});

describe('the import keeps updaterName (point 8)', () => {
  it('"Login name of last issue updater": read back as updaterName / updaterFullName until a change is recorded', async () => {
    expect(
      (await yt.importUsers([{ login: 'upd_ann', fullName: 'Ann Updater', email: 'ann@example.com' }]))
        .status,
    ).toBe(200);
    const fields = {
      numberInProject: '20',
      summary: 'updated by Ann',
      created: '1300000000000',
      updated: '1300000500000',
      reporterName: 'root',
      updaterName: 'upd_ann',
    };
    const answer = await yt.importIssues(P, '', [{ fields, tags: [] }]);
    expect(answer.items.map((i) => i.imported)).toEqual(['true']);
    const read = async () => (await yt.getIssue(`${P}-20`)).fields;
    expect(await read()).toMatchObject({
      updaterName: 'upd_ann',
      updaterFullName: 'Ann Updater',
      reporterName: 'root',
    });
    // Idempotent: the same import again changes nothing; another updater replaces it.
    await yt.importIssues(P, '', [{ fields, tags: [] }]);
    expect((await read()).updaterName).toBe('upd_ann');
    await yt.importIssues(P, '', [{ fields: { ...fields, updaterName: 'root' }, tags: [] }]);
    expect((await read()).updaterName).toBe('root');
    await yt.importIssues(P, '', [{ fields, tags: [] }]);
    // A later change is made by its author, who is then the last updater.
    await mustExecute(server, `${P}-20`, 'Priority Major');
    expect((await read()).updaterName).toBe('root');
    // An updaterName that is not a login is reported for that issue, naming the field.
    const bad = await yt.importIssues(P, '', [
      { fields: { ...fields, numberInProject: '21', updaterName: 'not a login' }, tags: [] },
    ]);
    expect(bad.items.map((i) => i.imported)).toEqual(['false']);
    expect(bad.text).toMatch(/fieldName="updaterName"/);
  });
});

describe('links keep their direction (point 9)', () => {
  it('an imported Relates A→B reads back A→B from both ends, whatever the issues’ ages; B→A is the same link', async () => {
    const older = await createIssue(server, 'older', { project: P });
    const newer = await createIssue(server, 'newer', { project: P });
    const answer = await yt.importLinks([{ typeName: 'Relates', source: newer, target: older }]);
    expect(xmlElements(answer.text, 'item').map((i) => i.imported)).toEqual(['true']);
    for (const end of [newer, older])
      expect(
        (await yt.getLinks(end)).map((l) => [l.typeName, l.source, l.target]),
        end,
      ).toEqual([['Relates', newer, older]]);
    // youtrack2youtrack collects getLinks(id, outwardOnly=True): the link is exported from its source only.
    expect(await yt.getLinks(older, true)).toEqual([]);
    expect((await yt.getLinks(newer, true)).map((l) => l.target)).toEqual([older]);
    // The other direction, and a repeat, are the same undirected link: nothing added, both reported imported.
    const again = await yt.importLinks([
      { typeName: 'Relates', source: older, target: newer },
      { typeName: 'Relates', source: newer, target: older },
    ]);
    expect(xmlElements(again.text, 'item').map((i) => i.imported)).toEqual(['true', 'true']);
    expect(await yt.getLinks(newer)).toHaveLength(1);
    // A command stores the link from the issue it ran on, as the original did.
    const third = await createIssue(server, 'third', { project: P });
    await mustExecute(server, third, `relates to ${older}`);
    expect((await yt.getLinks(older)).map((l) => [l.source, l.target])).toEqual([
      [newer, older],
      [third, older],
    ]);
    await mustExecute(server, older, `relates to ${third}`);
    expect(await yt.getLinks(third)).toHaveLength(1);
    // Directed links keep the given direction as before.
    await yt.importLinks([{ typeName: 'Depend', source: older, target: newer }]);
    const depend = (await yt.getLinks(newer)).find((l) => l.typeName === 'Depend');
    expect([depend?.source, depend?.target]).toEqual([older, newer]);
  });
});

describe('every attribute an importer reads, with the original name and format (point 11)', () => {
  it('users: login fullName email jabber (UserImporter copies them into importUsers)', async () => {
    await yt.importUsers([
      { login: 'inv_user', fullName: 'Inv User', email: 'inv@example.com', jabber: 'inv@jabber.example.com' },
    ]);
    expect(await yt.getUser('inv_user')).toMatchObject({
      login: 'inv_user',
      fullName: 'Inv User',
      email: 'inv@example.com',
      jabber: 'inv@jabber.example.com',
    });
    // UserImporter sends `<no email>` for a user that has none: an account without an e-mail.
    const noEmail = await yt.importUsers([
      { login: 'inv_noemail', fullName: 'No Mail', email: '<no email>' },
    ]);
    expect(xmlElements(noEmail.text, 'item').map((i) => i.imported)).toEqual(['true']);
    expect((await yt.getUser('inv_noemail')).email).toBe('');
    const listed = await yt.getUsers({ q: 'inv_user' });
    expect(listed.map((u) => u.login)).toEqual(['inv_user']);
  });

  it('versions: the bundle element’s released archived releaseDate, the project resource’s isReleased isArchived releaseDate', async () => {
    const field = await yt.getProjectCustomField(P, 'Fix versions');
    const bundle = String(field.bundle);
    const add = await yt.put(
      `/admin/customfield/versionBundle/${encodeURIComponent(bundle)}/3.1?released=true&archived=false&releaseDate=1400000000000&description=big`,
    );
    expect(add.status).toBe(201);
    const b = await yt.getBundle('version[*]', bundle);
    expect(b.values.find((v) => v.name === '3.1')).toMatchObject({
      released: 'true',
      archived: 'false',
      releaseDate: '1400000000000',
      description: 'big',
    });
    const version = await yt.get(`/admin/project/${P}/version/3.1`);
    expect(version.attributes).toMatchObject({
      name: '3.1',
      isReleased: 'true',
      isArchived: 'false',
      releaseDate: '1400000000000',
    });
  });

  it('work items: id date duration description worktype>name author login, as child elements', async () => {
    const id = await createIssue(server, 'worked on', { project: P });
    await yt.importWorkItems(id, [
      {
        date: '1400000000000',
        duration: '90',
        description: 'pairing',
        worktype: 'Development',
        authorLogin: 'inv_user',
      },
    ]);
    const [item] = await yt.getWorkItems(id);
    expect(item).toMatchObject({
      date: '1400000000000',
      duration: '90',
      description: 'pairing',
      worktype: 'Development',
      authorLogin: 'inv_user',
    });
    expect(String(item?.id)).toMatch(/^\d+$/);
  });

  it('issues: updaterName updaterFullName reporterName reporterFullName and the built-ins the import takes back', async () => {
    const issue = await yt.getIssue(`${P}-1`);
    for (const name of [
      'numberInProject',
      'summary',
      'created',
      'updated',
      'updaterName',
      'updaterFullName',
      'reporterName',
      'reporterFullName',
      'projectShortName',
      'commentsCount',
      'votes',
    ])
      expect(issue.fields[name], name).toBeDefined();
  });

  it('groups and roles: user groups by name, group roles as userRole name > projects > projectRef id', async () => {
    expect((await yt.createGroup('Inv Group')).status).toBe(201);
    expect(
      (await yt.addUserRoleToGroup('Inv Group', { name: 'Developer', projects: [P] })).status,
    ).toBeLessThan(300);
    expect((await yt.setUserGroup('inv_user', 'Inv Group')).status).toBe(200);
    expect((await yt.getUserGroups('inv_user')).map((g) => g.name)).toContain('Inv Group');
    expect(await yt.getGroupRoles('Inv Group')).toEqual([{ name: 'Developer', projects: [P] }]);
    const role = await yt.getRole('Developer');
    expect(role.name).toBe('Developer');
    expect((await yt.getRolePermissions('Developer')).map((p) => p.name)).toContain('READ_ISSUE');
  });
});

describe('bundles as the python library copies them (point 1)', () => {
  it('finds existing bundles by the listed names and keeps is_resolved, the name its StateField sends', async () => {
    const names = await yt.getAllBundleNames('state[1]');
    expect(names.length).toBeGreaterThan(0);
    const states = await yt.getBundle('state[1]', names[0] as string);
    expect(states.values.length).toBeGreaterThan(0);
    // create_bundle_from_bundle on an empty target: PUT of Bundle.toXml(), then values added one by one.
    const copy = { ...states, name: 'Copied states', values: states.values.slice(0, 1) };
    expect((await yt.createBundle(copy)).status).toBe(201);
    for (const v of states.values.slice(1)) expect((await yt.addValueToBundle(copy, v)).status).toBe(201);
    const back = await yt.getBundle('state[1]', 'Copied states');
    expect(back.values.map((v) => [v.name, v.isResolved])).toEqual(
      states.values.map((v) => [v.name, v.isResolved]),
    );
    expect(await yt.getAllBundleNames('state[1]')).toContain('Copied states');
  });
});

describe('voters and watchers travel with the issue (voterName, watcherName)', () => {
  it('lists them as the import takes them, to those with VIEW_VOTERS / VIEW_WATCHERS', async () => {
    // Imported (an import never overwrites an issue people created).
    const number = '900';
    const id = `${P}-${number}`;
    for (const login of ['vw_a', 'vw_b'])
      expect((await yt.importUsers([{ login, fullName: login, email: `${login}@example.com` }])).status).toBe(
        200,
      );
    const base = {
      numberInProject: number,
      summary: 'popular',
      created: '1300000000000',
      reporterName: 'root',
    };
    await yt.importIssues(P, '', [
      { fields: { ...base, voterName: ['vw_a', 'vw_b'], watcherName: 'vw_b' }, tags: [] },
    ]);
    const fields = (await yt.getIssue(id)).fields;
    expect(fields.voterName).toEqual(['vw_a', 'vw_b']);
    expect(fields.watcherName).toBe('vw_b');
    expect(fields.votes).toBe('2');
    // Someone who may read the issue but not see voters or watchers gets neither list.
    const res = await server.request(
      'PUT',
      '/rest/admin/user/vw_reader?password=password-1&email=r%40example.com',
      { user: 'root' },
    );
    expect(res.status).toBe(201);
    await createRoleWith(['READ_PROJECT', 'READ_ISSUE'], 'Reader only', 'vw_reader');
    const seen = await server.request('GET', `/rest/issue/${id}`, { user: 'vw_reader' });
    expect(seen.status).toBe(200);
    expect(seen.text).not.toContain('voterName');
    expect(seen.text).not.toContain('watcherName');
  });
});

async function createRoleWith(permissions: string[], role: string, login: string) {
  expect((await yt.put(`/admin/role/${encodeURIComponent(role)}?description=`)).status).toBe(201);
  for (const p of permissions) await yt.addPermissionToRole(role, p);
  const grant = await server.request(
    'POST',
    `/rest/admin/user/${login}/role/${encodeURIComponent(role)}?project=${P}`,
    { user: 'root' },
  );
  if (grant.status >= 300) {
    // The group form the python library uses.
    expect((await yt.createGroup(`${role} group`)).status).toBe(201);
    await yt.addUserRoleToGroup(`${role} group`, { name: role, projects: [P] });
    expect((await yt.setUserGroup(login, `${role} group`)).status).toBe(200);
  }
}
