import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  basic,
  expectJson,
  expectNoStackTraces,
  fork,
  JSON_ACCEPT,
  ROOT_PASSWORD,
  rawRequest,
  startTestServer,
  type TestServer,
  XML_DECLARATION,
} from '../harness.js';
import { createIssue, mustExecute, PRJ, q, root, setUpWorld } from '../issue-fixtures.js';

/*
 * Wire fidelity (issue 12, item 7), from the original's documentation and what its public
 * clients parse (shared/reference/legacy-clients.md, legacy-rest-api.md §0, §8):
 *   - no Accept header or `*\/*` (curl, python requests) gives XML wherever the original answered
 *     XML; JSON only when a JSON type is preferred; command assist keeps JSON as its default;
 *   - `POST /rest/user/login` answers exactly `<login>ok</login>` whatever the Accept;
 *   - issue XML: `field` elements with `xsi:type` (SingleField, CustomFieldValue, MultiUserField,
 *     LinkField) and the xsi namespace declared; bundle values with `valueId` and `color` (bg, fg);
 *     `updaterName`/`updaterFullName`; links as the field `links` with `value type role`;
 *   - issue JSON: custom field `value` always an array, users `[{value, fullName}]`, tags
 *     `{value, cssClass}`;
 *   - search: JSON `{"issue":[…]}`, XML root `issueCompacts`; `max` beyond the limit is capped;
 *   - `GET /rest/user/tag`: `tags` > `search name untagOnResolve`.
 */

let server: TestServer;
let issueId: string;
let otherId: string;

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });
const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

beforeAll(async () => {
  server = await startTestServer();
  await setUpWorld(server);
  issueId = await createIssue(server, 'Wire issue');
  otherId = await createIssue(server, 'Linked issue');
  await mustExecute(
    server,
    issueId,
    `Priority Critical for u_dev add Fix versions 1.0 tag Wired depends on ${otherId}`,
  );
});
afterAll(() => server.close());

const JSON_TYPE = 'application/json;charset=UTF-8';
const XML_TYPE = 'application/xml;charset=UTF-8';

/** One route per family the original served in XML. */
const XML_FIRST_ROUTES = () => [
  '/rest/admin/project',
  `/rest/admin/project/${PRJ}`,
  '/rest/admin/role',
  '/rest/admin/permission',
  '/rest/admin/issueLinkType',
  '/rest/admin/user/root',
  '/rest/admin/systemuser',
  '/rest/admin/projectTrash',
  '/rest/admin/vcsIntegration',
  '/rest/admin/issueLinkType/Relates/count',
  '/rest/user/token',
  '/rest/project/all',
  `/rest/issue/${issueId}`,
  `/rest/issue${q({ filter: issueId })}`,
  `/rest/issue/byproject/${PRJ}`,
  `/rest/issue/${issueId}/execute/intellisense${q({ command: 'Pri' })}`,
  `/rest/issue/intellisense${q({ filter: 'Pri' })}`,
  '/rest/user/current',
  '/rest/user/tag',
  '/rest/user/search',
  '/rest/issuesFolder',
  '/rest/issuesFolder/current',
];

