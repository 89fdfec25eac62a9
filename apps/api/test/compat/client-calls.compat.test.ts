import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  basic,
  ROOT_PASSWORD,
  startTestServer,
  type TestServer,
  USER_PASSWORD,
  userWithRole,
  XML_DECLARATION,
  xmlElements,
} from '../harness.js';
import { requestBytes, sendRaw } from './raw-http.js';

/*
 * The calls of the published legacy clients that Trackline did not answer (issue 36), each
 * written byte for byte as its library puts it on the wire (read from their public sources) and
 * sent on a socket:
 *
 * - JetBrains' library 0.1.12 (`youtrack/connection.py` on httplib2): `_req` sends the header
 *   names httplib2 lower-cases, `accept-encoding: gzip, deflate` and its user-agent, the session
 *   cookie and `cache-control: no-cache`; PUT/POST bodies `application/xml; charset=UTF-8` (or
 *   `application/xml` through `_reqXml`, which also sends `accept: application/xml` on GET);
 *   `renameBundle` POSTs an empty body with `?newName=` unquoted and accepts 301;
 *   `exportIssueLinks` GETs `/export/links` with no Accept; `setProjectTimeTrackingSettings` PUTs
 *   `<settings enabled="true"><estimation name=…/><spentTime name=…/></settings>`; `getEvents` GETs
 *   `/event/issueEvents/{id}` and hands minidom's document to its caller.
 * - pyyoutrack 1.0.x (httplib2, no Accept header): `GET /issue/count` read as `{"value": n}`;
 *   `getIssueCountBulk` POSTs `<queries><query>…</query></queries>`.
 * - pyutrack (requests, `Accept: application/json` on its session): `pyu list users` sends every
 *   filter, empty ones too; `pyu update user` POSTs `/admin/user?login=…&fullName=…`; `pyu delete`
 *   reads the DELETE answer as JSON when it has a body.
 */

let server: TestServer;
let cookie = '';
const host = () => new URL(server.url).host;

/** What httplib2 writes for `http.request(uri, method, headers=…, body=…)`. */
function httplib2(method: string, path: string, headers: [string, string][] = [], body = '') {
  const head = [
    `${method} ${path} HTTP/1.1`,
    `Host: ${host()}`,
    ...headers.map(([name, value]) => `${name.toLowerCase()}: ${value}`),
    'accept-encoding: gzip, deflate',
    'user-agent: Python-httplib2/0.9.2 (gzip)',
  ];
  return sendRaw(server.url, requestBytes(head, body));
}

/** The JetBrains library's `_req`: the session cookie, and for PUT/POST the XML type and length. */
function jetbrains(method: string, path: string, body = '', contentType = 'application/xml; charset=UTF-8') {
  const headers: [string, string][] = [
    ['Cookie', cookie],
    ['Cache-Control', 'no-cache'],
  ];
  if (method === 'PUT' || method === 'POST')
    headers.push(['Content-Type', contentType], ['Content-Length', String(Buffer.byteLength(body))]);
  return httplib2(method, `/rest${path}`, headers, body);
}

/** What requests writes for a pyutrack session call (Basic credentials, JSON accepted). */
function pyutrack(method: string, path: string, login = 'root') {
  const password = login === 'root' ? ROOT_PASSWORD : USER_PASSWORD;
  const head = [
    `${method} /rest${path} HTTP/1.1`,
    `Host: ${host()}`,
    'User-Agent: python-requests/2.18.4',
    'Accept-Encoding: gzip, deflate',
    'Accept: application/json',
    'Connection: keep-alive',
    ...(method === 'GET' ? [] : ['Content-Length: 0']),
    `Authorization: ${basic(login, password)}`,
  ];
  return sendRaw(server.url, requestBytes(head));
}

