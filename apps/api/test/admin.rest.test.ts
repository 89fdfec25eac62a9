import { createProject, Issue, IssueLink, IssueLinkType, Project, Role } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actorFor,
  adminSnapshot,
  expectJson,
  expectJsonError,
  expectNoStackTraces,
  expectXml,
  expectXmlError,
  fork,
  JSON_ACCEPT,
  type RequestOptions,
  rawRequest,
  startTestServer,
  type TestServer,
  userWithRole,
  WHITESPACE_BETWEEN_TAGS,
  XML_ACCEPT,
  XML_DECLARATION,
  xmlElements,
} from './harness.js';

let server: TestServer;
let base: string;
const root = (method: string, path: string, options: RequestOptions = {}) =>
  server.request(method, path, { user: 'root', ...options });
const rootBasic = `Basic ${Buffer.from('root:root-password').toString('base64')}`;

beforeAll(async () => {
  server = await startTestServer();
  base = server.url;
  await userWithRole(server.orm, 'gregory', 'Developer');
  await userWithRole(server.orm, 'dev', 'Developer');
});
afterAll(() => server.close());

/** Two issues in a fresh project linked with `typeName`, written straight to the database. */
async function linkTwoIssues(typeName: string, projectShortName: string) {
  const em = fork(server.orm);
  const rootActor = await actorFor(server.orm, 'root');
  const project = await createProject(em, rootActor, { shortName: projectShortName, name: projectShortName });
  const type = await em.findOneOrFail(IssueLinkType, { nameKey: typeName.toLowerCase() });
  const issues = [1, 2].map((n) =>
    em.create(Issue, {
      project: project.id,
      numberInProject: n,
      summary: `issue ${n}`,
      description: '',
      reporter: rootActor.userId,
      resolvedAt: null,
    } as never),
  );
  await em.flush();
  const [a, b] = issues as unknown as { id: number }[];
  em.create(IssueLink, { type: type.id, source: a?.id, target: b?.id } as never);
  await em.flush();
}

describe('conventions', () => {
  it('answers XML when the request has no Accept header at all (legacy clients send none)', async () => {
    const res = await rawRequest(base, 'GET', '/rest/admin/role/Admin', { authorization: rootBasic });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml;charset=UTF-8');
    expect(res.text).toBe(
      `${XML_DECLARATION}<role name="Admin" description="Admin can do everything." permissionsUrl="${base}/rest/admin/role/Admin/permission"/>`,
    );
  });

  it('answers XML for an empty Accept header and for Accept: application/xml, JSON for application/json', async () => {
    const empty = await root('GET', '/rest/admin/issueLinkType/Depend');
    expectXml(empty, 200);
    const xml = await root('GET', '/rest/admin/issueLinkType/Depend', { accept: XML_ACCEPT });
    expectXml(xml, 200);
    expect(xml.text).toBe(empty.text);
    const json = await root('GET', '/rest/admin/issueLinkType/Depend', { accept: JSON_ACCEPT });
    expect(expectJson(json, 200)).toEqual({
      name: 'Depend',
      outwardName: 'depends on',
      inwardName: 'is required for',
      directed: true,
      aggregation: false,
    });
  });

  it('renders compact XML: no whitespace between tags in a list', async () => {
    const res = await root('GET', '/rest/admin/permission');
    expectXml(res, 200);
    expect(res.text).not.toMatch(WHITESPACE_BETWEEN_TAGS);
    expect(xmlElements(res.text, 'permission').length).toBeGreaterThan(10);
  });

  it('answers an unknown /rest path with 404 in the negotiated format', async () => {
    expectXmlError(await root('GET', '/rest/admin/nothing'), 404, 'No resource at GET /admin/nothing.');
    expectJsonError(
      await root('GET', '/rest/admin/nothing', { accept: JSON_ACCEPT }),
      404,
      'NOT_FOUND',
      'No resource at GET /admin/nothing.',
    );
  });

  it('escapes markup in attribute values and round-trips it', async () => {
    const description = 'Tests "quoted" <tags> & ampersands';
    const put = await root('PUT', `/rest/admin/role/Escaper?description=${encodeURIComponent(description)}`);
    expect(put.status).toBe(201);
    const res = await root('GET', '/rest/admin/role/Escaper');
    expectXml(res, 200);
    expect(res.text).toContain('description="Tests &quot;quoted&quot; &lt;tags&gt; &amp; ampersands"');
    expect(xmlElements(res.text, 'role')[0]?.description).toBe(description);
  });
});

