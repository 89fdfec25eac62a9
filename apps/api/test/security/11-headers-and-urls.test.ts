import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnv } from '../../src/env.js';
import { isValidHostHeader } from '../../src/http/public-url.js';
import {
  basic,
  JSON_ACCEPT,
  ROOT_PASSWORD,
  rawRequest,
  startTestServer,
  type TestServer,
} from '../harness.js';

const ROOT = { authorization: basic('root', ROOT_PASSWORD) };
const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);

describe('hardening item 11: headers and absolute URLs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('sends nosniff on every answer, and no-store on every /rest and /trpc answer', async () => {
    const answers = {
      'REST read': await server.request('GET', '/rest/admin/role/Developer', { user: 'root' }),
      'REST JSON': await server.request('GET', '/rest/admin/role', { user: 'root', accept: JSON_ACCEPT }),
      'REST 401': await server.request('GET', '/rest/admin/role'),
      'REST 400': await server.request('PUT', '/rest/admin/project/X?projectName=', { user: 'root' }),
      'REST unknown': await server.request('GET', '/rest/nothing', { user: 'root' }),
      'trpc query': await server.request('GET', `/trpc/roles.list`, { user: 'root' }),
      'trpc 401': await server.request('GET', `/trpc/roles.list`),
      login: await server.request('POST', '/rest/user/login', {
        contentType: 'application/x-www-form-urlencoded',
        body: `login=root&password=${ROOT_PASSWORD}`,
      }),
      'login refused': await server.request('POST', '/rest/user/login?login=root&password=wrong'),
      'hook receiver': await server.request('POST', '/rest/vcsHooksReceiver/github?apiKey=nope'),
    };
    for (const [name, res] of Object.entries(answers)) {
      expect(res.headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(res.headers.get('cache-control'), name).toBe('no-store');
    }
    expect(answers.login.status).toBe(200);
    for (const path of ['/rest/openapi.json', '/elsewhere']) {
      const res = await server.request('GET', path);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  it('answers the text that echoes a name as text/plain with nosniff, never as HTML', async () => {
    const name = '<img src=x onerror=alert(1)>';
    const created = await server.request(
      'PUT',
      `/rest/admin/issueLinkType/${encodeURIComponent(name)}?outwardName=a&inwardName=b`,
      { user: 'root' },
    );
    expect(created.status, created.text).toBe(201);
    const deleted = await server.request('DELETE', `/rest/admin/issueLinkType/${encodeURIComponent(name)}`, {
      user: 'root',
    });
    expect(deleted.status).toBe(200);
    expect(deleted.text).toBe(`Issue link type [ ${name} ] was successfully deleted.`);
    expect(deleted.headers.get('content-type')).toBe('text/plain;charset=UTF-8');
    expect(deleted.headers.get('x-content-type-options')).toBe('nosniff');
    // Every answer of this suite so far: JSON, XML or plain text; none is HTML.
    const html = server.responses.filter((r) => /<html|<!doctype/i.test(r.text));
    expect(html).toEqual([]);
  });

  it('echoes a well-formed Host into Location and url attributes', async () => {
    const res = await rawRequest(server.url, 'PUT', '/rest/admin/project/HOSTA?projectName=A', {
      ...ROOT,
      host: 'tracker.example.com:8443',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe('http://tracker.example.com:8443/rest/admin/project/HOSTA');
  });

  it('never echoes a malformed Host: the listening address is used instead', async () => {
    const listening = server.url; // http://127.0.0.1:<port>
    const bad = [
      'evil.example/<script>',
      'a b',
      'x:99999',
      'x:0',
      '[zz]',
      'host:80:80',
      '"><svg>',
      '-bad-',
      'a..b',
    ];
    for (const [i, host] of bad.entries()) {
      const project = `HOSTB${i}`;
      const res = await rawRequest(server.url, 'PUT', `/rest/admin/project/${project}?projectName=B${i}`, {
        ...ROOT,
        host,
      });
      // Either served with the listening address, or refused (tRPC's URL parser rejects some Hosts).
      expect(res.text, host).not.toContain(host);
      if (res.status === 400) continue;
      expect(res.status, `${host}: ${res.text}`).toBe(201);
      expect(res.headers.location, host).toBe(`${listening}/rest/admin/project/${project}`);
      const read = await rawRequest(server.url, 'GET', `/rest/admin/project/${project}`, { ...ROOT, host });
      expect(read.text, host).not.toContain(host);
      expect(read.text).toContain(`${listening}/rest/admin/project/${project}/`);
    }
  });

  it('validates Host headers as host[:port]', () => {
    for (const ok of [
      'localhost',
      'localhost:8080',
      'a.b.example.com',
      '10.0.0.1:80',
      '[::1]:8080',
      '[::1]',
      'my_api:3000',
    ])
      expect(isValidHostHeader(ok), ok).toBe(true);
    for (const bad of [
      '',
      'a b',
      'x:',
      'x:65536',
      '[::1',
      '[::g]',
      'a/b',
      'a@b',
      `${'a'.repeat(300)}.com`,
      '-a.com',
    ])
      expect(isValidHostHeader(bad), bad).toBe(false);
  });

  it('takes absolute URLs from PUBLIC_URL when set, whatever the Host', async () => {
    const env = readEnv({ PUBLIC_URL: 'https://tracker.example.com/yt/' });
    expect(env.PUBLIC_URL).toBe('https://tracker.example.com/yt');
    for (const bad of ['ftp://x', 'not a url', 'https://x/?q=1', 'https://u:p@x'])
      expect(() => readEnv({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL/);
    const pub = await startTestServer({ handler: { publicUrl: env.PUBLIC_URL } });
    try {
      const res = await rawRequest(pub.url, 'PUT', '/rest/admin/project/PUB?projectName=P', {
        ...ROOT,
        host: 'attacker.example',
      });
      expect(res.status, res.text).toBe(201);
      expect(res.headers.location).toBe('https://tracker.example.com/yt/rest/admin/project/PUB');
      const read = await rawRequest(pub.url, 'GET', '/rest/admin/project/PUB', {
        ...ROOT,
        host: 'attacker.example',
        accept: JSON_ACCEPT,
      });
      expect(JSON.parse(read.text).versionsUrl).toBe(
        'https://tracker.example.com/yt/rest/admin/project/PUB/version/',
      );
      const doc = await rawRequest(pub.url, 'GET', '/rest/openapi.json', { host: 'attacker.example' });
      expect(JSON.parse(doc.text).servers).toEqual([{ url: 'https://tracker.example.com/yt/rest' }]);
      expect(header(doc.headers['x-content-type-options'])).toBe('nosniff');
    } finally {
      await pub.close();
    }
  });
});