beforeAll(async () => {
  server = await startTestServer();
  const root = (method: string, path: string, body?: string) =>
    server.request(method, path, { user: 'root', ...(body ? { body, contentType: 'application/xml' } : {}) });
  await root('PUT', '/rest/admin/project/CL?projectName=Calls&projectLeadLogin=root');
  await root('PUT', '/rest/admin/project/HID?projectName=Hidden&projectLeadLogin=root');
  for (let i = 0; i < 4; i++) await root('PUT', `/rest/issue?project=CL&summary=call${i}`);
  await root('PUT', '/rest/issue?project=HID&summary=hidden');
  await root('POST', '/rest/issue/CL-1/execute?command=relates+to+CL-2');
  await root('POST', '/rest/issue/CL-3/execute?command=depends+on+CL-4');
  await root('POST', '/rest/issue/CL-1/execute?command=relates+to+HID-1');
  await root('POST', '/rest/issue/CL-2/execute?command=Priority+Critical');
  await userWithRole(server.orm, 'cl_dev', 'Developer', 'CL');
  // `_login`: a form body, then the raw Set-Cookie echoed on every call.
  const body = `login=root&password=${encodeURIComponent(ROOT_PASSWORD)}`;
  const login = await httplib2(
    'POST',
    '/rest/user/login',
    [
      ['Connection', 'keep-alive'],
      ['Content-Type', 'application/x-www-form-urlencoded'],
      ['Content-Length', String(body.length)],
    ],
    body,
  );
  expect(login.body).toBe('<login>ok</login>');
  cookie = login.headers['set-cookie'] ?? '';
  expect(cookie).toMatch(/JSESSIONID=/);
});
afterAll(() => server.close());

describe('GET /rest/export/links (exportIssueLinks in all four libraries)', () => {
  it('lists every link as <links><link typeName source target/>, XML without an Accept header', async () => {
    const res = await jetbrains('GET', '/export/links');
    expect(res.status, res.body).toBe(200);
    expect(res.body.startsWith(`${XML_DECLARATION}<links><link `)).toBe(true);
    expect(xmlElements(res.body, 'link')).toEqual([
      { typeName: 'Relates', source: 'CL-1', target: 'CL-2' },
      { typeName: 'Depend', source: 'CL-3', target: 'CL-4' },
      { typeName: 'Relates', source: 'CL-1', target: 'HID-1' },
    ]);
  });

  it('leaves out links to issues the caller cannot read; pages with max and after', async () => {
    const dev = await pyutrack('GET', '/export/links', 'cl_dev');
    expect(JSON.parse(dev.body)).toEqual([
      { typeName: 'Relates', source: 'CL-1', target: 'CL-2' },
      { typeName: 'Depend', source: 'CL-3', target: 'CL-4' },
    ]);
    const page = await pyutrack('GET', '/export/links?max=1&after=1');
    expect(JSON.parse(page.body)).toEqual([{ typeName: 'Depend', source: 'CL-3', target: 'CL-4' }]);
  });
});

