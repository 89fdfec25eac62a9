import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectJson,
  expectNoStackTraces,
  expectXml,
  JSON_ACCEPT,
  startTestServer,
  type TestServer,
  xmlElements,
} from '../harness.js';
import {
  createIssue,
  mustExecute,
  NO_ROLES,
  ROLE_USERS,
  root,
  SECRET,
  setUpWorld,
} from '../issue-fixtures.js';

/*
 * `GET /rest/issue/{id}/link` (legacy-clients.md, "links"): `issueLinks` > `issueLink typeName
 * source target typeInward typeOutward`, in both directions; JSON an array of those objects.
 * Links to issues the caller cannot read are left out.
 */

let server: TestServer;
let a: string;
let b: string;
let hidden: string;

beforeAll(async () => {
  server = await startTestServer();
  await setUpWorld(server);
  a = await createIssue(server, 'Depends on B');
  b = await createIssue(server, 'Required by A');
  hidden = await createIssue(server, 'Secret', { project: SECRET });
  await mustExecute(server, a, `depends on ${b}`);
  await mustExecute(server, a, `relates to ${hidden}`);
});
afterAll(() => server.close());

const rootElement = (xml: string) => /^<\?xml[^>]*\?><([\w:-]+)/.exec(xml)?.[1];

describe('GET /rest/issue/{id}/link', () => {
  it('XML: issueLinks > issueLink with typeName, source, target, typeInward, typeOutward', async () => {
    const res = await root(server, 'GET', `/rest/issue/${a}/link`);
    expectXml(res, 200);
    expect(rootElement(res.text)).toBe('issueLinks');
    const links = xmlElements(res.text, 'issueLink');
    expect(links).toContainEqual({
      typeName: 'Depend',
      source: a,
      target: b,
      typeOutward: 'depends on',
      typeInward: 'is required for',
    });
    expect(links).toHaveLength(2);
  });

  it('the other end lists the same link, as stored (source → target); JSON is an array', async () => {
    const json = expectJson(await root(server, 'GET', `/rest/issue/${b}/link`, { accept: JSON_ACCEPT }), 200);
    expect(json).toEqual([
      { typeName: 'Depend', source: a, target: b, typeInward: 'is required for', typeOutward: 'depends on' },
    ]);
  });

  it('links to issues the caller cannot read are left out; a hidden issue is 404', async () => {
    const res = await server.request('GET', `/rest/issue/${a}/link`, { user: ROLE_USERS.Developer });
    expectXml(res, 200);
    expect(xmlElements(res.text, 'issueLink').map((l) => l.target)).toEqual([b]);
    expect((await server.request('GET', `/rest/issue/${a}/link`, { user: NO_ROLES })).status).toBe(404);
    expect((await root(server, 'GET', '/rest/issue/PRJ-99999/link')).status).toBe(404);
  });

  it('no answer carries a stack trace', () => expectNoStackTraces(server));
});
