import { CustomField, FieldValue } from '@trackline/domain';
import { userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectJson,
  expectJsonError,
  expectNoStackTraces,
  expectXml,
  expectXmlError,
  fork,
  JSON_ACCEPT,
  startTestServer,
  type TestServer,
  XML_ACCEPT,
  xmlElements,
} from '../harness.js';
import { createProjectOverHttp, q, root } from '../issue-fixtures.js';

/*
 * Custom fields and bundles as the migration scripts call them (shared/reference/legacy-clients.md,
 * "The migration path"). Expected shapes are the original's:
 *   - `GET /rest/admin/customfield/field`: a list whose children carry `name` (and `url`);
 *     one prototype: `<customFieldPrototype name type isPrivate visibleByDefault autoAttached>`
 *     with `<defaultParam name="defaultBundle" value="…"/>`.
 *   - `PUT /rest/admin/customfield/field/{name}?type&isPrivate&defaultVisibility&autoAttached&defaultBundle&attachBundlePolicy`.
 *   - `GET /rest/admin/project/{p}/customfield`: `projectCustomFieldRefs` > `projectCustomField name url`;
 *     one: `projectCustomField name type emptyText canBeEmpty url` with `<param name="bundle" value/>`.
 *   - bundles: `enumeration`/`value` (colorIndex, description), `stateBundle`/`state` (isResolved),
 *     `versions`/`version` (released, archived, releaseDate), `buildBundle`/`build` (assembleDate),
 *     `ownedFieldBundle`/`ownedField` (owner), `userBundle` > `user login url`; created by PUT of
 *     that XML to `/rest/admin/customfield/{type}` (409 when it exists); values by
 *     PUT `…/{type}/{bundle}/{value}?attributes`; listing: `enumFieldBundleRefs` > `enumFieldBundle`,
 *     `stateBundleRefs` > `stateBundle name url` (and so for version, build, owned-field bundles).
 */

let server: TestServer;
const P = 'FLD';

beforeAll(async () => {
  server = await startTestServer();
  await createProjectOverHttp(server, P, 'Field project');
  await userWithRole(server.orm, 'fld_dev', 'Developer', P);
});
afterAll(() => server.close());

const xmlBody = (body: string) => ({ body, contentType: 'application/xml', accept: XML_ACCEPT });

describe('field prototypes', () => {
  it('lists the prototypes (the first call of every importer) in XML and JSON', async () => {
    const xml = await root(server, 'GET', '/rest/admin/customfield/field');
    expectXml(xml, 200);
    const names = xmlElements(xml.text, 'customFieldPrototype').map((e) => e.name);
    expect(names).toEqual(
      expect.arrayContaining(['Priority', 'Type', 'State', 'Assignee', 'Subsystem', 'Fix versions']),
    );
    const json = expectJson(
      await root(server, 'GET', '/rest/admin/customfield/field', { accept: JSON_ACCEPT }),
      200,
    );
    expect(json[0]).toEqual({
      name: 'Priority',
      url: expect.stringMatching(/\/rest\/admin\/customfield\/field\/Priority$/),
    });
  });

  it('answers one prototype with its type and defaultParam children', async () => {
    const res = await root(server, 'GET', '/rest/admin/customfield/field/Fix%20versions', {
      accept: XML_ACCEPT,
    });
    expectXml(res, 200);
    expect(xmlElements(res.text, 'customFieldPrototype')[0]).toEqual({
      name: 'Fix versions',
      type: 'version[*]',
      isPrivate: 'false',
      visibleByDefault: 'true',
      autoAttached: 'true',
    });
    expect(xmlElements(res.text, 'defaultParam')).toContainEqual({
      name: 'defaultBundle',
      value: 'Versions',
    });
  });

  it('creates a prototype from query parameters: 201 with Location, then 409 for the same name', async () => {
    const path = `/rest/admin/customfield/field/Severity${q({
      type: 'enum[1]',
      isPrivate: 'false',
      defaultVisibility: 'true',
      autoAttached: 'false',
      attachBundlePolicy: '0',
    })}`;
    const res = await root(server, 'PUT', path);
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('location')).toMatch(/\/rest\/admin\/customfield\/field\/Severity$/);
    expectXmlError(await root(server, 'PUT', path), 409, 'Custom field [ Severity ] already exists.');
  });

  it('refuses an unknown type with 400 naming the field, storing nothing', async () => {
    const before = await fork(server.orm).count(CustomField, {});
    const res = await root(server, 'PUT', `/rest/admin/customfield/field/Odd${q({ type: 'enum[2]' })}`, {
      accept: JSON_ACCEPT,
    });
    const body = expectJsonError(res, 400, 'VALIDATION_FAILED', /^type: /);
    expect(body.issues[0].field).toBe('type');
    expect(await fork(server.orm).count(CustomField, {})).toBe(before);
  });

  it('needs the administrator grant to create, and a login to read', async () => {
    const res = await server.request('PUT', `/rest/admin/customfield/field/Mine${q({ type: 'string' })}`, {
      user: 'fld_dev',
    });
    expect(res.status).toBe(403);
    expect((await server.request('GET', '/rest/admin/customfield/field')).status).toBe(401);
  });
});

