import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createToken,
  JSON_ACCEPT,
  type RequestOptions,
  startTestServer,
  type TestServer,
  userWithRole,
} from './harness.js';

/**
 * A banned account over HTTP: Basic (even a pair verified moments before, which the server
 * remembers), a session cookie and a permanent token all answer 401 while the ban lasts, and work
 * again once it is lifted (the session excepted: the ban ended it). The permission matrix covers
 * who may ban (permissions.caller.test.ts).
 */

let server: TestServer;
const asRoot: RequestOptions = { user: 'root' };

const call = (path: string, options: RequestOptions) =>
  server.request('GET', `/trpc/${path}?input=${encodeURIComponent(JSON.stringify({}))}`, options);
const setBanned = async (banned: boolean) => {
  const res = await server.request('POST', '/trpc/users.setBanned', {
    ...asRoot,
    contentType: 'application/json',
    body: JSON.stringify({ login: 'mallory', banned }),
  });
  expect(res.status, res.text).toBe(200);
  return res.json().result.data;
};

beforeAll(async () => {
  server = await startTestServer();
  await userWithRole(server.orm, 'mallory', 'Developer');
});
afterAll(() => server?.close());

describe('a banned account', () => {
  it('cannot authenticate by password, session or token while banned, and can again when the ban is lifted', async () => {
    const token = await createToken(server, 'mallory', 'ci');
    const login = await server.request('POST', '/rest/user/login', {
      body: 'login=mallory&password=password-1',
      contentType: 'application/x-www-form-urlencoded',
      accept: JSON_ACCEPT,
    });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const asSession = { headers: { cookie } };
    const asBasic = { user: 'mallory' };
    const asToken = { token };
    for (const as of [asBasic, asSession, asToken])
      expect((await call('userProfiles.me', as)).status).toBe(200);

    expect(await setBanned(true)).toMatchObject({ login: 'mallory', banned: true });
    for (const as of [asBasic, asSession, asToken])
      expect((await call('userProfiles.me', as)).status).toBe(401);
    const again = await server.request('POST', '/rest/user/login', {
      body: 'login=mallory&password=password-1',
      contentType: 'application/x-www-form-urlencoded',
      accept: JSON_ACCEPT,
    });
    // Refused as a wrong password is: nothing tells whether the account exists or is banned.
    expect(again.status).toBe(401);

    expect(await setBanned(false)).toMatchObject({ banned: false });
    expect((await call('userProfiles.me', asBasic)).status).toBe(200);
    expect((await call('userProfiles.me', asToken)).status).toBe(200);
    expect((await call('userProfiles.me', asSession)).status).toBe(401);
  });
});
