import { PermanentToken, Session } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  basic,
  createToken,
  expectJson,
  expectJsonError,
  expectNoStackTraces,
  expectXml,
  expectXmlError,
  fork,
  JSON_ACCEPT,
  rawRequest,
  startTestServer,
  type TestServer,
  userWithRole,
  XML_DECLARATION,
  xmlElements,
} from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await userWithRole(server.orm, 'dev', 'Developer');
  await userWithRole(server.orm, 'other', 'Developer');
});
afterAll(() => server.close());

const FORM = 'application/x-www-form-urlencoded';

async function login(loginName: string, password: string, accept = '') {
  return server.request('POST', '/rest/user/login', {
    contentType: FORM,
    accept,
    body: new URLSearchParams({ login: loginName, password }).toString(),
  });
}

describe('HTTP Basic', () => {
  it('authenticates on every /rest call', async () => {
    const res = await server.request('GET', '/rest/admin/role', { user: 'root' });
    expectXml(res, 200);
    expect(xmlElements(res.text, 'role').map((r) => r.name)).toContain('Admin');
  });

  it('treats logins case-insensitively', async () => {
    expect(
      (await server.request('GET', '/rest/admin/role', { user: 'ROOT', password: 'root-password' })).status,
    ).toBe(200);
  });

  it('refuses a wrong password, an unknown user and malformed credentials with 401 and a challenge', async () => {
    const wrong = await server.request('GET', '/rest/admin/role', {
      user: 'root',
      password: 'not-the-password',
    });
    expectXmlError(wrong, 401, 'Invalid credentials.');
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic realm="trackline"/);
    expectJsonError(
      await server.request('GET', '/rest/admin/role', {
        user: 'ghost',
        password: 'whatever',
        accept: JSON_ACCEPT,
      }),
      401,
      'UNAUTHENTICATED',
      'Invalid credentials.',
    );
    const malformed = await server.request('GET', '/rest/admin/role', {
      headers: { authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` },
    });
    expectXmlError(malformed, 401, 'Malformed Basic credentials.');
    expectXmlError(
      await server.request('GET', '/rest/admin/role', { headers: { authorization: 'Digest realm=x' } }),
      401,
      'Unsupported authorization scheme Digest.',
    );
  });

  it('never lets the system accounts log in with a password (they have none)', async () => {
    expectXmlError(
      await server.request('GET', '/rest/admin/issueLinkType', { user: 'guest', password: '' }),
      401,
      /Malformed Basic credentials\.|Invalid credentials\./,
    );
    expectXmlError(
      await server.request('GET', '/rest/admin/issueLinkType', { user: 'system_user', password: 'anything' }),
      401,
      'Invalid credentials.',
    );
  });
});

describe('no credentials', () => {
  it('answers 401 in XML and JSON on every admin route', async () => {
    const res = await server.request('GET', '/rest/admin/issueLinkType');
    expectXmlError(res, 401, 'Authentication required.');
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="trackline", Bearer');
    expectJsonError(
      await server.request('PUT', '/rest/admin/project/NOAUTH?projectName=x', { accept: JSON_ACCEPT }),
      401,
      'UNAUTHENTICATED',
      'Authentication required.',
    );
  });
});

describe('403 names the missing permission', () => {
  it('in XML and JSON', async () => {
    expectXmlError(
      await server.request('GET', '/rest/admin/role', { user: 'dev' }),
      403,
      'You have no rights to read role (READ_ROLE).',
    );
    expectJsonError(
      await server.request('PUT', '/rest/admin/issueLinkType/X?outwardName=x', {
        user: 'dev',
        accept: JSON_ACCEPT,
      }),
      403,
      'PERMISSION_DENIED',
      'You have no rights to administer issue link types (UPDATE_ISSUE_LINK_TYPE).',
    );
    expectXmlError(
      await server.request('PUT', '/rest/admin/project/NOPE?projectName=x', { user: 'dev' }),
      403,
      'You have no rights to create project (CREATE_PROJECT).',
    );
  });
});

describe('permanent tokens (Bearer perm:)', () => {
  let token: string;

  it('creates a token with PUT /rest/user/token/{name}: 201, Location, the secret once', async () => {
    const res = await server.request('PUT', '/rest/user/token/ci', { user: 'dev', accept: JSON_ACCEPT });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${server.url}/rest/user/token/ci`);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['createdAt', 'lastUsedAt', 'name', 'token']);
    expect(body.name).toBe('ci');
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    expect(body.token).toMatch(new RegExp(`^perm:${b64('dev')}\\.${b64('ci')}\\.[A-Za-z0-9_-]{16,200}$`));
    token = body.token;
    const stored = await fork(server.orm).findOneOrFail(PermanentToken, { name: 'ci' });
    expect(stored.secretHash).not.toContain(token.split('.')[2]);
  });

  it('renders a created token in XML as <token .../>', async () => {
    const res = await server.request('PUT', '/rest/user/token/xml-one', { user: 'dev' });
    expect(res.status).toBe(201);
    expectXml(res, 201);
    const [element] = xmlElements(res.text, 'token');
    expect(element?.name).toBe('xml-one');
    expect(element?.token).toMatch(/^perm:/);
  });

  it('authenticates with the token and gives exactly the owner’s permissions', async () => {
    expectXml(await server.request('GET', '/rest/admin/issueLinkType', { token }), 200);
    expectXmlError(
      await server.request('GET', '/rest/admin/role', { token }),
      403,
      'You have no rights to read role (READ_ROLE).',
    );
    const rootToken = await createToken(server, 'root', 'admin-token');
    expectXml(await server.request('GET', '/rest/admin/role', { token: rootToken }), 200);
  });

  it('lists the caller’s tokens without secrets', async () => {
    const res = await server.request('GET', '/rest/user/token', { token, accept: JSON_ACCEPT });
    const body = expectJson(res, 200);
    expect(body.map((t: { name: string }) => t.name)).toEqual(['ci', 'xml-one']);
    expect(res.text).not.toContain(token.split('.')[2]);
  });

  it('refuses a token with a wrong secret, another user’s login, or a garbled shape', async () => {
    const [prefix, name] = token.split('.');
    expectXmlError(
      await server.request('GET', '/rest/admin/issueLinkType', {
        token: `${prefix}.${name}.${'A'.repeat(32)}`,
      }),
      401,
      'Invalid credentials.',
    );
    const forged = `perm:${Buffer.from('other').toString('base64')}.${name}.${token.split('.')[2]}`;
    expectXmlError(
      await server.request('GET', '/rest/admin/issueLinkType', { token: forged }),
      401,
      'Invalid credentials.',
    );
    expectXmlError(
      await server.request('GET', '/rest/admin/issueLinkType', { token: 'not-a-token' }),
      401,
      'Invalid credentials.',
    );
    expectXmlError(
      await server.request('GET', '/rest/admin/issueLinkType', { headers: { authorization: 'Bearer' } }),
      401,
      'Empty bearer token.',
    );
  });

  it('refuses a second token with the same name (409)', async () => {
    expectXmlError(
      await server.request('PUT', '/rest/user/token/ci', { user: 'dev' }),
      409,
      'Token [ ci ] already exists.',
    );
  });

  it('revokes a token with DELETE: 200, then the token is refused with 401', async () => {
    const res = await server.request('DELETE', '/rest/user/token/ci', { user: 'dev' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expectXmlError(
      await server.request('GET', '/rest/admin/issueLinkType', { token }),
      401,
      'Invalid credentials.',
    );
    expectXmlError(
      await server.request('DELETE', '/rest/user/token/ci', { user: 'dev' }),
      404,
      'Token [ ci ] not found.',
    );
  });

  it('does not let one user revoke another user’s token', async () => {
    const otherToken = await createToken(server, 'other', 'mine');
    expectXmlError(
      await server.request('DELETE', '/rest/user/token/mine', { user: 'dev' }),
      404,
      'Token [ mine ] not found.',
    );
    expect((await server.request('GET', '/rest/admin/issueLinkType', { token: otherToken })).status).toBe(
      200,
    );
  });
});

describe('POST /rest/user/login and the session cookie', () => {
  let setCookie: string;
  let sessionValue: string;

  it('answers <login>ok</login> and exactly one Set-Cookie without Expires', async () => {
    const res = await login('root', 'root-password');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml;charset=UTF-8');
    expect(res.text).toBe('<login>ok</login>');
    const cookies = res.headers.getSetCookie();
    expect(cookies).toHaveLength(1);
    setCookie = cookies[0] as string;
    expect(setCookie).toMatch(/^JSESSIONID=[A-Za-z0-9_-]{16,200}; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(setCookie).not.toMatch(/Expires/i);
    sessionValue = (/^JSESSIONID=([^;]+)/.exec(setCookie) as RegExpExecArray)[1] as string;
    expect(await fork(server.orm).count(Session, {})).toBe(1);
  });

  it('answers the same <login>ok</login> when JSON is asked for (clients compare the body)', async () => {
    const res = await login('dev', 'password-1', JSON_ACCEPT);
    expect(res.status).toBe(200);
    expect(res.text).toBe('<login>ok</login>');
    expect(res.headers.getSetCookie()).toHaveLength(1);
  });

  it('accepts the login and password as query parameters, as the original documented (see security/06)', async () => {
    const res = await server.request('POST', '/rest/user/login?login=dev', {
      contentType: 'application/x-www-form-urlencoded',
      body: 'password=password-1',
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe('<login>ok</login>');
    // The original's page "Log in to YouTrack": POST /rest/user/login?login=…&password=… with no body.
    const query = await server.request('POST', '/rest/user/login?login=dev&password=password-1');
    expect(query.status).toBe(200);
    expect(query.text).toBe('<login>ok</login>');
    expect(query.headers.getSetCookie()).toHaveLength(1);
    expect((await server.request('POST', '/rest/user/login?login=dev&password=wrong')).status).toBe(401);
  });

  it('authenticates with the plain cookie', async () => {
    const res = await rawRequest(server.url, 'GET', '/rest/admin/role', {
      cookie: `JSESSIONID=${sessionValue}`,
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain('<roleRefs>');
  });

  it('authenticates when the raw Set-Cookie value is echoed back verbatim (Python client quirk)', async () => {
    const res = await rawRequest(server.url, 'GET', '/rest/admin/role', { cookie: setCookie });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml;charset=UTF-8');
    expect(res.text).toContain('<roleRefs>');
  });

  it('authenticates when several raw Set-Cookie values are joined with ", " (httplib2), in either order', async () => {
    const otherCookie = 'jetbrains.charisma.main.security.PRINCIPAL=abc; Path=/';
    for (const header of [`${otherCookie}, ${setCookie}`, `${setCookie}, ${otherCookie}`]) {
      const res = await rawRequest(server.url, 'GET', '/rest/admin/role', { cookie: header });
      expect(res.status, header).toBe(200);
    }
  });

  it('refuses an unknown session cookie with 401', async () => {
    const res = await rawRequest(server.url, 'GET', '/rest/admin/role', {
      cookie: `JSESSIONID=${'x'.repeat(43)}; Path=/; HttpOnly`,
    });
    expect(res.status).toBe(401);
    expect(res.text).toBe(`${XML_DECLARATION}<error>Invalid credentials.</error>`);
  });

  it('refuses a bad password with 401 in XML and JSON, without a cookie', async () => {
    const res = await login('root', 'wrong-password');
    expectXmlError(res, 401, 'Incorrect login or password.');
    expect(res.headers.getSetCookie()).toEqual([]);
    expectJsonError(
      await login('root', 'wrong-password', JSON_ACCEPT),
      401,
      'UNAUTHENTICATED',
      'Incorrect login or password.',
    );
    expectXmlError(await login('ghost', 'password-1'), 401, 'Incorrect login or password.');
  });

  it('answers 400 naming the missing field', async () => {
    expectXmlError(
      await server.request('POST', '/rest/user/login', { contentType: FORM, body: 'password=x' }),
      400,
      'login: is required',
    );
    expectJsonError(
      await server.request('POST', '/rest/user/login', {
        contentType: FORM,
        body: 'login=root',
        accept: JSON_ACCEPT,
      }),
      400,
      'VALIDATION_FAILED',
      'password: is required',
    );
  });

  it('a session gives the permissions of its user only', async () => {
    const devLogin = await login('dev', 'password-1');
    const cookie = devLogin.headers.getSetCookie()[0] as string;
    const res = await rawRequest(server.url, 'GET', '/rest/admin/role', { cookie });
    expect(res.status).toBe(403);
    expect(res.text).toBe(`${XML_DECLARATION}<error>You have no rights to read role (READ_ROLE).</error>`);
  });

  it('the basic credentials header wins over a cookie; a failing header is not rescued by a valid cookie', async () => {
    const res = await rawRequest(server.url, 'GET', '/rest/admin/role', {
      cookie: setCookie,
      authorization: basic('root', 'wrong'),
    });
    expect(res.status).toBe(401);
  });
});

describe('hygiene', () => {
  it('no response of this suite carried a stack trace', () => {
    expectNoStackTraces(server);
  });
});