describe('content negotiation: XML-first, as the original', () => {
  const cases: [string, string | undefined, 'xml' | 'json'][] = [
    ['no Accept header', undefined, 'xml'],
    ['*/* (curl, python requests)', '*/*', 'xml'],
    ['a browser’s Accept', 'text/html,application/xhtml+xml,*/*;q=0.8', 'xml'],
    ['application/*', 'application/*', 'xml'],
    ['application/json', 'application/json', 'json'],
    ['JSON preferred by q-value', 'application/xml;q=0.5, application/json', 'json'],
    ['XML preferred by q-value', 'application/json;q=0.4, application/xml;q=0.9', 'xml'],
    ['JSON named before a wildcard', 'application/json, */*;q=0.1', 'json'],
    ['JSON refused (q=0)', 'application/json;q=0, */*', 'xml'],
  ];
  for (const [label, accept, format] of cases) {
    it(`${label} → ${format} on every XML-first route family`, async () => {
      for (const path of XML_FIRST_ROUTES()) {
        const headers: Record<string, string> = { authorization: basic('root', ROOT_PASSWORD) };
        if (accept !== undefined) headers.accept = accept;
        const res = await rawRequest(server.url, 'GET', path, headers);
        expect(res.status, `${path}: ${res.text}`).toBe(200);
        expect(res.headers['content-type'], path).toBe(format === 'xml' ? XML_TYPE : JSON_TYPE);
        if (format === 'xml') expect(res.text.startsWith(XML_DECLARATION), path).toBe(true);
        else expect(() => JSON.parse(res.text), path).not.toThrow();
      }
    });
  }

  it('errors follow the same rule: */* gives <error>, application/json gives {"value"}', async () => {
    const wildcard = await root(server, 'GET', '/rest/issue/PRJ-99999', { accept: '*/*' });
    expect(wildcard.status).toBe(404);
    expect(wildcard.text).toBe(`${XML_DECLARATION}<error>Issue [ PRJ-99999 ] not found.</error>`);
    const json = await root(server, 'GET', '/rest/issue/PRJ-99999', { accept: JSON_ACCEPT });
    expect(json.status).toBe(404);
    expect(json.json().value).toBe('Issue [ PRJ-99999 ] not found.');
  });

  it.each([
    [
      'the command-assist routes',
      () => `/rest/command/underlineAndSuggestAndCommands${q({ command: 'Fixed', issueIds: issueId })}`,
      '<IntelliSense>',
    ],
    ['the issue count (pyyoutrack reads {"value": n})', () => '/rest/issue/count', '<int>'],
  ])('%s keep JSON as their default (no Accept, */*); XML when asked', async (_what, pathOf, xmlRoot) => {
    const path = pathOf();
    for (const accept of [undefined, '*/*', 'application/*']) {
      const headers: Record<string, string> = { authorization: basic('root', ROOT_PASSWORD) };
      if (accept !== undefined) headers.accept = accept;
      const res = await rawRequest(server.url, 'GET', path, headers);
      expect(res.headers['content-type'], String(accept)).toBe(JSON_TYPE);
      expect(() => JSON.parse(res.text)).not.toThrow();
    }
    const asked = await root(server, 'GET', path, { accept: 'application/xml' });
    expect(asked.text.startsWith(`${XML_DECLARATION}${xmlRoot}`)).toBe(true);
  });
});

describe('POST /rest/user/login', () => {
  for (const accept of [undefined, '*/*', 'application/xml', 'application/json']) {
    it(`answers exactly <login>ok</login> for Accept ${accept ?? '(none)'}`, async () => {
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
      if (accept !== undefined) headers.accept = accept;
      const res = await rawRequest(
        server.url,
        'POST',
        '/rest/user/login',
        headers,
        'login=root&password=root-password',
      );
      expect(res.status).toBe(200);
      expect(res.text).toBe('<login>ok</login>');
    });
  }
});

type XmlField = { '@xsi:type': string; '@name': string; value?: unknown; valueId?: unknown; color?: unknown };

