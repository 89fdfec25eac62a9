import { userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectJson,
  expectNoStackTraces,
  expectXml,
  expectXmlError,
  JSON_ACCEPT,
  startTestServer,
  type TestServer,
  XML_ACCEPT,
  xmlElements,
} from '../harness.js';
import { createProjectOverHttp, q, root } from '../issue-fixtures.js';

/*
 * The project sub-resources of the original (issue 12 item 6), as the python client calls them:
 *   - `GET /rest/admin/project/{p}/subsystem` (children read with `name`, `isDefault`,
 *     `defaultAssignee`), `GET …/subsystem/{name}`, `PUT …/subsystem/{name}?isDefault&defaultAssignee`,
 *     `DELETE …/subsystem/{name}`;
 *   - `GET …/version?showReleased=true` (`version` elements with `name`), `GET …/version/{name}`
 *     (`version name description releaseDate isReleased isArchived`), `PUT …/version/{name}?description&isReleased&isArchived&releaseDate`;
 *   - `GET …/build` (`build name assembleDate`).
 * They are views of the project's Subsystem, Fix versions and build field bundles.
 */

let server: TestServer;
const P = 'SUB';

beforeAll(async () => {
  server = await startTestServer();
  await createProjectOverHttp(server, P, 'Sub-resources');
});
afterAll(() => server.close());

describe('subsystems', () => {
  it('creates subsystems by PUT with isDefault and defaultAssignee, lists and reads them', async () => {
    const made = await root(
      server,
      'PUT',
      `/rest/admin/project/${P}/subsystem/UI${q({ isDefault: 'True', defaultAssignee: 'root' })}`,
    );
    expect(made.status, made.text).toBe(201);
    expect(made.headers.get('location')).toMatch(/\/rest\/admin\/project\/SUB\/subsystem\/UI$/);
    expect(
      (
        await root(
          server,
          'PUT',
          `/rest/admin/project/${P}/subsystem/Core${q({ isDefault: 'False', defaultAssignee: '' })}`,
        )
      ).status,
    ).toBe(201);
    expect((await root(server, 'PUT', `/rest/admin/project/${P}/subsystem/ui`)).status).toBe(409);

    const list = await root(server, 'GET', `/rest/admin/project/${P}/subsystem`, { accept: XML_ACCEPT });
    expectXml(list, 200);
    expect(xmlElements(list.text, 'subsystem').map((s) => [s.name, s.isDefault, s.defaultAssignee])).toEqual([
      ['UI', 'true', 'root'],
      // The original's "no default assignee" (the python library's createSubsystem sends '' for it).
      ['Core', 'false', '<no user>'],
    ]);
    // Sent back as the original wrote it, it means no default assignee.
    const back = await root(
      server,
      'PUT',
      `/rest/admin/project/${P}/subsystem/Docs${q({ isDefault: 'false', defaultAssignee: '<no user>' })}`,
    );
    expect(back.status, back.text).toBe(201);
    const docs = await root(server, 'GET', `/rest/admin/project/${P}/subsystem/Docs`, { accept: XML_ACCEPT });
    expect(xmlElements(docs.text, 'subsystem')[0]?.defaultAssignee).toBe('<no user>');
    expect((await root(server, 'DELETE', `/rest/admin/project/${P}/subsystem/Docs`)).status).toBe(200);
    const one = await root(server, 'GET', `/rest/admin/project/${P}/subsystem/UI`, { accept: XML_ACCEPT });
    expectXml(one, 200);
    expect(xmlElements(one.text, 'subsystem')[0]).toMatchObject({
      name: 'UI',
      isDefault: 'true',
      defaultAssignee: 'root',
    });
    // The project field's bundle is what the sub-resource shows: the subsystem is a Subsystem value.
    const created = await root(
      server,
      'PUT',
      `/rest/issue${q({ project: P, summary: 'default subsystem' })}`,
    );
    const id = created.headers.get('location')?.split('/').pop() ?? '';
    const issue = await root(server, 'GET', `/rest/issue/${id}`, { accept: XML_ACCEPT });
    expect(issue.text).toMatch(/<field xsi:type="CustomFieldValue" name="Subsystem"><value>UI<\/value>/);
  });

  it('refuses to delete a subsystem issues use, deletes an unused one', async () => {
    expectXmlError(
      await root(server, 'DELETE', `/rest/admin/project/${P}/subsystem/UI`),
      409,
      /used by 1 issue/,
    );
    expect((await root(server, 'DELETE', `/rest/admin/project/${P}/subsystem/Core`)).status).toBe(200);
    expect((await root(server, 'GET', `/rest/admin/project/${P}/subsystem/Core`)).status).toBe(404);
  });
});