describe('bundles', () => {
  it('creates an enum bundle by PUT of its XML, reads it back as <enumeration>/<value>', async () => {
    const body =
      '<enumeration name="Severities"><value colorIndex="3" description="stops everything">Blocker</value>' +
      '<value>Major</value><value>Minor</value></enumeration>';
    const res = await root(server, 'PUT', '/rest/admin/customfield/bundle', xmlBody(body));
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('location')).toMatch(/\/rest\/admin\/customfield\/bundle\/Severities$/);
    expectXmlError(
      await root(server, 'PUT', '/rest/admin/customfield/bundle', xmlBody(body)),
      409,
      'Bundle [ Severities ] already exists.',
    );
    const got = await root(server, 'GET', '/rest/admin/customfield/bundle/Severities', {
      accept: XML_ACCEPT,
    });
    expectXml(got, 200);
    expect(got.text).toMatch(/<enumeration name="Severities"><value [^>]*>Blocker<\/value>/);
    expect(xmlElements(got.text, 'value')[0]).toEqual({ colorIndex: '3', description: 'stops everything' });
    const json = expectJson(
      await root(server, 'GET', '/rest/admin/customfield/bundle/Severities', { accept: JSON_ACCEPT }),
      200,
    );
    expect(json.values.map((v: { name: string }) => v.name)).toEqual(['Blocker', 'Major', 'Minor']);
  });

  it('adds values with their attributes by PUT …/{type}/{bundle}/{value}?attributes, 409 for a repeat', async () => {
    await root(
      server,
      'PUT',
      '/rest/admin/customfield/versionBundle',
      xmlBody('<versions name="FLD versions"/>'),
    );
    const add = await root(
      server,
      'PUT',
      `/rest/admin/customfield/versionBundle/FLD%20versions/2.0${q({ released: 'true', archived: 'false', releaseDate: 1700000000000, description: 'big' })}`,
    );
    expect(add.status, add.text).toBe(201);
    expect(
      (await root(server, 'PUT', '/rest/admin/customfield/versionBundle/FLD%20versions/2.0')).status,
    ).toBe(409);
    const got = await root(server, 'GET', '/rest/admin/customfield/versionBundle/FLD%20versions', {
      accept: XML_ACCEPT,
    });
    expect(got.text).toMatch(/<versions name="FLD versions"><version [^>]*>2\.0<\/version><\/versions>$/);
    expect(xmlElements(got.text, 'version')[0]).toMatchObject({
      released: 'true',
      archived: 'false',
      releaseDate: '1700000000000',
      description: 'big',
    });
  });

  it('writes state, build, owned-field and user bundles with the original element names', async () => {
    const cases: [string, string, RegExp][] = [
      [
        'stateBundle',
        '<stateBundle name="Flow"><state isResolved="false">New</state><state isResolved="true">Done</state></stateBundle>',
        /<stateBundle name="Flow"><state [^>]*isResolved="false"[^>]*>New<\/state><state [^>]*isResolved="true"[^>]*>Done<\/state><\/stateBundle>$/,
      ],
      [
        'buildBundle',
        '<buildBundle name="Builds"><build assembleDate="1600000000000">101</build></buildBundle>',
        /<buildBundle name="Builds"><build assembleDate="1600000000000">101<\/build><\/buildBundle>$/,
      ],
      [
        'ownedFieldBundle',
        '<ownedFieldBundle name="Parts"><ownedField owner="root" description="ui">UI</ownedField></ownedFieldBundle>',
        /<ownedFieldBundle name="Parts"><ownedField [^>]*owner="root"[^>]*>UI<\/ownedField><\/ownedFieldBundle>$/,
      ],
      [
        'userBundle',
        '<userBundle name="Crew"><user login="root"/></userBundle>',
        /<userBundle name="Crew"><user login="root" url="[^"]+\/rest\/admin\/user\/root"\/><\/userBundle>$/,
      ],
    ];
    for (const [type, body, shape] of cases) {
      const res = await root(server, 'PUT', `/rest/admin/customfield/${type}`, xmlBody(body));
      expect(res.status, `${type}: ${res.text}`).toBe(201);
      const name = /name="([^"]+)"/.exec(body)?.[1] ?? '';
      const got = await root(server, 'GET', `/rest/admin/customfield/${type}/${name}`, {
        accept: XML_ACCEPT,
      });
      expectXml(got, 200);
      expect(got.text, type).toMatch(shape);
    }
    const add = await root(server, 'PUT', '/rest/admin/customfield/userBundle/Crew/individual/fld_dev');
    expect(add.status, add.text).toBe(201);
    const crew = await root(server, 'GET', '/rest/admin/customfield/userBundle/Crew', { accept: XML_ACCEPT });
    expect(xmlElements(crew.text, 'user').map((u) => u.login)).toEqual(['fld_dev', 'root']);
  });

  it('creates a user bundle with a userGroup child; members of the group are not listed as users', async () => {
    expect((await root(server, 'PUT', '/rest/admin/group/Squad%20team')).status).toBe(201);
    const body = '<userBundle name="Squad"><user login="root"/><userGroup name="Squad team"/></userBundle>';
    const res = await root(server, 'PUT', '/rest/admin/customfield/userBundle', xmlBody(body));
    expect(res.status, res.text).toBe(201);
    const got = await root(server, 'GET', '/rest/admin/customfield/userBundle/Squad', { accept: XML_ACCEPT });
    expectXml(got, 200);
    expect(got.text).toMatch(
      /<userBundle name="Squad"><user login="root" url="[^"]+"\/><userGroup name="Squad team" url="[^"]+\/rest\/admin\/group\/Squad%20team"\/><\/userBundle>$/,
    );
    const unknown = await root(
      server,
      'PUT',
      '/rest/admin/customfield/userBundle',
      xmlBody('<userBundle name="Ghosts"><userGroup name="Nobody"/></userBundle>'),
    );
    expectXmlError(unknown, 400, /^userGroup: /);
  });

  it('writes owner="<no user>" for an owned-field value without an owner, and reads it back as none', async () => {
    // The python library's OwnedField maps `<no user>` to no owner; youtrack2youtrack asks the source
    // for every other owner by login (an empty one would be GET /rest/admin/user/).
    const made = await root(server, 'PUT', '/rest/admin/customfield/ownedFieldBundle/Parts/Loose');
    expect(made.status, made.text).toBe(201);
    const echoed = await root(
      server,
      'PUT',
      '/rest/admin/customfield/ownedFieldBundle',
      xmlBody(
        '<ownedFieldBundle name="Parts copy"><ownedField owner="&lt;no user&gt;">Loose</ownedField></ownedFieldBundle>',
      ),
    );
    expect(echoed.status, echoed.text).toBe(201);
    const copy = await root(server, 'GET', '/rest/admin/customfield/ownedFieldBundle/Parts%20copy', {
      accept: XML_ACCEPT,
    });
    expect(copy.text).toMatch(
      /<ownedFieldBundle name="Parts copy"><ownedField [^>]*owner="&lt;no user&gt;"[^>]*>Loose<\/ownedField><\/ownedFieldBundle>$/,
    );
    const owned = xmlElements(
      (await root(server, 'GET', '/rest/admin/customfield/ownedFieldBundle/Parts', { accept: XML_ACCEPT }))
        .text,
      'ownedField',
    );
    expect(owned.map((v) => v.owner)).toEqual(['root', '<no user>']);
  });

  it('lists bundles of a type with the original root and item names', async () => {
    // The original's pages "GET Enumerations" (`<enumFieldBundleRefs><enumFieldBundle name url/>`) and
    // "Get All State Bundles" (`<stateBundleRefs><stateBundle name url/>`); the python library's
    // getAllBundles reads `enumFieldBundle`, `userFieldBundle`, else the type's own path name.
    const expected: [string, string, string][] = [
      ['bundle', 'enumFieldBundle', 'Severities'],
      ['stateBundle', 'stateBundle', 'Flow'],
      ['versionBundle', 'versionBundle', 'FLD versions'],
      ['buildBundle', 'buildBundle', 'Builds'],
      ['ownedFieldBundle', 'ownedFieldBundle', 'Parts'],
      ['userBundle', 'userFieldBundle', 'Crew'],
    ];
    for (const [type, item, name] of expected) {
      const list = await root(server, 'GET', `/rest/admin/customfield/${type}`, { accept: XML_ACCEPT });
      expectXml(list, 200);
      expect(list.text, type).toMatch(new RegExp(`<${item}Refs><${item} name=`));
      expect(list.text, type).toMatch(new RegExp(`</${item}Refs>$`));
      const items = xmlElements(list.text, item);
      expect(
        items.map((b) => b.name),
        type,
      ).toContain(name);
      expect(items.find((b) => b.name === name)?.url).toMatch(
        new RegExp(`/rest/admin/customfield/${type}/${encodeURIComponent(name)}$`),
      );
    }
    const json = expectJson(
      await root(server, 'GET', '/rest/admin/customfield/stateBundle', { accept: JSON_ACCEPT }),
      200,
    );
    expect(json).toContainEqual({
      name: 'States',
      url: expect.stringMatching(/\/rest\/admin\/customfield\/stateBundle\/States$/),
    });
  });

  it('refuses a DOCTYPE, an unknown bundle type and a bad attribute with 400, storing nothing', async () => {
    const before = await fork(server.orm).count(FieldValue, {});
    const doctype = await root(
      server,
      'PUT',
      '/rest/admin/customfield/bundle',
      xmlBody('<!DOCTYPE x [<!ENTITY e "boom">]><enumeration name="Evil"><value>&e;</value></enumeration>'),
    );
    expectXmlError(doctype, 400, /DOCTYPE/);
    const unknown = await root(server, 'GET', '/rest/admin/customfield/colorBundle', { accept: JSON_ACCEPT });
    expect(expectJsonError(unknown, 400, 'VALIDATION_FAILED', /bundleType/).issues[0].field).toBe(
      'bundleType',
    );
    const badColor = await root(
      server,
      'PUT',
      '/rest/admin/customfield/bundle',
      xmlBody('<enumeration name="Colors"><value colorIndex="red">A</value></enumeration>'),
    );
    expectXmlError(badColor, 400, /colorIndex/);
    expect(await fork(server.orm).count(FieldValue, {})).toBe(before);
    expect((await root(server, 'GET', '/rest/admin/customfield/bundle/Colors')).status).toBe(404);
  });
});