describe('issue link types', () => {
  it('lists the seeded link types in XML, ordered by name', async () => {
    const res = await root('GET', '/rest/admin/issueLinkType');
    expectXml(res, 200);
    expect(res.text).toBe(
      `${XML_DECLARATION}<issueLinkTypes>` +
        '<issueLinkType name="Depend" outwardName="depends on" inwardName="is required for" directed="true" aggregation="false"/>' +
        '<issueLinkType name="Duplicate" outwardName="duplicates" inwardName="is duplicated by" directed="true" aggregation="true"/>' +
        '<issueLinkType name="Relates" outwardName="relates to" inwardName="relates to" directed="false" aggregation="false"/>' +
        '<issueLinkType name="Subtask" outwardName="parent for" inwardName="subtask of" directed="true" aggregation="true"/>' +
        '</issueLinkTypes>',
    );
  });

  it('lists link types in JSON as an array of objects', async () => {
    const body = expectJson(await root('GET', '/rest/admin/issueLinkType', { accept: JSON_ACCEPT }), 200);
    expect(body.map((t: { name: string }) => t.name)).toEqual(['Depend', 'Duplicate', 'Relates', 'Subtask']);
    expect(body[2]).toEqual({
      name: 'Relates',
      outwardName: 'relates to',
      inwardName: 'relates to',
      directed: false,
      aggregation: false,
    });
  });

  it('gets one link type, whatever the case of the name', async () => {
    const res = await root('GET', '/rest/admin/issueLinkType/duplicate');
    expectXml(res, 200);
    expect(xmlElements(res.text, 'issueLinkType')).toEqual([
      {
        name: 'Duplicate',
        outwardName: 'duplicates',
        inwardName: 'is duplicated by',
        directed: 'true',
        aggregation: 'true',
      },
    ]);
  });

  it('answers 404 for an unknown link type in both formats', async () => {
    expectXmlError(
      await root('GET', '/rest/admin/issueLinkType/Nope'),
      404,
      'Issue link type [ Nope ] not found.',
    );
    expectJsonError(
      await root('GET', '/rest/admin/issueLinkType/Nope', { accept: JSON_ACCEPT }),
      404,
      'NOT_FOUND',
      'Issue link type [ Nope ] not found.',
    );
    expectXmlError(
      await root('GET', '/rest/admin/issueLinkType/Nope/count'),
      404,
      'Issue link type [ Nope ] not found.',
    );
  });

  it('counts usages as <int> and {value}', async () => {
    const xml = await root('GET', '/rest/admin/issueLinkType/Relates/count');
    expectXml(xml, 200);
    expect(xml.text).toBe(`${XML_DECLARATION}<int>0</int>`);
    expect(
      expectJson(await root('GET', '/rest/admin/issueLinkType/Relates/count', { accept: JSON_ACCEPT }), 200),
    ).toEqual({ value: 0 });
  });

  it('creates a link type the way the Python client does: directed=True, <empty/> XML body', async () => {
    const res = await root(
      'PUT',
      '/rest/admin/issueLinkType/Displace?outwardName=displaces&inwardName=is%20displaced%20by&directed=True',
      { body: '<empty/>\n\n', contentType: 'application/xml', accept: XML_ACCEPT },
    );
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${base}/rest/admin/issueLinkType/Displace`);
    expect(res.headers.get('content-length')).toBe('0');
    expect(res.text).toBe('');
    const get = await root('GET', '/rest/admin/issueLinkType/Displace');
    expect(xmlElements(get.text, 'issueLinkType')[0]).toEqual({
      name: 'Displace',
      outwardName: 'displaces',
      inwardName: 'is displaced by',
      directed: 'true',
      aggregation: 'false',
    });
  });

  it('creates an undirected link type whose inward name mirrors the outward one; JSON create returns the type', async () => {
    const res = await root(
      'PUT',
      '/rest/admin/issueLinkType/Mirrors?outwardName=mirrors&inwardName=ignored',
      {
        accept: JSON_ACCEPT,
      },
    );
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${base}/rest/admin/issueLinkType/Mirrors`);
    expect(res.json()).toEqual({
      name: 'Mirrors',
      outwardName: 'mirrors',
      inwardName: 'mirrors',
      directed: false,
      aggregation: false,
    });
  });

  it('encodes a name with a space in the Location header and finds it by its encoded path', async () => {
    const res = await root(
      'PUT',
      '/rest/admin/issueLinkType/Blocks%20Hard?outwardName=blocks&inwardName=is%20blocked%20by&directed=1&aggregation=TRUE',
    );
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${base}/rest/admin/issueLinkType/Blocks%20Hard`);
    const get = await root('GET', '/rest/admin/issueLinkType/Blocks%20Hard', { accept: JSON_ACCEPT });
    expect(expectJson(get, 200)).toMatchObject({ name: 'Blocks Hard', directed: true, aggregation: true });
  });

  it('renames a link type with newName (200, the updated type), after which the old name is gone', async () => {
    await root(
      'PUT',
      '/rest/admin/issueLinkType/Old?outwardName=olds&inwardName=is%20olded%20by&directed=true',
    );
    const res = await root('POST', '/rest/admin/issueLinkType/Old?newName=Newer&outwardName=newers');
    expectXml(res, 200);
    expect(xmlElements(res.text, 'issueLinkType')[0]).toEqual({
      name: 'Newer',
      outwardName: 'newers',
      inwardName: 'is olded by',
      directed: 'true',
      aggregation: 'false',
    });
    expect((await root('GET', '/rest/admin/issueLinkType/Old')).status).toBe(404);
    expect((await root('GET', '/rest/admin/issueLinkType/Newer')).status).toBe(200);
  });

  it('changes directed: to undirected mirrors the names, back to directed needs an inward name', async () => {
    await root(
      'PUT',
      '/rest/admin/issueLinkType/Flip?outwardName=flips&inwardName=is%20flipped%20by&directed=true',
    );
    const undirected = await root('POST', '/rest/admin/issueLinkType/Flip?directed=false', {
      accept: JSON_ACCEPT,
    });
    expect(expectJson(undirected, 200)).toMatchObject({
      directed: false,
      outwardName: 'flips',
      inwardName: 'flips',
    });
    expectXmlError(
      await root('POST', '/rest/admin/issueLinkType/Flip?directed=true'),
      400,
      'inwardName: is required when making a link type directed',
    );
    const directed = await root(
      'POST',
      '/rest/admin/issueLinkType/Flip?directed=True&inwardName=flopped%20by',
      {
        accept: JSON_ACCEPT,
      },
    );
    expect(expectJson(directed, 200)).toMatchObject({
      directed: true,
      outwardName: 'flips',
      inwardName: 'flopped by',
    });
  });

  it('answers 404 when updating or deleting an unknown link type', async () => {
    expectXmlError(
      await root('POST', '/rest/admin/issueLinkType/Nope?newName=X'),
      404,
      'Issue link type [ Nope ] not found.',
    );
    expectJsonError(
      await root('DELETE', '/rest/admin/issueLinkType/Nope', { accept: JSON_ACCEPT }),
      404,
      'NOT_FOUND',
      'Issue link type [ Nope ] not found.',
    );
  });

  it('deletes a link type with the legacy text message and removes the links of that type', async () => {
    await root(
      'PUT',
      '/rest/admin/issueLinkType/Doomed?outwardName=dooms&inwardName=is%20doomed%20by&directed=true',
    );
    await linkTwoIssues('Doomed', 'LINKS');
    await linkTwoIssues('Relates', 'KEEP');
    expect((await root('GET', '/rest/admin/issueLinkType/Doomed/count')).text).toBe(
      `${XML_DECLARATION}<int>1</int>`,
    );
    const relatesBefore = await fork(server.orm).count(IssueLink, { type: { name: 'Relates' } });
    expect(relatesBefore).toBe(1);

    const res = await root('DELETE', '/rest/admin/issueLinkType/Doomed');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain;charset=UTF-8');
    expect(res.text).toBe('Issue link type [ Doomed ] was successfully deleted.');

    const em = fork(server.orm);
    expect(await em.count(IssueLinkType, { nameKey: 'doomed' })).toBe(0);
    expect(await em.count(IssueLink, {})).toBe(relatesBefore);
    expect((await root('GET', '/rest/admin/issueLinkType/Doomed')).status).toBe(404);
  });

  it('deletes in JSON with the message as {value}', async () => {
    await root('PUT', '/rest/admin/issueLinkType/Gone?outwardName=goes');
    const res = await root('DELETE', '/rest/admin/issueLinkType/gone', { accept: JSON_ACCEPT });
    expect(expectJson(res, 200)).toEqual({ value: 'Issue link type [ Gone ] was successfully deleted.' });
  });
});

describe('roles and permissions', () => {
  it('lists roles as <roleRefs><role name url/></roleRefs>, URLs encoded', async () => {
    const res = await root('GET', '/rest/admin/role');
    expectXml(res, 200);
    expect(res.text).toMatch(/^<\?xml[^>]*\?><roleRefs><role [^>]*\/>.*<\/roleRefs>$/);
    const roles = xmlElements(res.text, 'role');
    expect(roles.filter((r) => r.name !== 'Escaper')).toEqual([
      { name: 'Admin', url: `${base}/rest/admin/role/Admin` },
      { name: 'Developer', url: `${base}/rest/admin/role/Developer` },
      { name: 'Observer', url: `${base}/rest/admin/role/Observer` },
      { name: 'Project Admin', url: `${base}/rest/admin/role/Project%20Admin` },
      { name: 'Reporter', url: `${base}/rest/admin/role/Reporter` },
    ]);
  });

  it('lists roles in JSON as [{name, url}]', async () => {
    const body = expectJson(await root('GET', '/rest/admin/role', { accept: JSON_ACCEPT }), 200);
    expect(body).toContainEqual({ name: 'Observer', url: `${base}/rest/admin/role/Observer` });
    expect(Object.keys(body[0]).sort()).toEqual(['name', 'url']);
  });

  it('gets a role whose name has a space through its URL-decoded path segment', async () => {
    const res = await root('GET', '/rest/admin/role/Project%20Admin');
    expectXml(res, 200);
    expect(xmlElements(res.text, 'role')).toEqual([
      {
        name: 'Project Admin',
        description: 'Administers the projects it is granted in.',
        permissionsUrl: `${base}/rest/admin/role/Project%20Admin/permission`,
      },
    ]);
    const json = await root('GET', '/rest/admin/role/project%20admin', { accept: JSON_ACCEPT });
    expect(expectJson(json, 200)).toEqual({
      name: 'Project Admin',
      description: 'Administers the projects it is granted in.',
      permissionsUrl: `${base}/rest/admin/role/Project%20Admin/permission`,
    });
  });

  it('answers 404 <error>Role [ X ] not found.</error> for an unknown role', async () => {
    expectXmlError(await root('GET', '/rest/admin/role/Adfds'), 404, 'Role [ Adfds ] not found.');
    expectJsonError(
      await root('GET', '/rest/admin/role/Adfds', { accept: JSON_ACCEPT }),
      404,
      'NOT_FOUND',
      'Role [ Adfds ] not found.',
    );
  });

  it('creates a role: 201, Location, empty XML body', async () => {
    const res = await root('PUT', '/rest/admin/role/Tester?description=Tests%20things');
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${base}/rest/admin/role/Tester`);
    expect(res.headers.get('content-length')).toBe('0');
    expect(res.text).toBe('');
    const role = await fork(server.orm).findOneOrFail(
      Role,
      { nameKey: 'tester' },
      { populate: ['permissions'] },
    );
    expect(role).toMatchObject({ name: 'Tester', description: 'Tests things' });
    expect(role.permissions.getItems()).toEqual([]);
  });

  it('creates a role named with a space (encoded Location) and answers JSON creates with the role', async () => {
    const res = await root('PUT', '/rest/admin/role/QA%20Lead', { accept: JSON_ACCEPT });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${base}/rest/admin/role/QA%20Lead`);
    expect(res.json()).toEqual({
      name: 'QA Lead',
      description: '',
      permissionsUrl: `${base}/rest/admin/role/QA%20Lead/permission`,
    });
  });

  it('updates a role with newName and description like the Python client (no body, no content type)', async () => {
    await root('PUT', '/rest/admin/role/Renamer?description=before');
    const res = await root('POST', '/rest/admin/role/Renamer?newName=Renamed&description=after');
    expectXml(res, 200);
    expect(xmlElements(res.text, 'role')[0]).toEqual({
      name: 'Renamed',
      description: 'after',
      permissionsUrl: `${base}/rest/admin/role/Renamed/permission`,
    });
    expectXmlError(await root('GET', '/rest/admin/role/Renamer'), 404, 'Role [ Renamer ] not found.');
    const onlyDescription = await root('POST', '/rest/admin/role/Renamed?description=again', {
      accept: JSON_ACCEPT,
    });
    expect(expectJson(onlyDescription, 200)).toMatchObject({ name: 'Renamed', description: 'again' });
  });

  it('lists a role’s permissions as <permissions><permission name description/>', async () => {
    const res = await root('GET', '/rest/admin/role/Observer/permission');
    expectXml(res, 200);
    expect(res.text).toBe(
      `${XML_DECLARATION}<permissions>` +
        '<permission name="READ_COMMENT" description="Read Comment"/>' +
        '<permission name="READ_ISSUE" description="Read Issue"/>' +
        '<permission name="READ_PROJECT" description="Read Project"/>' +
        '<permission name="READ_USER" description="Read User"/>' +
        '<permission name="READ_WORK_ITEM" description="Read Work Item"/>' +
        '</permissions>',
    );
  });

  it('adds and removes permissions (200 with the resulting list), adding twice changes nothing', async () => {
    await root('PUT', '/rest/admin/role/Permissive');
    const add = await root('POST', '/rest/admin/role/Permissive/permission/CREATE_ISSUE');
    expectXml(add, 200);
    expect(xmlElements(add.text, 'permission')).toEqual([
      { name: 'CREATE_ISSUE', description: 'Create Issue' },
    ]);
    const again = await root('POST', '/rest/admin/role/Permissive/permission/CREATE_ISSUE', {
      accept: JSON_ACCEPT,
    });
    expect(expectJson(again, 200)).toEqual([{ name: 'CREATE_ISSUE', description: 'Create Issue' }]);
    await root('POST', '/rest/admin/role/Permissive/permission/READ_ISSUE');
    const list = await root('GET', '/rest/admin/role/Permissive/permission', { accept: JSON_ACCEPT });
    expect(expectJson(list, 200).map((p: { name: string }) => p.name)).toEqual([
      'CREATE_ISSUE',
      'READ_ISSUE',
    ]);

    const remove = await root('DELETE', '/rest/admin/role/Permissive/permission/CREATE_ISSUE');
    expectXml(remove, 200);
    expect(xmlElements(remove.text, 'permission')).toEqual([
      { name: 'READ_ISSUE', description: 'Read Issue' },
    ]);
    expectXmlError(
      await root('DELETE', '/rest/admin/role/Permissive/permission/CREATE_ISSUE'),
      404,
      'Role [ Permissive ] does not have permission [ CREATE_ISSUE ].',
    );
  });

  it('answers 404 <error>Permission [ X ] not found.</error> for an unknown permission', async () => {
    expectXmlError(
      await root('POST', '/rest/admin/role/Tester/permission/FLY_TO_MOON'),
      404,
      'Permission [ FLY_TO_MOON ] not found.',
    );
    expectJsonError(
      await root('DELETE', '/rest/admin/role/Tester/permission/FLY_TO_MOON', { accept: JSON_ACCEPT }),
      404,
      'NOT_FOUND',
      'Permission [ FLY_TO_MOON ] not found.',
    );
    expectXmlError(
      await root('POST', '/rest/admin/role/NoSuchRole/permission/READ_ISSUE'),
      404,
      'Role [ NoSuchRole ] not found.',
    );
  });

  it('lists the whole permission catalogue at /rest/admin/permission', async () => {
    const res = await root('GET', '/rest/admin/permission');
    expectXml(res, 200);
    const permissions = xmlElements(res.text, 'permission');
    expect(permissions).toHaveLength(50);
    expect(permissions.slice(0, 5)).toEqual([
      { name: 'READ_ISSUE', description: 'Read Issue' },
      { name: 'UPDATE_ISSUE', description: 'Update Issue' },
      { name: 'CREATE_ISSUE', description: 'Create Issue' },
      { name: 'DELETE_ISSUE', description: 'Delete Issue' },
      { name: 'LINK_ISSUE', description: 'Link Issues' },
    ]);
    const names = permissions.map((p) => p.name);
    for (const key of [
      'READ_ROLE',
      'CREATE_PROJECT',
      'UPDATE_ISSUE_LINK_TYPE',
      'LOW_LEVEL_ADMIN',
      'IMPORT_DATA',
    ]) {
      expect(names).toContain(key);
    }
    const json = expectJson(await root('GET', '/rest/admin/permission', { accept: JSON_ACCEPT }), 200);
    expect(json).toHaveLength(50);
    expect(json[0]).toEqual({ name: 'READ_ISSUE', description: 'Read Issue' });
  });
});

describe('projects', () => {
  it('creates a project from query parameters: 201, XML content type, Location, Content-Length 0', async () => {
    const res = await root(
      'PUT',
      '/rest/admin/project/CMN?projectName=Communism&startingNumber=1&projectLeadLogin=gregory&description=You+know',
    );
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/xml;charset=UTF-8');
    expect(res.headers.get('location')).toBe(`${base}/rest/admin/project/CMN`);
    expect(res.headers.get('content-length')).toBe('0');
    expect(res.text).toBe('');

    const get = await root('GET', '/rest/admin/project/CMN', { accept: XML_ACCEPT });
    expectXml(get, 200);
    expect(xmlElements(get.text, 'project')).toEqual([
      {
        id: 'CMN',
        name: 'Communism',
        lead: 'gregory',
        description: 'You know',
        startingNumber: '1',
        assigneesUrl: `${base}/rest/admin/project/CMN/assignee/`,
        subsystemsUrl: `${base}/rest/admin/project/CMN/subsystem/`,
        buildsUrl: `${base}/rest/admin/project/CMN/build/`,
        versionsUrl: `${base}/rest/admin/project/CMN/version/`,
      },
    ]);
  });

  it('accepts the `lead` alias, trims the description (the Python client appends a space), defaults the lead to the caller', async () => {
    const viaAlias = await root(
      'PUT',
      '/rest/admin/project/ALIAS?projectName=Alias&lead=dev&description=padded%20&startingNumber=7',
    );
    expect(viaAlias.status).toBe(201);
    const project = await fork(server.orm).findOneOrFail(
      Project,
      { shortNameKey: 'ALIAS' },
      { populate: ['lead'] },
    );
    expect(project).toMatchObject({ name: 'Alias', description: 'padded', startingNumber: 7, nextNumber: 7 });
    expect(project.lead.login).toBe('dev');

    await root('PUT', '/rest/admin/project/NOLEAD?projectName=No%20lead');
    const json = expectJson(await root('GET', '/rest/admin/project/NOLEAD', { accept: JSON_ACCEPT }), 200);
    expect(json).toMatchObject({
      id: 'NOLEAD',
      name: 'No lead',
      lead: 'root',
      description: '',
      startingNumber: 1,
    });
  });

  it('creates a project from an XML body at PUT /rest/admin/project', async () => {
    const res = await root('PUT', '/rest/admin/project', {
      contentType: 'application/xml',
      body: '<project id="XMLP" name="Xml project" lead="gregory" startingNumber="5"><description>From XML </description></project>',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${base}/rest/admin/project/XMLP`);
    expect(res.text).toBe('');
    const json = expectJson(await root('GET', '/rest/admin/project/XMLP', { accept: JSON_ACCEPT }), 200);
    expect(json).toMatchObject({
      id: 'XMLP',
      name: 'Xml project',
      lead: 'gregory',
      description: 'From XML',
      startingNumber: 5,
    });
  });

  it('creates a project from a JSON body at PUT /rest/admin/project and answers JSON with the project', async () => {
    const res = await root('PUT', '/rest/admin/project', {
      contentType: 'application/json',
      accept: JSON_ACCEPT,
      body: JSON.stringify({
        shortName: 'JSONP',
        name: 'Json project',
        projectLeadLogin: 'dev',
        startingNumber: 3,
      }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${base}/rest/admin/project/JSONP`);
    expect(res.json()).toMatchObject({
      id: 'JSONP',
      name: 'Json project',
      lead: 'dev',
      startingNumber: 3,
      description: '',
    });
  });

  it('lists projects at /rest/admin/project/ (trailing slash) as <projectRefs>', async () => {
    const res = await root('GET', '/rest/admin/project/');
    expectXml(res, 200);
    expect(res.text).toMatch(/^<\?xml[^>]*\?><projectRefs>(<project [^>]*\/>)+<\/projectRefs>$/);
    const refs = xmlElements(res.text, 'project');
    expect(refs.map((p) => p.id)).toEqual(['ALIAS', 'CMN', 'JSONP', 'KEEP', 'LINKS', 'NOLEAD', 'XMLP']);
    expect(refs[1]).toEqual({ id: 'CMN', url: `${base}/rest/admin/project/CMN` });
    const json = expectJson(await root('GET', '/rest/admin/project', { accept: JSON_ACCEPT }), 200);
    expect(json.map((p: { id: string }) => p.id)).toEqual(refs.map((p) => p.id));
  });

  it('lists only the projects the caller can read', async () => {
    await userWithRole(server.orm, 'cmn_dev', 'Developer', 'CMN');
    const res = await server.request('GET', '/rest/admin/project/', { user: 'cmn_dev' });
    expectXml(res, 200);
    expect(xmlElements(res.text, 'project')).toEqual([{ id: 'CMN', url: `${base}/rest/admin/project/CMN` }]);
    await userWithRole(server.orm, 'nobody');
    const none = await server.request('GET', '/rest/admin/project', { user: 'nobody' });
    expect(none.text).toBe(`${XML_DECLARATION}<projectRefs></projectRefs>`);
    expect(
      expectJson(
        await server.request('GET', '/rest/admin/project', { user: 'nobody', accept: JSON_ACCEPT }),
        200,
      ),
    ).toEqual([]);
  });

  it('gets a project case-insensitively and answers 404 for an unknown one', async () => {
    expect(
      expectJson(await root('GET', '/rest/admin/project/cmn', { accept: JSON_ACCEPT }), 200),
    ).toMatchObject({ id: 'CMN' });
    expectXmlError(await root('GET', '/rest/admin/project/XX'), 404, 'Project [ XX ] not found.');
    expectJsonError(
      await root('GET', '/rest/admin/project/XX', { accept: JSON_ACCEPT }),
      404,
      'NOT_FOUND',
      'Project [ XX ] not found.',
    );
  });

  it('deletes a project: 200 with an empty body, then 404', async () => {
    await root('PUT', '/rest/admin/project/YP?projectName=Your%20project');
    const res = await root('DELETE', '/rest/admin/project/YP');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    // It went to the trash (see security/12-delete-data-loss.test.ts): gone for every route.
    expect(await fork(server.orm).count(Project, { shortNameKey: 'YP', deletedAt: null })).toBe(0);
    expectXmlError(await root('DELETE', '/rest/admin/project/YP'), 404, 'Project [ YP ] not found.');
    expectJsonError(
      await root('DELETE', '/rest/admin/project/YP', { accept: JSON_ACCEPT }),
      404,
      'NOT_FOUND',
      'Project [ YP ] not found.',
    );
  });

  it('deleting and then purging a project removes its issues and their links', async () => {
    expect(await fork(server.orm).count(IssueLink, {})).toBe(1);
    const res = await root('DELETE', '/rest/admin/project/KEEP');
    expect(res.status).toBe(200);
    expect(await fork(server.orm).count(IssueLink, {})).toBe(1);
    expect((await root('DELETE', '/rest/admin/projectTrash/KEEP')).status).toBe(200);
    const em = fork(server.orm);
    expect(await em.count(IssueLink, {})).toBe(0);
    expect(await em.count(Issue, { project: { shortNameKey: 'KEEP' } })).toBe(0);
  });
});

describe('system users and users', () => {
  it('lists the system users as <userRefs>', async () => {
    const res = await root('GET', '/rest/admin/systemuser');
    expectXml(res, 200);
    expect(xmlElements(res.text, 'user')).toEqual([
      {
        login: 'deleted_user',
        fullName: 'Deleted user',
        email: '',
        type: 'system',
        url: `${base}/rest/admin/user/deleted_user`,
      },
      { login: 'guest', fullName: 'Guest', email: '', type: 'guest', url: `${base}/rest/admin/user/guest` },
      { login: 'root', fullName: 'root', email: '', type: 'root', url: `${base}/rest/admin/user/root` },
      {
        login: 'system_user',
        fullName: 'Workflow and system user',
        email: '',
        type: 'workflow',
        url: `${base}/rest/admin/user/system_user`,
      },
    ]);
    const json = expectJson(await root('GET', '/rest/admin/systemuser', { accept: JSON_ACCEPT }), 200);
    expect(json.map((u: { login: string; type: string }) => `${u.login}:${u.type}`)).toEqual([
      'deleted_user:system',
      'guest:guest',
      'root:root',
      'system_user:workflow',
    ]);
  });

  it('refuses system users to a non-admin with 403 naming LOW_LEVEL_ADMIN', async () => {
    expectXmlError(
      await server.request('GET', '/rest/admin/systemuser', { user: 'dev' }),
      403,
      'You have no rights to read system users (LOW_LEVEL_ADMIN).',
    );
  });

  it('creates a user (201 + Location) who can then log in, and grants a role in a project', async () => {
    const res = await root(
      'PUT',
      '/rest/admin/user/newbie?fullName=New%20Bie&email=newbie%40example.com&password=secret-pass',
    );
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${base}/rest/admin/user/newbie`);
    expect(res.text).toBe('');
    const self = await server.request('GET', '/rest/admin/user/newbie', {
      user: 'newbie',
      password: 'secret-pass',
    });
    expectXml(self, 200);
    expect(xmlElements(self.text, 'user')[0]).toMatchObject({
      login: 'newbie',
      fullName: 'New Bie',
      email: 'newbie@example.com',
      type: 'user',
    });
    const grant = await root('POST', '/rest/admin/user/newbie/role/Observer?project=CMN');
    expect(grant.status).toBe(200);
    const projects = await server.request('GET', '/rest/admin/project', {
      user: 'newbie',
      password: 'secret-pass',
      accept: JSON_ACCEPT,
    });
    expect(expectJson(projects, 200).map((p: { id: string }) => p.id)).toEqual(['CMN']);
  });
});