describe('versions and builds', () => {
  it('creates versions with the python client parameters and reads them back', async () => {
    const made = await root(
      server,
      'PUT',
      `/rest/admin/project/${P}/version/1.0${q({ description: 'first', isReleased: 'True', isArchived: 'False', releaseDate: 1700000000000 })}`,
    );
    expect(made.status, made.text).toBe(201);
    expect(
      (
        await root(
          server,
          'PUT',
          `/rest/admin/project/${P}/version/2.0${q({ description: '', isReleased: 'False', isArchived: 'False' })}`,
        )
      ).status,
    ).toBe(201);
    const list = await root(server, 'GET', `/rest/admin/project/${P}/version${q({ showReleased: 'true' })}`, {
      accept: XML_ACCEPT,
    });
    expectXml(list, 200);
    expect(xmlElements(list.text, 'version').map((v) => v.name)).toEqual(['1.0', '2.0']);
    const unreleased = await root(
      server,
      'GET',
      `/rest/admin/project/${P}/version${q({ showReleased: 'false' })}`,
      { accept: JSON_ACCEPT },
    );
    expect(expectJson(unreleased, 200).map((v: { name: string }) => v.name)).toEqual(['2.0']);
    const one = await root(server, 'GET', `/rest/admin/project/${P}/version/1.0`, { accept: XML_ACCEPT });
    expect(xmlElements(one.text, 'version')[0]).toMatchObject({
      name: '1.0',
      description: 'first',
      releaseDate: '1700000000000',
      isReleased: 'true',
      isArchived: 'false',
    });
    const archived = await root(
      server,
      'POST',
      `/rest/admin/project/${P}/version/2.0${q({ isArchived: 'true' })}`,
      { accept: XML_ACCEPT },
    );
    expectXml(archived, 200);
    expect(xmlElements(archived.text, 'version')[0]).toMatchObject({ name: '2.0', isArchived: 'true' });
    // A version is a Fix versions value: commands take it.
    const created = await root(server, 'PUT', `/rest/issue${q({ project: P, summary: 'versioned' })}`);
    const id = created.headers.get('location')?.split('/').pop() ?? '';
    expect(
      (await root(server, 'POST', `/rest/issue/${id}/execute${q({ command: 'add Fix versions 1.0' })}`))
        .status,
    ).toBe(200);
  });

  it('refuses a release date no database can hold with a 400 naming it, and stores nothing', async () => {
    for (const releaseDate of [-8_640_000_000_000_000, 8_639_999_999_999_999]) {
      const res = await root(
        server,
        'PUT',
        `/rest/admin/project/${P}/version/far${q({ description: '', releaseDate })}`,
        { accept: JSON_ACCEPT },
      );
      expect(res.status, res.text).toBe(400);
      expect(res.json().value).toContain('releaseDate');
    }
    expect((await root(server, 'GET', `/rest/admin/project/${P}/version/far`)).status).toBe(404);
  });

  it('lists builds (none without a build field) and refuses a build where no field holds it', async () => {
    const list = await root(server, 'GET', `/rest/admin/project/${P}/build`, { accept: XML_ACCEPT });
    expectXml(list, 200);
    expect(list.text).toMatch(/<builds\/>$|<builds><\/builds>$/);
    expectXmlError(await root(server, 'PUT', `/rest/admin/project/${P}/build/101`), 400, /^build: /);
    await root(server, 'PUT', `/rest/admin/customfield/field/Fixed%20in%20build${q({ type: 'build[1]' })}`);
    expect(
      (await root(server, 'PUT', `/rest/admin/project/${P}/customfield/Fixed%20in%20build`)).status,
    ).toBe(201);
    expect(
      (await root(server, 'PUT', `/rest/admin/project/${P}/build/101${q({ assembleDate: 1600000000000 })}`))
        .status,
    ).toBe(201);
    const builds = await root(server, 'GET', `/rest/admin/project/${P}/build`, { accept: XML_ACCEPT });
    expect(xmlElements(builds.text, 'build').map((b) => [b.name, b.assembleDate])).toEqual([
      ['101', '1600000000000'],
    ]);
  });

  it('lists, adds and removes assignees (the users of the Assignee bundle)', async () => {
    const list = await root(server, 'GET', `/rest/admin/project/${P}/assignee`, { accept: XML_ACCEPT });
    expectXml(list, 200);
    expect(list.text).toMatch(/<assigneeList><assignee login="root"/);
    expect(xmlElements(list.text, 'assignee')).toEqual([
      { login: 'root', fullName: 'root', isFromGroup: 'false' },
    ]);
    expect((await root(server, 'DELETE', `/rest/admin/project/${P}/assignee/root`)).status).toBe(200);
    const json = expectJson(
      await root(server, 'GET', `/rest/admin/project/${P}/assignee`, { accept: JSON_ACCEPT }),
      200,
    );
    expect(json).toEqual([]);
    expect((await root(server, 'PUT', `/rest/admin/project/${P}/assignee/root`)).status).toBe(201);
    expect((await root(server, 'PUT', `/rest/admin/project/${P}/assignee/ghost`)).status).toBe(404);
  });

  it('a group in the Assignee bundle: listed as an assignee group, its members assignable (isFromGroup)', async () => {
    await userWithRole(server.orm, 'sub_member');
    expect((await root(server, 'PUT', '/rest/admin/group/SubTeam')).status).toBe(201);
    expect((await root(server, 'POST', '/rest/admin/user/sub_member/group/SubTeam')).status).toBe(200);
    const add = await root(
      server,
      'PUT',
      '/rest/admin/customfield/userBundle/SUB%3A%20Assignee/group/SubTeam',
    );
    expect(add.status, add.text).toBe(201);
    const bundle = await root(server, 'GET', '/rest/admin/customfield/userBundle/SUB%3A%20Assignee', {
      accept: XML_ACCEPT,
    });
    expect(xmlElements(bundle.text, 'userGroup')).toEqual([
      { name: 'SubTeam', url: expect.stringMatching(/\/rest\/admin\/group\/SubTeam$/) },
    ]);
    const groups = await root(server, 'GET', `/rest/admin/project/${P}/assignee/group`, {
      accept: XML_ACCEPT,
    });
    expectXml(groups, 200);
    expect(xmlElements(groups.text, 'group').map((g) => g.name)).toEqual(['SubTeam']);
    const assignees = await root(server, 'GET', `/rest/admin/project/${P}/assignee`, { accept: XML_ACCEPT });
    expect(xmlElements(assignees.text, 'assignee')).toContainEqual({
      login: 'sub_member',
      fullName: 'sub_member',
      isFromGroup: 'true',
    });
    const created = await root(server, 'PUT', `/rest/issue${q({ project: P, summary: 'for the team' })}`);
    const id = created.headers.get('location')?.split('/').pop() ?? '';
    const exec = await root(
      server,
      'POST',
      `/rest/issue/${id}/execute${q({ command: 'Assignee sub_member' })}`,
    );
    expect(exec.status, exec.text).toBe(200);
    expect(
      (await root(server, 'DELETE', '/rest/admin/customfield/userBundle/SUB%3A%20Assignee/group/SubTeam'))
        .status,
    ).toBe(200);
    expect(
      (await root(server, 'DELETE', '/rest/admin/customfield/userBundle/SUB%3A%20Assignee/group/SubTeam'))
        .status,
    ).toBe(404);
  });

  it('answers no stack traces', () => expectNoStackTraces(server));
});
