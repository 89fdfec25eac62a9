import {
  attachProjectCustomField,
  createBundle,
  createProject,
  createPrototype,
  detachProjectCustomField,
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

/**
 * Issue 37, item 16: the names of private fields and their bundles' values were readable by any
 * logged-in user through `/rest/admin/customfield/...` and `/rest/admin/project/{p}/customfield`,
 * while docs/visibility.md says such a field does not exist for them. One rule, the original's:
 * field settings are administration, read with UPDATE_PROJECT (globally or in some project for
 * the global catalogues, in the project for its fields). The legacy project sub-resources
 * (`/admin/project/{p}/version`...) stay READ_PROJECT, without a private field's values.
 */
describe('issue 37 item 16: field settings are read by who administers fields', () => {
  let server: TestServer;
  const get = (login: string, path: string) =>
    server.request('GET', path, { user: login, accept: JSON_ACCEPT });
  const SETTINGS = [
    '/rest/admin/customfield/field',
    '/rest/admin/customfield/field/Cost',
    '/rest/admin/customfield/bundle',
    '/rest/admin/customfield/bundle/Costs',
    '/rest/admin/project/PA/customfield',
    '/rest/admin/project/PA/customfield/Cost',
  ];

  beforeAll(async () => {
    server = await startTestServer();
    const root = await actorFor(server.orm, 'root');
    await createProject(fork(server.orm), root, { shortName: 'PA', name: 'Project A' });
    await createBundle(fork(server.orm), root, 'bundle', { name: 'Costs', values: [{ name: 'Steep' }] });
    await createPrototype(fork(server.orm), root, {
      name: 'Cost',
      type: 'enum[1]',
      defaultBundle: 'Costs',
      isPrivate: true,
    });
    await attachProjectCustomField(fork(server.orm), root, 'PA', 'Cost', {});
    // PB's only version field is private.
    await createProject(fork(server.orm), root, { shortName: 'PB', name: 'Project B' });
    await detachProjectCustomField(fork(server.orm), root, 'PB', 'Fix versions');
    await createBundle(fork(server.orm), root, 'versionBundle', {
      name: 'Hidden versions',
      values: [{ name: '9.9' }],
    });
    await createPrototype(fork(server.orm), root, {
      name: 'Secret version',
      type: 'version[1]',
      defaultBundle: 'Hidden versions',
      isPrivate: true,
    });
    await attachProjectCustomField(fork(server.orm), root, 'PB', 'Secret version', {});
    await userWithRole(server.orm, 'reporter', 'Reporter');
    await userWithRole(server.orm, 'developer', 'Developer', 'PA');
    await userWithRole(server.orm, 'padmin', 'Project Admin', 'PA');
  });
  afterAll(() => server.close());

  for (const path of SETTINGS) {
    it(`GET ${path}: 403 for a Reporter and a Developer, 200 for the project's admin and root`, async () => {
      for (const login of ['reporter', 'developer']) {
        const res = await get(login, path);
        expect(res.status, `${login}: ${res.text}`).toBe(403);
        expect(res.text).not.toMatch(/Cost|Steep/);
      }
      const xml = await server.request('GET', path, { user: 'reporter' });
      expect(xmlError(xml.text)).toMatch(
        /^You have no rights to (read custom field settings \(UPDATE_PROJECT\)|update project \[ PA \])\.$/,
      );
      for (const login of ['padmin', 'root']) expect((await get(login, path)).status, login).toBe(200);
    });
  }

  it('the project admin reads the private field’s settings by name', async () => {
    expect((await get('padmin', '/rest/admin/customfield/bundle/Costs')).text).toContain('Steep');
    expect((await get('padmin', '/rest/admin/project/PA/customfield')).text).toContain('Cost');
  });

  it('a project’s versions leave out a private version field for who may not read it', async () => {
    const values = async (login: string) =>
      (await get(login, '/rest/admin/project/PB/version')).json() as { name?: string; value?: string }[];
    expect(await values('reporter')).toEqual([]);
    expect(JSON.stringify(await values('root'))).toContain('9.9');
  });
});