describe('an unexpected failure', () => {
  it('answers 500 "Internal server error" without any detail, and logs the cause', async () => {
    const logged: unknown[] = [];
    const broken = await startTestServer({
      logError: (error) => logged.push(error),
      provokesServerErrors: true,
    });
    try {
      // A table gone from under the running server: every read of roles fails unexpectedly.
      await fork(broken.orm).execute('alter table roles rename to roles_unreachable');
      expectXmlError(
        await broken.request('GET', '/rest/admin/role', { user: 'root' }),
        500,
        'Internal server error',
      );
      expectJsonError(
        await broken.request('GET', '/rest/admin/role', { user: 'root', accept: JSON_ACCEPT }),
        500,
        'INTERNAL',
        'Internal server error',
      );
      expect(logged.length).toBeGreaterThanOrEqual(2);
      expectNoStackTraces(broken);
    } finally {
      await broken.close();
    }
  });
});

describe('state', () => {
  it('a refused request changes nothing', async () => {
    const before = await adminSnapshot(server.orm);
    await server.request('DELETE', '/rest/admin/issueLinkType/Relates', { user: 'dev' });
    await server.request('PUT', '/rest/admin/role/Sneaky', { user: 'dev' });
    await server.request('DELETE', '/rest/admin/project/CMN', { user: 'dev' });
    expect(await adminSnapshot(server.orm)).toEqual(before);
  });

  it('no response of this suite carried a stack trace', () => {
    expectNoStackTraces(server);
  });
});