describe('POST /rest/admin/customfield/{bundleType}/{name}?newName= (renameBundle)', () => {
  it('an enumeration answers 200 with an empty body; the bundle has the new name', async () => {
    await jetbrains(
      'PUT',
      '/admin/customfield/bundle',
      '<enumeration name="OldEnum"><value>a</value></enumeration>',
    );
    const res = await jetbrains('POST', '/admin/customfield/bundle/OldEnum?newName=NewEnum');
    expect(res.status, res.body).toBe(200);
    expect(res.body).toBe('');
    expect((await jetbrains('GET', '/admin/customfield/bundle/NewEnum')).status).toBe(200);
    expect((await jetbrains('GET', '/admin/customfield/bundle/OldEnum')).status).toBe(404);
  });

  it.each([
    ['ownedFieldBundle', '<ownedFieldBundle name="OldOwned"><ownedField>x</ownedField></ownedFieldBundle>'],
    ['userBundle', '<userBundle name="OldUsers"/>'],
    ['buildBundle', '<buildBundle name="OldBuilds"><build>1</build></buildBundle>'],
    ['stateBundle', '<stateBundle name="OldStates"><state>Open</state></stateBundle>'],
    ['versionBundle', '<versions name="OldVersions"><version>1.0</version></versions>'],
  ])('%s answers 301 Moved Permanently with the new Location', async (type, xml) => {
    const old = /name="([^"]+)"/.exec(xml)?.[1] as string;
    expect((await jetbrains('PUT', `/admin/customfield/${type}`, xml)).status).toBe(201);
    const res = await jetbrains('POST', `/admin/customfield/${type}/${old}?newName=Renamed${type}`);
    expect(res.status, res.body).toBe(301);
    expect(res.headers.location).toBe(`${server.url}/rest/admin/customfield/${type}/Renamed${type}`);
    expect(res.body).toBe('');
    expect((await jetbrains('GET', `/admin/customfield/${type}/Renamed${type}`)).status).toBe(200);
  });

  it("newName in a form body (the original's build-bundle sample); 409 for a taken name", async () => {
    await jetbrains('PUT', '/admin/customfield/buildBundle', '<buildBundle name="Form Builds"/>');
    await jetbrains('PUT', '/admin/customfield/buildBundle', '<buildBundle name="Taken"/>');
    const form = await jetbrains(
      'POST',
      '/admin/customfield/buildBundle/Form%20Builds',
      'newName=New Name with spaces',
      'application/x-www-form-urlencoded',
    );
    expect(form.status, form.body).toBe(301);
    expect(form.headers.location).toMatch(/\/buildBundle\/New%20Name%20with%20spaces$/);
    const taken = await jetbrains(
      'POST',
      '/admin/customfield/buildBundle/New%20Name%20with%20spaces?newName=taken',
    );
    expect(taken.status, taken.body).toBe(409);
  });
});

describe('GET /rest/event/issueEvents/{issue} (getEvents of the JetBrains library)', () => {
  it("answers the issue's events as XML the library parses: links, field changes and comments, with who and when", async () => {
    await jetbrains('POST', '/issue/CL-1/execute?command=Priority+Major&comment=Seen+%26+%3Cchecked%3E');
    const res = await jetbrains('GET', '/event/issueEvents/CL-1');
    expect(res.status, res.body).toBe(200);
    expect(res.body.startsWith(`${XML_DECLARATION}<events><event `)).toBe(true);
    const events = xmlElements(res.body, 'event');
    expect(events.map((e) => e.kind)).toEqual(['link-added', 'link-added', 'change', 'comment']);
    expect(events.every((e) => e.author === 'root' && /^\d{13}$/.test(e.at ?? ''))).toBe(true);
    expect(xmlElements(res.body, 'link').map((l) => l.issue)).toEqual(['CL-2', 'HID-1']);
    expect(res.body).toContain(
      '<field name="Priority"><newValue>Major</newValue><oldValue>Normal</oldValue></field>',
    );
    expect(res.body).toContain('<text>Seen &amp; &lt;checked&gt;</text>');
  });

  it('JSON on request; only what the caller reads (no link to a hidden issue); a hidden issue is 404', async () => {
    const dev = JSON.parse((await pyutrack('GET', '/event/issueEvents/CL-1', 'cl_dev')).body);
    expect(
      dev
        .filter((e: { kind: string }) => e.kind === 'link-added')
        .map((e: { issue: { id: string } }) => e.issue.id),
    ).toEqual(['CL-2']);
    expect(dev.find((e: { kind: string }) => e.kind === 'comment')).toMatchObject({
      text: 'Seen & <checked>',
      by: { login: 'root' },
    });
    expect((await pyutrack('GET', '/event/issueEvents/HID-1', 'cl_dev')).status).toBe(404);
    expect((await jetbrains('GET', '/event/issueEvents/CL-999')).status).toBe(404);
  });
});

