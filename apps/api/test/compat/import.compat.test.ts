import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminSnapshot,
  basic,
  expectXml as checkXml,
  expectJson,
  expectXmlError,
  JSON_ACCEPT,
  ROOT_PASSWORD,
  startTestServer,
  type TestServer,
  userWithRole,
  xmlElements,
} from '../harness.js';
import { issueSnapshot } from '../issue-fixtures.js';

/*
 * A migration as the original's import documentation describes it (Import REST API: users,
 * then issues in batches of 100, then links), over HTTP with the documented XML bodies:
 *   - `PUT /rest/import/users`: `<list><user login fullName email jabber/></list>` → `importReport`
 *     > `item id imported` (+ `error fieldName value`);
 *   - `PUT /rest/import/{project}/issues`: `<issues><issue><field name><value>…</value></field>…
 *     <comment author text created/></issue></issues>`, times in ms since the epoch, newlines in
 *     comment attributes as `&#xA;` (the python library) → `importResult` > `item id imported`;
 *   - `PUT /rest/import/links`: `<list><link typeName source target/></list>` → `importReport`.
 * Everything is read back through the legacy read routes (`GET /rest/issue/{id}`, system users).
 */

const T0 = Date.UTC(2011, 4, 6, 7, 8, 9);
const USERS = [
  { login: 'jdoe', fullName: 'John Doe', email: 'jdoe@example.com' },
  { login: 'asmith', fullName: 'Anna Smith', email: 'anna@example.com' },
  { login: 'bwayne', fullName: 'Bruce Wayne', email: 'bruce@example.com' },
];
const STATES = ['Submitted', 'Open', 'Fixed', 'In Progress'];
const PRIORITIES = ['Critical', 'Major', 'Normal', 'Minor'];
const TYPES = ['Bug', 'Feature', 'Task'];
const VERSIONS = ['1.0', '1.1', '2.0'];
const SEVERITIES = ['Blocker', 'Major', 'Minor'];
/** 200 numbers with gaps (every 5th number from 3 on is missing). */
const NUMBERS = Array.from({ length: 250 }, (_, i) => i + 1)
  .filter((n) => n % 5 !== 3)
  .slice(0, 200);

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').replace(/\n/g, '&#xA;');

type Source = {
  number: number;
  summary: string;
  description: string;
  created: number;
  updated: number;
  resolved?: number;
  reporter: string;
  fields: Record<string, string[]>;
  comments: { author: string; text: string; created: number }[];
};

function sourceIssue(n: number): Source {
  const state = STATES[n % STATES.length] as string;
  return {
    number: n,
    summary: `Imported <${n}> & "quoted"`,
    description: `First line of ${n}\nsecond line`,
    created: T0 + n * 60_000,
    updated: T0 + n * 60_000 + 5_000,
    ...(state === 'Fixed' ? { resolved: T0 + n * 60_000 + 4_000 } : {}),
    reporter: (USERS[n % 3] as { login: string }).login,
    fields: {
      State: [state],
      Priority: [PRIORITIES[n % PRIORITIES.length] as string],
      Type: [TYPES[n % TYPES.length] as string],
      Assignee: [(USERS[(n + 1) % 3] as { login: string }).login],
      'Fix versions': n % 2 ? [VERSIONS[n % 3] as string, VERSIONS[(n + 1) % 3] as string] : [],
      Severity: [SEVERITIES[n % 3] as string],
    },
    comments: [
      { author: 'jdoe', text: `Comment one on ${n}\nwith a second line`, created: T0 + n * 60_000 + 1_000 },
      // An author the target does not know: a reference the system-user list reports.
      { author: 'former_employee', text: `Comment two on ${n}`, created: T0 + n * 60_000 + 2_000 },
    ],
  };
}

function issueXml(s: Source): string {
  const field = (name: string, values: (string | number)[]) =>
    `<field name="${esc(name)}">${values.map((v) => `<value>${esc(String(v))}</value>`).join('')}</field>`;
  return (
    '<issue>' +
    field('numberInProject', [s.number]) +
    field('summary', [s.summary]) +
    field('description', [s.description]) +
    field('created', [s.created]) +
    field('updated', [s.updated]) +
    (s.resolved ? field('resolved', [s.resolved]) : '') +
    field('reporterName', [s.reporter]) +
    field('updaterName', [s.reporter]) +
    field('voterName', ['asmith']) +
    field('watcherName', ['bwayne']) +
    Object.entries(s.fields)
      .filter(([, v]) => v.length)
      .map(([name, v]) => field(name, v))
      .join('') +
    s.comments
      .map(
        (c) =>
          `<comment author="${c.author}" text="${esc(c.text)}" created="${c.created}" markdown="false"/>`,
      )
      .join('') +
    '</issue>'
  );
}