describe('project fields', () => {
  it('attaches a prototype with a bundle; lists and reads it as projectCustomField', async () => {
    const attach = await root(
      server,
      'PUT',
      `/rest/admin/project/${P}/customfield/Severity${q({ bundle: 'Severities', emptyFieldText: 'No severity' })}`,
    );
    expect(attach.status, attach.text).toBe(201);
    expect(attach.headers.get('location')).toMatch(/\/rest\/admin\/project\/FLD\/customfield\/Severity$/);
    expect((await root(server, 'PUT', `/rest/admin/project/${P}/customfield/Severity`)).status).toBe(409);

    const list = await root(server, 'GET', `/rest/admin/project/${P}/customfield`, { accept: XML_ACCEPT });
    expectXml(list, 200);
    expect(list.text).toMatch(/^<\?xml[^>]*\?><projectCustomFieldRefs><projectCustomField /);
    expect(xmlElements(list.text, 'projectCustomField').map((f) => f.name)).toContain('Severity');
    expect(xmlElements(list.text, 'projectCustomField')[0]?.url).toMatch(
      /\/rest\/admin\/project\/FLD\/customfield\//,
    );

    const one = await root(server, 'GET', `/rest/admin/project/${P}/customfield/Severity`, {
      accept: XML_ACCEPT,
    });
    expectXml(one, 200);
    expect(xmlElements(one.text, 'projectCustomField')[0]).toMatchObject({
      name: 'Severity',
      type: 'enum[1]',
      emptyText: 'No severity',
      canBeEmpty: 'true',
    });
    expect(xmlElements(one.text, 'param')).toEqual([{ name: 'bundle', value: 'Severities' }]);
  });

  it('updates a field by POST (default value) and refuses an unknown default with 400', async () => {
    const res = await root(
      server,
      'POST',
      `/rest/admin/project/${P}/customfield/Severity${q({ defaultValue: 'Minor' })}`,
      {
        accept: XML_ACCEPT,
      },
    );
    expectXml(res, 200);
    expect(res.text).toContain('<defaultValue>Minor</defaultValue>');
    const bad = await root(
      server,
      'POST',
      `/rest/admin/project/${P}/customfield/Severity${q({ defaultValue: 'Huge' })}`,
    );
    expectXmlError(bad, 400, /^defaultValue: /);
  });

  it('the new field works in commands, search and the issue (XML and JSON)', async () => {
    const created = await root(server, 'PUT', `/rest/issue${q({ project: P, summary: 'severe' })}`);
    expect(created.status).toBe(201);
    const id = created.headers.get('location')?.split('/').pop() ?? '';
    const exec = await root(server, 'POST', `/rest/issue/${id}/execute${q({ command: 'Severity Blocker' })}`);
    expect(exec.status, exec.text).toBe(200);
    const xml = await root(server, 'GET', `/rest/issue/${id}`, { accept: XML_ACCEPT });
    expect(xml.text).toMatch(/<field xsi:type="CustomFieldValue" name="Severity"><value>Blocker<\/value>/);
    const json = expectJson(await root(server, 'GET', `/rest/issue/${id}`, { accept: JSON_ACCEPT }), 200);
    const field = json.field.find((f: { name: string }) => f.name === 'Severity');
    expect([field.value].flat()).toEqual(['Blocker']);
    const found = expectJson(
      await root(server, 'GET', `/rest/issue${q({ filter: 'Severity: Blocker' })}`, { accept: JSON_ACCEPT }),
      200,
    );
    expect(JSON.stringify(found)).toContain(id);
    // The value is in use: removing it is refused, and the bundle with it.
    expectXmlError(
      await root(server, 'DELETE', '/rest/admin/customfield/bundle/Severities/Blocker'),
      409,
      /used by 1 issue/,
    );
    expect((await root(server, 'DELETE', '/rest/admin/customfield/bundle/Severities')).status).toBe(409);
    expect((await root(server, 'DELETE', '/rest/admin/customfield/field/Severity')).status).toBe(409);
  });

  it('detaches a field: the project lists it no more', async () => {
    expect((await root(server, 'DELETE', `/rest/admin/project/${P}/customfield/Severity`)).status).toBe(200);
    const list = await root(server, 'GET', `/rest/admin/project/${P}/customfield`, { accept: JSON_ACCEPT });
    expect(expectJson(list, 200).map((f: { name: string }) => f.name)).not.toContain('Severity');
    expect((await root(server, 'DELETE', '/rest/admin/customfield/bundle/Severities/Blocker')).status).toBe(
      200,
    );
  });

  it('answers no stack traces', () => expectNoStackTraces(server));
});