describe('POST /rest/issue/counts (pyyoutrack getIssueCountBulk)', () => {
  it('<queries> in, <counts> out, one count per query in order; JSON likewise', async () => {
    const body = `${XML_DECLARATION}<queries><query>project: CL</query><query>Priority: Critical</query><query>#Unresolved</query></queries>`;
    const res = await httplib2(
      'POST',
      '/rest/issue/counts',
      [
        ['Authorization', basic('root', ROOT_PASSWORD)],
        ['Content-Type', 'application/xml'],
        ['Content-Length', String(Buffer.byteLength(body))],
      ],
      body,
    );
    expect(res.status, res.body).toBe(200);
    expect(res.body).toBe(
      `${XML_DECLARATION}<counts><count>4</count><count>1</count><count>5</count></counts>`,
    );
    const json = await server.request('POST', '/rest/issue/counts', {
      user: 'cl_dev',
      accept: 'application/json',
      contentType: 'application/json',
      body: JSON.stringify({ query: ['project: CL', '#Resolved'] }),
    });
    expect(json.json()).toEqual({ count: [4, 0] });
  });
});

describe('POST /rest/admin/user (pyu update user)', () => {
  it('updates the named user (200) and creates a missing one (201, Location), answering the user', async () => {
    const updated = await pyutrack(
      'POST',
      '/admin/user?login=cl_dev&fullName=Changed+Name&email=dev%40example.com',
    );
    expect(updated.status, updated.body).toBe(200);
    expect(JSON.parse(updated.body)).toMatchObject({
      login: 'cl_dev',
      fullName: 'Changed Name',
      email: 'dev@example.com',
    });
    const made = await pyutrack(
      'POST',
      '/admin/user?login=cl_new&fullName=New+Person&email=new%40example.com',
    );
    expect(made.status, made.body).toBe(201);
    expect(made.headers.location).toBe(`${server.url}/rest/admin/user/cl_new`);
    const read = await server.request('GET', '/rest/admin/user/cl_new', {
      user: 'root',
      accept: 'application/json',
    });
    expect(read.json()).toMatchObject({ login: 'cl_new', fullName: 'New Person' });
    const denied = await pyutrack('POST', '/admin/user?login=root&fullName=Hijack', 'cl_dev');
    expect(denied.status).toBe(403);
  });
});

describe('empty parameters mean no filter (pyu list users sends every filter)', () => {
  it.each([
    ['GET /admin/user', '/admin/user?q=&group=&role=&project=&permission=&start='],
    ['GET /issue/byproject/{project}', '/issue/byproject/CL?filter=&after=&max=&updatedAfter='],
    ['GET /issue', '/issue?filter=&after=&max=&with='],
    ['GET /issue/count', '/issue/count?filter=&callback='],
    ['GET /admin/project/{project}/version', '/admin/project/CL/version?showReleased='],
  ])('%s', async (_route, path) => {
    const res = await pyutrack('GET', path);
    expect(res.status, res.body).toBe(200);
    expect(() => JSON.parse(res.body)).not.toThrow();
  });

  it('the same answer as without the parameters', async () => {
    const empty = await pyutrack('GET', '/admin/user?q=&group=&role=&project=&permission=&start=');
    const none = await pyutrack('GET', '/admin/user');
    expect(JSON.parse(empty.body)).toEqual(JSON.parse(none.body));
  });
});

describe('GET /rest/issue/count without an Accept header (pyyoutrack)', () => {
  it('answers {"value": n}; XML <int> when asked', async () => {
    const bare = await httplib2('GET', '/rest/issue/count?filter=project%3A+CL', [
      ['Authorization', basic('root', ROOT_PASSWORD)],
    ]);
    expect(bare.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(bare.body)).toEqual({ value: 4 });
    const xml = await httplib2('GET', '/rest/issue/count?filter=project%3A+CL', [
      ['Authorization', basic('root', ROOT_PASSWORD)],
      ['Accept', 'application/xml'],
    ]);
    expect(xml.body).toBe(`${XML_DECLARATION}<int>4</int>`);
  });
});

