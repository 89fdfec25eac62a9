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