describe('the issue representation', () => {
  async function xmlIssue() {
    const res = await root(server, 'GET', `/rest/issue/${issueId}`);
    expect(res.status).toBe(200);
    const issue = xml.parse(res.text).issue;
    return { text: res.text, issue, fields: asArray<XmlField>(issue.field) };
  }
  const field = (fields: XmlField[], name: string) => fields.find((f) => f['@name'] === name);

  it('XML: every field carries xsi:type, with the xsi namespace declared on the issue', async () => {
    const { issue, fields } = await xmlIssue();
    expect(issue['@xmlns:xsi']).toBe('http://www.w3.org/2001/XMLSchema-instance');
    expect(fields.length).toBeGreaterThan(5);
    for (const f of fields) {
      expect(['SingleField', 'CustomFieldValue', 'MultiUserField', 'LinkField', 'AttachmentField']).toContain(
        f['@xsi:type'],
      );
    }
    for (const name of ['projectShortName', 'summary', 'created', 'updaterName', 'reporterName']) {
      expect(field(fields, name)?.['@xsi:type'], name).toBe('SingleField');
    }
    expect(field(fields, 'Priority')?.['@xsi:type']).toBe('CustomFieldValue');
    expect(field(fields, 'Assignee')?.['@xsi:type']).toBe('MultiUserField');
    expect(field(fields, 'links')?.['@xsi:type']).toBe('LinkField');
  });

  it('XML: updaterName and updaterFullName; bundle values with valueId and color (bg, fg)', async () => {
    const { fields } = await xmlIssue();
    expect(field(fields, 'updaterName')?.value).toBe('root');
    expect(field(fields, 'updaterFullName')?.value).toBe('root');
    const priority = field(fields, 'Priority');
    expect(priority?.value).toBe('Critical');
    expect(priority?.valueId).toBe('Critical');
    expect(priority?.color).toEqual({ bg: expect.stringMatching(/^#/), fg: expect.stringMatching(/^#/) });
  });

  it('XML: user values carry fullName; links are values with type and role, the issue id as text', async () => {
    const { fields } = await xmlIssue();
    expect(field(fields, 'Assignee')?.value).toEqual({ '#text': 'u_dev', '@fullName': expect.any(String) });
    expect(field(fields, 'links')?.value).toEqual({
      '#text': otherId,
      '@type': 'Depend',
      '@role': 'depends on',
    });
  });

  it('updaterName is who changed the issue last (the reporter until anyone else changes it)', async () => {
    const id = await createIssue(server, 'Updated by another');
    const updater = async () => {
      const issue = expectJson(await root(server, 'GET', `/rest/issue/${id}`, { accept: JSON_ACCEPT }), 200);
      return issue.field.find((f: { name: string }) => f.name === 'updaterName')?.value;
    };
    expect(await updater()).toBe('root');
    await mustExecute(server, id, 'Priority Major', 'u_dev');
    expect(await updater()).toBe('u_dev');
  });

  it('attachments are the field `attachments`: values with url, the file name as text (XML and JSON)', async () => {
    const id = await createIssue(server, 'With a file');
    const boundary = 'wireAttachmentBoundary';
    const upload = await root(server, 'POST', `/rest/issue/${id}/attachment`, {
      contentType: `multipart/form-data; boundary=${boundary}`,
      body:
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="notes.txt"\r\n` +
        `Content-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`,
    });
    expect(upload.status, upload.text).toBe(201);
    const xmlRes = await root(server, 'GET', `/rest/issue/${id}`);
    const fields = asArray<XmlField>(xml.parse(xmlRes.text).issue.field);
    const attachments = fields.find((f) => f['@name'] === 'attachments');
    expect(attachments?.['@xsi:type']).toBe('AttachmentField');
    expect(attachments?.value).toEqual({
      '#text': 'notes.txt',
      // Root-relative under the original's path shape (its page "Get Attachments of an Issue").
      '@url': expect.stringMatching(/^\/_persistent\/notes\.txt\?file=\d+&issue=[^&]+&v=0&c=false$/),
    });
    const json = expectJson(await root(server, 'GET', `/rest/issue/${id}`, { accept: JSON_ACCEPT }), 200);
    const field = json.field.find((f: { name: string }) => f.name === 'attachments');
    expect(field.value).toEqual([
      { value: 'notes.txt', url: expect.stringMatching(/^\/_persistent\/notes\.txt\?/) },
    ]);
    const download = await root(server, 'GET', field.value[0].url);
    expect(download.status).toBe(200);
    expect(download.text).toBe('hello');
  });

  it('a value’s colour follows its colour index (index 0: no colour)', async () => {
    const em = fork(server.orm);
    await em.getConnection().execute("update field_values set color_index = 3 where name = 'Critical'");
    const res = await root(server, 'GET', `/rest/issue/${issueId}`, { accept: JSON_ACCEPT });
    const priority = expectJson(res, 200).field.find((f: { name: string }) => f.name === 'Priority');
    const type = expectJson(res, 200).field.find((f: { name: string }) => f.name === 'Type');
    expect(priority.color).not.toEqual(type.color);
    expect(priority.color.bg).toMatch(/^#[0-9a-f]{6}$/);
    await em.getConnection().execute("update field_values set color_index = null where name = 'Critical'");
  });

  it('JSON: custom field values are arrays; users [{value, fullName}]; tags {value, cssClass}', async () => {
    const res = await root(server, 'GET', `/rest/issue/${issueId}`, { accept: JSON_ACCEPT });
    const issue = expectJson(res, 200);
    const byName = (name: string) => issue.field.find((f: { name: string }) => f.name === name);
    expect(byName('summary').value).toBe('Wire issue');
    expect(byName('Priority')).toMatchObject({ value: ['Critical'], valueId: ['Critical'] });
    expect(byName('Priority').color).toEqual({ bg: expect.any(String), fg: expect.any(String) });
    expect(byName('State').value).toEqual(['Submitted']);
    expect(byName('Fix versions').value).toEqual(['1.0']);
    expect(byName('Assignee').value).toEqual([{ value: 'u_dev', fullName: expect.any(String) }]);
    expect(byName('links').value).toEqual([{ value: otherId, type: 'Depend', role: 'depends on' }]);
    expect(byName('updaterName').value).toBe('root');
    expect(issue.tag).toEqual([{ value: 'Wired', cssClass: expect.any(String) }]);
  });
});

describe('search: GET /rest/issue', () => {
  it('JSON is {"issue": […]}', async () => {
    const res = await root(server, 'GET', `/rest/issue${q({ filter: issueId })}`, { accept: JSON_ACCEPT });
    const body = expectJson(res, 200);
    expect(Object.keys(body)).toEqual(['issue']);
    expect(body.issue.map((i: { id: string }) => i.id)).toEqual([issueId]);
  });

  it('XML has the root issueCompacts of issue elements', async () => {
    const res = await root(server, 'GET', `/rest/issue${q({ filter: issueId })}`);
    const doc = xml.parse(res.text);
    expect(Object.keys(doc).filter((k) => k !== '?xml')).toEqual(['issueCompacts']);
    expect(asArray<{ '@id': string }>(doc.issueCompacts.issue).map((i) => i['@id'])).toEqual([issueId]);
  });

  it('max beyond the limit is capped, not refused', async () => {
    const res = await root(server, 'GET', `/rest/issue${q({ max: 1_000_000 })}`, { accept: JSON_ACCEPT });
    expect(expectJson(res, 200).issue.length).toBeGreaterThan(1);
  });
});

describe('GET /rest/user/tag', () => {
  it('lists tags as tags > search name untagOnResolve', async () => {
    const res = await root(server, 'GET', '/rest/user/tag');
    const doc = xml.parse(res.text);
    const items = asArray<Record<string, string>>(doc.tags.search);
    expect(items).toContainEqual(expect.objectContaining({ '@name': 'Wired', '@untagOnResolve': 'false' }));
  });
});

describe('GET /rest/issue/intellisense?filter&caret (search assist)', () => {
  type Item = { option: string; styleClass?: string; completion: { '@start': string; '@end': string } };
  async function assist(filter: string, options: { caret?: number; user?: string } = {}) {
    const res = await server.request(
      'GET',
      `/rest/issue/intellisense${q({ filter, caret: options.caret })}`,
      {
        user: options.user ?? 'root',
      },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe(XML_TYPE);
    const doc = xml.parse(res.text).IntelliSense;
    return { doc, items: asArray<Item>(doc.suggest?.item) };
  }

  it('answers the IntelliSense XML: highlight > range, suggest > item with completion, match, option, styleClass', async () => {
    const { doc, items } = await assist('Prio');
    expect(doc).toHaveProperty('highlight');
    expect(doc).toHaveProperty('suggest');
    const priority = items.find((i) => i.option === 'Priority');
    expect(priority).toMatchObject({ styleClass: 'field', completion: { '@start': '0', '@end': '4' } });
  });

  it('completes field names (several words), values after a colon, # keywords, projects and users', async () => {
    expect((await assist('Fix v')).items.map((i) => i.option)).toContain('Fix versions');
    const states = (await assist('State: ')).items;
    expect(states.map((i) => i.option)).toEqual(expect.arrayContaining(['Submitted', 'Unresolved']));
    expect(states.every((i) => i.styleClass !== 'field')).toBe(true);
    expect((await assist('#Unr')).items.map((i) => i.option)).toContain('Unresolved');
    expect((await assist('project: ')).items.map((i) => i.option)).toContain(PRJ);
    expect((await assist('for: u_d')).items.map((i) => i.option)).toContain('u_dev');
    expect((await assist('tag: Wi')).items.map((i) => i.option)).toContain('Wired');
  });

  it('the caret decides what is completed', async () => {
    const { items } = await assist('Prio State: Open', { caret: 4 });
    expect(items.map((i) => i.option)).toContain('Priority');
  });

  it('offers only what the caller may read: no unreadable project, no other user’s private tag', async () => {
    const projects = (await assist('project: ', { user: 'u_dev' })).items.map((i) => i.option);
    expect(projects).toContain(PRJ);
    expect(projects).not.toContain('SECRET');
    expect((await assist('tag: ', { user: 'u_dev' })).items.map((i) => i.option)).not.toContain('Wired');
  });

  it('answers JSON with the command assist keys when JSON is asked for', async () => {
    const res = await root(server, 'GET', `/rest/issue/intellisense${q({ filter: 'Prio' })}`, {
      accept: JSON_ACCEPT,
    });
    const body = expectJson(res, 200);
    expect(body.suggest.items[0]).toMatchObject({ o: expect.any(String), cs: 0, ce: 4, styleClass: 'field' });
    expect(body.underline.ranges).toEqual(expect.any(Array));
  });
});

describe('hygiene', () => {
  it('no response of this suite carried a stack trace', () => expectNoStackTraces(server));
});