const issuesXml = (sources: Source[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<issues>\n${sources.map(issueXml).join('\n')}\n</issues>`;

const reader = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  htmlEntities: true,
  isArray: (n) => ['field', 'value', 'comment', 'link'].includes(n),
});

type ReadIssue = {
  fields: Map<string, string[]>;
  comments: Record<string, string>[];
  links: Record<string, string>[];
};
function readIssue(xml: string): ReadIssue {
  const issue = reader.parse(xml).issue as Record<string, unknown>;
  const fields = new Map<string, string[]>();
  for (const f of (issue.field ?? []) as { name: string; value: unknown[] }[])
    fields.set(
      f.name,
      f.value.map((v) => (typeof v === 'string' ? v : String((v as { '#text'?: string })['#text'] ?? ''))),
    );
  return {
    fields,
    comments: (issue.comment ?? []) as Record<string, string>[],
    links: (issue.link ?? []) as Record<string, string>[],
  };
}

/** A legacy XML success body (see `checkXml`), returned for reading. */
const expectXml = (res: Awaited<ReturnType<TestServer['request']>>, status: number) => {
  checkXml(res, status);
  return res.text;
};

let server: TestServer;
const root = (method: string, path: string, body?: string, accept = '') =>
  server.request(method, path, {
    user: 'root',
    accept,
    ...(body !== undefined ? { body, contentType: 'application/xml' } : {}),
  });
const results = (xml: string, root: string) => {
  expect(xml).toMatch(new RegExp(`^<\\?xml[^>]*\\?><${root}>`));
  return xmlElements(xml, 'item');
};

beforeAll(async () => {
  server = await startTestServer();
  expect(
    (await root('PUT', '/rest/admin/project/IMP?projectName=Imported&startingNumber=1&projectLeadLogin=root'))
      .status,
  ).toBe(201);
  // A version bundle with values for the project's Fix versions field, and an extra enum field
  // Severity with its own bundle, through the custom field routes as an importer makes them.
  const fix = expectXml(await root('GET', '/rest/admin/project/IMP/customfield/Fix%20versions'), 200);
  const versionBundle = /<param name="bundle" value="([^"]+)"/.exec(fix)?.[1] as string;
  for (const version of VERSIONS)
    expect(
      (
        await root(
          'PUT',
          `/rest/admin/customfield/versionBundle/${encodeURIComponent(versionBundle)}/${version}`,
        )
      ).status,
    ).toBe(201);
  expect(
    (await root('PUT', '/rest/admin/customfield/bundle', '<enumeration name="Severities"/>')).status,
  ).toBe(201);
  for (const value of SEVERITIES)
    expect((await root('PUT', `/rest/admin/customfield/bundle/Severities/${value}`)).status).toBe(201);
  expect(
    (
      await root(
        'PUT',
        '/rest/admin/customfield/field/Severity?type=enum%5B1%5D&isPrivate=false&defaultVisibility=true',
      )
    ).status,
  ).toBe(201);
  expect(
    (
      await root(
        'PUT',
        '/rest/admin/project/IMP/customfield/Severity?bundle=Severities&emptyFieldText=No+severity',
      )
    ).status,
  ).toBe(201);
});
afterAll(() => server.close());

describe('a migration through the import API', () => {
  it('imports users: creates them without passwords, answers one item each', async () => {
    const body = `<list>${USERS.map((u) => `<user login="${u.login}" fullName="${u.fullName}" email="${u.email}" jabber="${u.login}@jabber.example.com"/>`).join('')}</list>`;
    const res = await root('PUT', '/rest/import/users', body);
    expect(results(expectXml(res, 200), 'importReport')).toEqual(
      USERS.map((u) => ({ id: u.login, imported: 'true' })),
    );
    for (const u of USERS) {
      const user = xmlElements(expectXml(await root('GET', `/rest/admin/user/${u.login}`), 200), 'user')[0];
      expect([user?.login, user?.fullName, user?.email]).toEqual([u.login, u.fullName, u.email]);
    }
    // Without a password they cannot sign in.
    expect((await server.request('GET', '/rest/user/current', { user: 'jdoe' })).status).toBe(401);
  });

  it('imports 200 issues in batches of 100 keeping numbers (with gaps), times, reporters, comments and fields', async () => {
    const sources = NUMBERS.map(sourceIssue);
    for (const batch of [sources.slice(0, 100), sources.slice(100)]) {
      const res = await root('PUT', '/rest/import/IMP/issues', issuesXml(batch));
      expect(results(expectXml(res, 200), 'importResult')).toEqual(
        batch.map((s) => ({ id: String(s.number), imported: 'true' })),
      );
    }
    for (const s of sources) {
      const issue = readIssue(expectXml(await root('GET', `/rest/issue/IMP-${s.number}`), 200));
      const f = (name: string) => issue.fields.get(name);
      expect(f('numberInProject')).toEqual([String(s.number)]);
      expect(f('summary')).toEqual([s.summary]);
      expect(f('description')).toEqual([s.description]);
      expect(f('created')).toEqual([String(s.created)]);
      expect(f('updated')).toEqual([String(s.updated)]);
      expect(f('resolved')).toEqual(s.resolved ? [String(s.resolved)] : undefined);
      expect(f('reporterName')).toEqual([s.reporter]);
      expect(f('votes')).toEqual(['1']);
      // A multi-value field lists its values in the bundle's order.
      for (const [name, values] of Object.entries(s.fields))
        expect([...(f(name) ?? [])].sort(), `${name} of IMP-${s.number}`).toEqual([...values].sort());
      expect(issue.comments.map((c) => [c.author, c.text, c.created])).toEqual(
        s.comments.map((c) => [c.author, c.text, String(c.created)]),
      );
    }
    const missing = await root('GET', `/rest/issue/IMP-3`);
    expect(missing.status).toBe(404);
  });

  it('reports authors it did not know as system users, and numbers new issues past the highest import', async () => {
    const system = xmlElements(expectXml(await root('GET', '/rest/admin/systemuser'), 200), 'user');
    expect(system.map((u) => u.login)).toContain('former_employee');
    const created = await server.request('PUT', '/rest/issue?project=IMP&summary=After+the+import', {
      user: 'root',
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toMatch(
      new RegExp(`/rest/issue/IMP-${Math.max(...NUMBERS) + 1}$`),
    );
  });

  it('imports links per link, reporting unknown issues and types', async () => {
    const body =
      '<list><link typeName="Depend" source="IMP-1" target="IMP-2"/>' +
      '<link typeName="Duplicate" source="IMP-4" target="IMP-1"/>' +
      '<link typeName="No such type" source="IMP-1" target="IMP-2"/>' +
      '<link typeName="Relates" source="IMP-1" target="IMP-3"/></list>';
    const items = results(expectXml(await root('PUT', '/rest/import/links', body), 200), 'importReport');
    expect(items.map((i) => i.imported)).toEqual(['true', 'true', 'false', 'false']);
    const res = await root('PUT', '/rest/import/links', body);
    expect(res.text).toContain('<error fieldName="typeName" value="No such type">');
    expect(res.text).toContain('<error fieldName="target" value="IMP-3">');
    const one = expectJson(await root('GET', '/rest/issue/IMP-1', undefined, JSON_ACCEPT), 200) as {
      link: { typeName: string; source: string; target: string }[];
    };
    expect(one.link.map((l) => [l.typeName, l.source, l.target]).sort()).toEqual([
      ['Depend', 'IMP-1', 'IMP-2'],
      ['Duplicate', 'IMP-4', 'IMP-1'],
    ]);
  });

  it('imports an attachment (multipart) with its author, group and time; the list and the download URL give it back', async () => {
    const data = new FormData();
    data.append('files', new Blob(['PNG bytes of a screenshot'], { type: 'image/png' }), 'screenshot.png');
    const created = T0 + 123_000;
    const res = await fetch(
      `${server.url}/rest/import/IMP-1/attachment?authorLogin=asmith&group=All+Users&created=${created}`,
      { method: 'POST', headers: { authorization: basic('root', ROOT_PASSWORD) }, body: data },
    );
    expect(res.status).toBe(201);
    const [file] = xmlElements(expectXml(await root('GET', '/rest/issue/IMP-1/attachment'), 200), 'fileUrl');
    expect(file).toMatchObject({
      name: 'screenshot.png',
      authorLogin: 'asmith',
      group: 'All Users',
      created: String(created),
    });
    // Root-relative (`/_persistent/…`), as the original's: the client prefixes its base URL.
    expect(file?.url).toMatch(/^\/_persistent\/screenshot\.png\?file=\d+&/);
    const download = await fetch(`${server.url}${file?.url}`, {
      headers: { authorization: basic('root', ROOT_PASSWORD) },
    });
    expect([download.status, download.headers.get('content-type'), await download.text()]).toEqual([
      200,
      'image/png',
      'PNG bytes of a screenshot',
    ]);
  });

  it('refuses an attachment time no database can hold with a 400 naming it, storing nothing', async () => {
    const before = xmlElements(expectXml(await root('GET', '/rest/issue/IMP-1/attachment'), 200), 'fileUrl');
    const data = new FormData();
    data.append('files', new Blob(['late'], { type: 'text/plain' }), 'late.txt');
    const res = await fetch(`${server.url}/rest/import/IMP-1/attachment?created=999999999999999`, {
      method: 'POST',
      headers: { authorization: basic('root', ROOT_PASSWORD), accept: 'application/json' },
      body: data,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { value: string }).value).toContain('created');
    const after = xmlElements(expectXml(await root('GET', '/rest/issue/IMP-1/attachment'), 200), 'fileUrl');
    expect(after).toEqual(before);
  });

  it('imports a work item as documented; the time tracking list gives it back', async () => {
    const date = T0 + 86_400_000;
    const body =
      `<workItems><workItem><date>${date}</date><duration>90</duration><description>Fixed the parser</description>` +
      '<worktype><name>Development</name></worktype><author login="bwayne"/></workItem></workItems>';
    const items = results(
      expectXml(await root('PUT', '/rest/import/issue/IMP-1/workitems', body), 200),
      'importReport',
    );
    expect(items).toEqual([{ id: '1', imported: 'true' }]);
    const xml = expectXml(await root('GET', '/rest/issue/IMP-1/timetracking/workitem'), 200);
    expect(xml).toMatch(
      /^<\?xml[^>]*\?><workItems><workItem url="[^"]+\/rest\/issue\/IMP-1\/timetracking\/workitem\/\d+">/,
    );
    expect(xml).toContain(
      `<date>${date}</date><duration>90</duration><description>Fixed the parser</description>` +
        '<worktype><name>Development</name></worktype><author login="bwayne"',
    );
    // Imported again: already there, not added twice.
    await root('PUT', '/rest/import/issue/IMP-1/workitems', body);
    expect(
      xmlElements(expectXml(await root('GET', '/rest/issue/IMP-1/timetracking/workitem'), 200), 'workItem'),
    ).toHaveLength(1);
  });

  it('a second identical run changes nothing', async () => {
    const before = { issues: await issueSnapshot(server), admin: await adminSnapshot(server.orm) };
    const sources = NUMBERS.map(sourceIssue);
    const users = `<list>${USERS.map((u) => `<user login="${u.login}" fullName="${u.fullName}" email="${u.email}"/>`).join('')}</list>`;
    expect((await root('PUT', '/rest/import/users', users)).status).toBe(200);
    for (const batch of [sources.slice(0, 100), sources.slice(100)]) {
      const items = results(
        expectXml(await root('PUT', '/rest/import/IMP/issues', issuesXml(batch)), 200),
        'importResult',
      );
      expect(items.every((i) => i.imported === 'true')).toBe(true);
    }
    await root(
      'PUT',
      '/rest/import/links',
      '<list><link typeName="Depend" source="IMP-1" target="IMP-2"/></list>',
    );
    expect({ issues: await issueSnapshot(server), admin: await adminSnapshot(server.orm) }).toEqual(before);
  });

  it('reports each bad issue of a batch and stores the valid ones', async () => {
    const good = { ...sourceIssue(300), number: 300 };
    const unknownField = { ...sourceIssue(301), fields: { Nonexistent: ['Major'] } };
    const unknownValue = { ...sourceIssue(302), fields: { Priority: ['Blocker'] } };
    const duplicate = { ...sourceIssue(300), summary: 'same number again' };
    const res = await root(
      'PUT',
      '/rest/import/IMP/issues',
      issuesXml([good, unknownField, unknownValue, duplicate]),
    );
    const xml = expectXml(res, 200);
    expect(results(xml, 'importResult')).toEqual([
      { id: '300', imported: 'true' },
      { id: '301', imported: 'false' },
      { id: '302', imported: 'false' },
      { id: '300', imported: 'false' },
    ]);
    expect(xml).toContain(
      '<error fieldName="Nonexistent">unknown field [ Nonexistent ] in this project</error>',
    );
    expect(xml).toContain(
      '<error fieldName="Priority" value="Blocker">unknown value [ Blocker ] of field [ Priority ]</error>',
    );
    expect(xml).toContain(
      '<error fieldName="numberInProject" value="300">numberInProject 300 appears twice in this request</error>',
    );
    expect(readIssue(expectXml(await root('GET', '/rest/issue/IMP-300'), 200)).fields.get('summary')).toEqual(
      [good.summary],
    );
    for (const n of [301, 302]) expect((await root('GET', `/rest/issue/IMP-${n}`)).status).toBe(404);
    // JSON callers get the same results as an array.
    const json = expectJson(
      await server.request('PUT', '/rest/import/IMP/issues', {
        user: 'root',
        accept: JSON_ACCEPT,
        contentType: 'application/xml',
        body: issuesXml([unknownField]),
      }),
      200,
    );
    expect(json).toEqual([
      {
        id: '301',
        imported: false,
        errors: [{ message: 'unknown field [ Nonexistent ] in this project', fieldName: 'Nonexistent' }],
      },
    ]);
  });

  it('refuses malformed XML, DOCTYPEs, over 100 issues and oversized bodies with 4xx, storing nothing', async () => {
    const before = { issues: await issueSnapshot(server), admin: await adminSnapshot(server.orm) };
    const one = issueXml(sourceIssue(400));
    expectXmlError(
      await root('PUT', '/rest/import/IMP/issues', `<issues>${one}<issue>`),
      400,
      /body: is not well-formed XML/,
    );
    expectXmlError(
      await root(
        'PUT',
        '/rest/import/IMP/issues',
        `<!DOCTYPE issues [<!ENTITY x "y">]><issues>${one}</issues>`,
      ),
      400,
      'body: XML with a DOCTYPE is not accepted',
    );
    expectXmlError(
      await root('PUT', '/rest/import/IMP/issues', `<list>${one}</list>`),
      400,
      /root element <issues>/,
    );
    const many = Array.from({ length: 101 }, (_, i) => sourceIssue(500 + i));
    expectXmlError(
      await root('PUT', '/rest/import/IMP/issues', issuesXml(many)),
      400,
      /at most 100 issues per request/,
    );
    const huge = `<issues><issue><field name="summary"><value>${'x'.repeat(1024 * 1024)}</value></field></issue></issues>`;
    expect((await root('PUT', '/rest/import/IMP/issues', huge)).status).toBe(413);
    expectXmlError(await root('PUT', '/rest/import/users', '<list><user login="a"'), 400, /not well-formed/);
    expectXmlError(
      await root('PUT', '/rest/import/links', '<list><link typeName="Depend" source="IMP-1"'),
      400,
      /not well-formed/,
    );
    expect((await root('PUT', '/rest/import/NOPE/issues', issuesXml([sourceIssue(1)]))).status).toBe(404);
    expect({ issues: await issueSnapshot(server), admin: await adminSnapshot(server.orm) }).toEqual(before);
  });

  it('needs IMPORT_DATA: a project administrator gets 403 naming it', async () => {
    await userWithRole(server.orm, 'imp_admin', 'Admin', 'IMP');
    const res = await server.request('PUT', '/rest/import/IMP/issues', {
      user: 'imp_admin',
      contentType: 'application/xml',
      body: issuesXml([sourceIssue(1)]),
    });
    expectXmlError(res, 403, 'You have no rights to import data (IMPORT_DATA).');
  });
});