describe('DELETE with Accept: application/json answers an empty body (pyu delete …)', () => {
  it.each([
    ['an issue', async () => '/issue/CL-4'],
    [
      'a user',
      async () => {
        await server.request('PUT', '/rest/admin/user/cl_gone?email=g%40example.com', { user: 'root' });
        return '/admin/user/cl_gone';
      },
    ],
    [
      'a group',
      async () => {
        await server.request('PUT', '/rest/admin/group/Gone%20Group', { user: 'root' });
        return '/admin/group/Gone%20Group';
      },
    ],
    [
      'a comment',
      async () => {
        await server.request('POST', '/rest/issue/CL-3/execute?comment=bye', { user: 'root' });
        const list = await server.request('GET', '/rest/issue/CL-3/comment', {
          user: 'root',
          accept: 'application/json',
        });
        return `/issue/CL-3/comment/${list.json()[0].id}`;
      },
    ],
    [
      'a bundle',
      async () => {
        await jetbrains('PUT', '/admin/customfield/bundle', '<enumeration name="Doomed"/>');
        return '/admin/customfield/bundle/Doomed';
      },
    ],
    [
      'a tag',
      async () => {
        await server.request('PUT', '/rest/user/tag/doomed', { user: 'root' });
        return '/user/tag/doomed';
      },
    ],
  ])('%s', async (_what, arrange) => {
    const path = await arrange();
    const res = await pyutrack('DELETE', path);
    expect(res.status, res.body).toBe(200);
    expect(res.body).toBe('');
    expect(res.headers['content-length']).toBe('0');
  });
});

describe("PUT /rest/admin/project/{p}/timetracking with the original's XML body", () => {
  it('sets the fields named by <estimation name> and <spentTime name>', async () => {
    for (const [name, type] of [
      ['Estimation', 'period'],
      ['Spent time', 'period'],
    ] as const) {
      await jetbrains(
        'PUT',
        `/admin/customfield/field/${encodeURIComponent(name)}?type=${type}&isPrivate=false&defaultVisibility=true&autoAttached=false`,
        '<empty/>\n\n',
        'application/xml',
      );
      await jetbrains(
        'PUT',
        `/admin/project/CL/customfield/${encodeURIComponent(name)}?emptyFieldText=none`,
        '<empty/>\n\n',
        'application/xml',
      );
    }
    const res = await jetbrains(
      'PUT',
      '/admin/project/CL/timetracking',
      '<settings enabled="true"><estimation name="Estimation"/><spentTime name="Spent time"/></settings>',
      'application/xml',
    );
    expect(res.status, res.body).toBe(200);
    const read = await jetbrains('GET', '/admin/project/CL/timetracking');
    expect(read.body).toBe(
      `${XML_DECLARATION}<settings enabled="true"><estimation name="Estimation"/><spentTime name="Spent time"/></settings>`,
    );
  });
});

describe('everything under /api/ and /rest/ that no route serves answers 404 in the expected format', () => {
  it.each([
    ['/api/issues?fields=id,summary', 'json'],
    ['/api', 'json'],
    ['/api/admin/projects', 'json'],
    ['/rest/no/such/thing', 'xml'],
    ['/rest', 'xml'],
  ])('%s → 404 %s, never the console page', async (path, format) => {
    const res = await httplib2('GET', path, [['Authorization', basic('root', ROOT_PASSWORD)]]);
    expect(res.status, res.body).toBe(404);
    expect(res.body).not.toMatch(/<html/i);
    if (format === 'json') expect(JSON.parse(res.body)).toMatchObject({ status: 404 });
    else expect(res.body).toMatch(/^<\?xml[^>]*\?><error>No resource at /);
  });

  it('with the console served at /: /api paths still answer 404, not its page', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trackline-console-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><html><body>console</body></html>');
    const withConsole = await startTestServer({ handler: { consoleDir: dir } });
    try {
      const page = await fetch(`${withConsole.url}/issues/CL-1`);
      expect(await page.text()).toMatch(/<html>/);
      for (const path of ['/api', '/api/issues?fields=id', '/api/admin/projects']) {
        const res = await fetch(`${withConsole.url}${path}`);
        expect(res.status, path).toBe(404);
        expect(await res.json()).toMatchObject({
          status: 404,
          value: `No resource at ${path.split('?')[0]}.`,
        });
      }
    } finally {
      await withConsole.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
