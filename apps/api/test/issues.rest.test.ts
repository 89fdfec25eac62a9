import { addFieldValue, addProjectAssignee, grantRole } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actorFor,
  basic,
  decodeXml,
  expectJson,
  expectJsonError,
  expectNoStackTraces,
  expectXml,
  expectXmlError,
  fork,
  JSON_ACCEPT,
  ROOT_PASSWORD,
  rawRequest,
  startTestServer,
  type TestServer,
  XML_ACCEPT,
  XML_DECLARATION,
  xmlElements,
} from './harness.js';
import {
  createIssue,
  createProjectOverHttp,
  fieldOf,
  getIssueJson,
  mustExecute,
  PRJ,
  PRJ_START,
  q,
  root,
  SECRET,
  setUpWorld,
} from './issue-fixtures.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await setUpWorld(server);
});
afterAll(() => server.close());

/** `[name, values]` of every `<field xsi:type name>` of an XML issue, in document order. */
function xmlFields(xml: string): [string, string[]][] {
  return [...xml.matchAll(/<field xsi:type="[^"]*" name="([^"]*)">(.*?)<\/field>/g)].map((m) => [
    m[1] as string,
    [...(m[2] as string).matchAll(/<value(?: [^>]*)?>([^<]*)<\/value>/g)].map((v) => v[1] as string),
  ]);
}

const ids = (body: { id: string }[]) => body.map((i) => i.id);

describe('PUT /rest/issue creates an issue', () => {
  it('answers 201 with Location /rest/issue/PRJ-<startingNumber> and an empty XML body', async () => {
    const res = await root(server, 'PUT', `/rest/issue${q({ project: PRJ, summary: 'First issue' })}`);
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('location')).toBe(`${server.url}/rest/issue/${PRJ}-${PRJ_START}`);
    expect(res.text).toBe('');
  });

  it('numbers issues in sequence per project; a project with no startingNumber starts at 1', async () => {
    const a = await createIssue(server, 'numbered a');
    const b = await createIssue(server, 'numbered b');
    expect(Number(b.split('-')[1])).toBe(Number(a.split('-')[1]) + 1);
    await createProjectOverHttp(server, 'FRESH', 'Fresh project');
    expect(await createIssue(server, 'first in fresh', { project: 'FRESH' })).toBe('FRESH-1');
    expect(await createIssue(server, 'second in fresh', { project: 'fresh' })).toBe('FRESH-2');
  });

  it('answers JSON with the created issue when asked, and applies the default field values', async () => {
    const res = await root(
      server,
      'PUT',
      `/rest/issue${q({ project: PRJ, summary: '  Created as JSON  ', description: 'Some text' })}`,
      { accept: JSON_ACCEPT },
    );
    const body = expectJson(res, 201);
    expect(res.headers.get('location')).toBe(`${server.url}/rest/issue/${body.id}`);
    expect(body.id).toMatch(/^PRJ-\d+$/);
    expect(body.entityId).toMatch(/^74-\d+$/);
    expect(fieldOf(body, 'summary')).toBe('Created as JSON');
    expect(fieldOf(body, 'description')).toBe('Some text');
    expect(fieldOf(body, 'projectShortName')).toBe(PRJ);
    expect(fieldOf(body, 'reporterName')).toBe('root');
    expect(fieldOf(body, 'State')).toBe('Submitted');
    expect(fieldOf(body, 'Priority')).toBe('Normal');
    expect(fieldOf(body, 'Type')).toBe('Bug');
    expect(fieldOf(body, 'Assignee')).toBeUndefined();
    expect(fieldOf(body, 'resolved')).toBeUndefined();
    expect(await getIssueJson(server, body.id)).toEqual(body);
  });

  it('accepts the parameters as a form-encoded body', async () => {
    const res = await root(server, 'PUT', '/rest/issue', {
      body: 'project=PRJ&summary=From+a+form&description=line+one',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(res.status, res.text).toBe(201);
    const id = (res.headers.get('location') ?? '').split('/').pop() as string;
    const issue = await getIssueJson(server, id);
    expect(fieldOf(issue, 'summary')).toBe('From a form');
    expect(fieldOf(issue, 'description')).toBe('line one');
  });

  it('records the caller as the reporter', async () => {
    const id = await createIssue(server, 'reported by a developer', { user: 'u_dev' });
    const issue = await getIssueJson(server, id);
    expect(fieldOf(issue, 'reporterName')).toBe('u_dev');
  });
});

describe('GET /rest/issue/{id}', () => {
  let id: string;
  let other: string;
  beforeAll(async () => {
    id = await createIssue(server, 'Read <me> & "quote" me', { description: 'two\nlines\u0007\tend' });
    other = await createIssue(server, 'the other end');
    await mustExecute(
      server,
      id,
      `Priority Critical add Fix versions 1.0 add Fix versions 2.0 tag Reading depends on ${other}`,
    );
    const res = await root(
      server,
      'POST',
      `/rest/issue/${id}/execute${q({ command: 'comment', comment: 'A <comment>' })}`,
    );
    expect(res.status, res.text).toBe(200);
  });

  it('answers XML by default: <issue id entityId> with <field name><value> children', async () => {
    const res = await root(server, 'GET', `/rest/issue/${id}`);
    expectXml(res, 200);
    const [issue] = xmlElements(res.text, 'issue');
    expect(issue?.id).toBe(id);
    expect(issue?.entityId).toMatch(/^74-\d+$/);
    const fields = new Map(xmlFields(res.text));
    expect(fields.get('projectShortName')).toEqual([PRJ]);
    expect(fields.get('numberInProject')).toEqual([id.split('-')[1]]);
    expect(fields.get('summary')).toEqual(['Read &lt;me&gt; &amp; "quote" me']);
    // Line breaks and tabs as character references (one-line body); a control character XML forbids is dropped.
    expect(fields.get('description')).toEqual(['two&#10;lines&#9;end']);
    expect(decodeXml(fields.get('description')?.[0] ?? '')).toBe('two\nlines\tend');
    expect(fields.get('Priority')).toEqual(['Critical']);
    expect(fields.get('State')).toEqual(['Submitted']);
    expect(fields.get('Fix versions')).toEqual(['1.0', '2.0']);
    expect(fields.get('commentsCount')).toEqual(['1']);
    expect(xmlElements(res.text, 'comment')).toEqual([
      expect.objectContaining({ author: 'root', authorFullName: 'root', text: 'A <comment>' }),
    ]);
    expect(res.text).toContain('<tag cssClass="c0">Reading</tag>');
    // Links are the field `links`: values with `type` and `role`, the other issue's id as text.
    expect(res.text).toContain(
      `<field xsi:type="LinkField" name="links"><value type="Depend" role="depends on">${other}</value></field>`,
    );
  });

  it('answers the same issue as JSON: {id, entityId, field[], comment[], tag[], link[]}', async () => {
    const xml = await root(server, 'GET', `/rest/issue/${id}`);
    const res = await root(server, 'GET', `/rest/issue/${id}`, { accept: JSON_ACCEPT });
    const body = expectJson(res, 200);
    expect(Object.keys(body).sort()).toEqual(['comment', 'entityId', 'field', 'id', 'link', 'tag']);
    expect(body.id).toBe(id);
    expect(body.entityId).toBe(xmlElements(xml.text, 'issue')[0]?.entityId);
    for (const f of body.field) {
      // Built-ins carry a string; custom fields an array, bundle values with their ids and colour.
      const keys = typeof f.value === 'string' ? ['name', 'value'] : ['color', 'name', 'value', 'valueId'];
      expect(Object.keys(f).sort()).toEqual(f.name === 'links' ? ['name', 'value'] : keys);
    }
    expect(fieldOf(body, 'summary')).toBe('Read <me> & "quote" me');
    expect(fieldOf(body, 'description')).toBe('two\nlines\u0007\tend');
    expect(fieldOf(body, 'Fix versions')).toEqual(['1.0', '2.0']);
    expect(body.comment).toEqual([
      {
        id: expect.any(String),
        author: 'root',
        authorFullName: 'root',
        issueId: id,
        deleted: false,
        text: 'A <comment>',
        shownForIssueAuthor: false,
        created: expect.any(Number),
        updated: null,
      },
    ]);
    expect(body.tag).toEqual([{ value: 'Reading', cssClass: 'c0' }]);
    expect(body.link).toEqual([{ typeName: 'Depend', role: 'depends on', source: id, target: other }]);
    // Same field names in the same order as the XML.
    expect(body.field.map((f: { name: string }) => f.name)).toEqual(xmlFields(xml.text).map(([n]) => n));
  });

  it('answers XML for Accept: application/xml and with no Accept header at all', async () => {
    const xml = await root(server, 'GET', `/rest/issue/${id}`, { accept: XML_ACCEPT });
    expectXml(xml, 200);
    const raw = await rawRequest(server.url, 'GET', `/rest/issue/${id}`, {
      authorization: basic('root', ROOT_PASSWORD),
    });
    expect(raw.status).toBe(200);
    expect(raw.headers['content-type']).toBe('application/xml;charset=UTF-8');
    expect(raw.text.startsWith(`${XML_DECLARATION}<issue id="${id}"`)).toBe(true);
  });

  it('reads ids case-insensitively and answers with the canonical id', async () => {
    for (const spelling of [id.toLowerCase(), `Prj-${id.split('-')[1]}`, ` ${id} `]) {
      const body = expectJson(
        await root(server, 'GET', `/rest/issue/${encodeURIComponent(spelling)}`, { accept: JSON_ACCEPT }),
        200,
      );
      expect(body.id).toBe(id);
    }
  });

  it('answers 404 for an unknown issue in both formats', async () => {
    expectXmlError(await root(server, 'GET', '/rest/issue/PRJ-99999'), 404, 'Issue [ PRJ-99999 ] not found.');
    expectJsonError(
      await root(server, 'GET', '/rest/issue/NOPE-1', { accept: JSON_ACCEPT }),
      404,
      'NOT_FOUND',
      'Issue [ NOPE-1 ] not found.',
    );
  });

  it('shows the inward name on the other end of a directed link', async () => {
    const body = await getIssueJson(server, other);
    expect(body.link).toEqual([{ typeName: 'Depend', role: 'is required for', source: id, target: other }]);
  });

  it('shows another user only their own and shared tags', async () => {
    const body = await getIssueJson(server, id, 'u_dev');
    expect(body.tag).toEqual([]);
  });
});

describe('GET /rest/issue?filter= searches', () => {
  const S = 'SRCH';
  // Created in this order, so newest first is [d, c, b, a].
  let a: string;
  let b: string;
  let c: string;
  let d: string;
  const search = async (filter: string | undefined, user = 'root', extra: Record<string, number> = {}) => {
    const res = await server.request('GET', `/rest/issue${q({ filter, ...extra })}`, {
      user,
      accept: JSON_ACCEPT,
    });
    return ids(expectJson(res, 200).issue);
  };

  beforeAll(async () => {
    await createProjectOverHttp(server, S, 'Search Project');
    const rootActor = await actorFor(server.orm, 'root');
    await grantRole(fork(server.orm), rootActor, 'u_dev', 'Developer', S);
    await addProjectAssignee(fork(server.orm), rootActor, S, 'u_dev');
    await addFieldValue(fork(server.orm), rootActor, S, 'Fix versions', { name: '1.0' });
    a = await createIssue(server, 'Alpha login crash', { project: S, description: 'a stack trace' });
    b = await createIssue(server, 'Beta export', { project: S });
    c = await createIssue(server, 'Gamma import', { project: S });
    d = await createIssue(server, 'Delta login form', { project: S });
    await mustExecute(server, a, 'Fixed');
    await mustExecute(server, b, 'State In Progress for me tag {needs review}', 'u_dev');
    await mustExecute(server, c, 'State Open add Fix versions 1.0');
    await mustExecute(server, d, 'State {To be discussed}');
  });

  it('project: X gives the project’s issues, newest first', async () => {
    expect(await search(`project: ${S}`)).toEqual([d, c, b, a]);
    expect(await search('project: {Search Project}')).toEqual([d, c, b, a]);
  });

  it('State: Fixed, and value lists ORed', async () => {
    expect(await search(`project: ${S} State: Fixed`)).toEqual([a]);
    expect(await search(`project: ${S} state: fixed, open`)).toEqual([c, a]);
    expect(await search(`project: ${S} Fix versions: 1.0`)).toEqual([c]);
  });

  it('#Unresolved and #Resolved', async () => {
    expect(await search(`project: ${S} #Unresolved`)).toEqual([d, c, b]);
    expect(await search(`project: ${S} #Resolved`)).toEqual([a]);
    const all = await search('#Unresolved', 'root', { max: 500 });
    expect(all).not.toContain(a);
    expect(all).toEqual(expect.arrayContaining([b, c, d]));
  });

  it('for: me is the caller', async () => {
    expect(await search(`project: ${S} for: me`, 'u_dev')).toEqual([b]);
    expect(await search(`project: ${S} for: me`)).toEqual([]);
    expect(await search(`project: ${S} for: u_dev`)).toEqual([b]);
    expect(await search(`project: ${S} for: Unassigned`)).toEqual([d, c, a]);
  });

  it('tag: X and #{multi word} values', async () => {
    expect(await search('tag: {needs review}', 'u_dev')).toEqual([b]);
    expect(await search('#{needs review}', 'u_dev')).toEqual([b]);
    expect(await search(`project: ${S} #{To be discussed}`)).toEqual([d]);
    expect(await search(`project: ${S} #{In Progress}`)).toEqual([b]);
  });

  it('a readable id, case-insensitively', async () => {
    expect(await search(b)).toEqual([b]);
    expect(await search(b.toLowerCase())).toEqual([b]);
  });

  it('free text in summary or description, words and phrases', async () => {
    expect(await search(`project: ${S} login`)).toEqual([d, a]);
    expect(await search(`project: ${S} trace`)).toEqual([a]);
    expect(await search(`project: ${S} "login form"`)).toEqual([d]);
    expect(await search(`project: ${S} {login crash}`)).toEqual([a]);
    expect(await search(`project: ${S} nothing-matches-this`)).toEqual([]);
  });

  it('max and after page through the results', async () => {
    const filter = `project: ${S}`;
    expect(await search(filter, 'root', { max: 2 })).toEqual([d, c]);
    expect(await search(filter, 'root', { max: 2, after: 2 })).toEqual([b, a]);
    expect(await search(filter, 'root', { max: 3, after: 3 })).toEqual([a]);
    expect(await search(filter, 'root', { after: 4 })).toEqual([]);
  });

  it('defaults to 10 results with no filter', async () => {
    const all = await search(undefined);
    expect(all).toHaveLength(10);
    expect(all[0]).toBe(d);
  });

  it('answers XML by default: <issueCompacts> of <issue> in the same order', async () => {
    const res = await root(server, 'GET', `/rest/issue${q({ filter: `project: ${S}` })}`);
    expectXml(res, 200);
    expect(
      res.text.startsWith(
        `${XML_DECLARATION}<issueCompacts xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><issue id="${d}"`,
      ),
    ).toBe(true);
    expect(xmlElements(res.text, 'issue').map((i) => i.id)).toEqual([d, c, b, a]);
  });

  it('only returns issues the caller may read', async () => {
    const secret = await createIssue(server, 'hidden login issue', { project: SECRET });
    // u_dev reads PRJ and SRCH, not SECRET.
    const dev = await search('login', 'u_dev', { max: 500 });
    expect(dev).toEqual(expect.arrayContaining([d, a]));
    expect(dev).not.toContain(secret);
    expect(await search(secret, 'u_dev')).toEqual([]);
    // u_other reads only SECRET.
    expect(await search('login', 'u_other', { max: 500 })).toEqual([secret]);
    expect(await search(undefined, 'u_other', { max: 500 })).toEqual(
      expect.not.arrayContaining([a, b, c, d]),
    );
    // No roles at all: nothing.
    expect(await search(undefined, 'u_none')).toEqual([]);
    expect(await search('login', 'u_obs', { max: 500 })).not.toContain(a);
  });

  it('refuses a hidden project exactly like an unknown one', async () => {
    const hidden = expectJsonError(
      await server.request('GET', `/rest/issue${q({ filter: `project: ${SECRET}` })}`, {
        user: 'u_dev',
        accept: JSON_ACCEPT,
      }),
      400,
      'VALIDATION_FAILED',
      `filter: Unknown project [ ${SECRET} ] at position 9`,
    );
    const unknown = expectJsonError(
      await server.request('GET', `/rest/issue${q({ filter: 'project: NOPE' })}`, {
        user: 'u_dev',
        accept: JSON_ACCEPT,
      }),
      400,
      'VALIDATION_FAILED',
      'filter: Unknown project [ NOPE ] at position 9',
    );
    expect(hidden.issues).toEqual([{ field: 'filter', message: hidden.value.replace('filter: ', '') }]);
    expect(unknown.issues?.[0]?.field).toBe('filter');
  });

  it('refuses another user’s private tag like an unknown one', async () => {
    expectXmlError(
      await root(server, 'GET', `/rest/issue${q({ filter: 'tag: {needs review}' })}`),
      400,
      'filter: Unknown tag [ needs review ] at position 5',
    );
  });
});

describe('hygiene', () => {
  it('no response of this suite carried a stack trace', () => expectNoStackTraces(server));
});
