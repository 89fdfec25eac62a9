import { User } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fork, JSON_ACCEPT, startTestServer, type TestServer, userWithRole } from '../../harness.js';

/**
 * Issue 37, item 11: any user could set their own e-mail to another user's (any case); that
 * user's commit commands were then skipped as ambiguous. Addresses are unique regardless of case:
 * taking one another account holds is 409 on every route that sets one, and nothing changes.
 */
describe('issue 37 item 11: an e-mail address belongs to one account', () => {
  let server: TestServer;
  const emailOf = async (login: string) =>
    (await fork(server.orm).findOneOrFail(User, { loginKey: login })).email;
  const form = (as: string, body: string) => ({
    user: as,
    accept: JSON_ACCEPT,
    body,
    contentType: 'application/x-www-form-urlencoded',
  });

  beforeAll(async () => {
    server = await startTestServer();
    await userWithRole(server.orm, 'victim', 'Developer');
    await userWithRole(server.orm, 'mallory', 'Developer');
  });
  afterAll(() => server.close());

  it('setting one’s own e-mail to another’s, in another case, is 409; neither changes', async () => {
    for (const email of ['victim@example.com', 'VICTIM@Example.COM']) {
      const res = await server.request(
        'POST',
        '/rest/admin/user/mallory',
        form('mallory', `email=${encodeURIComponent(email)}`),
      );
      expect(res.status, res.text).toBe(409);
      expect(res.json().value).toBe(`E-mail [ ${email} ] is used by another account.`);
    }
    expect(await emailOf('mallory')).toBe('mallory@example.com');
    expect(await emailOf('victim')).toBe('victim@example.com');
  });

  it('in XML too, and changing nothing else of the request (the full name stays)', async () => {
    const res = await server.request(
      'POST',
      '/rest/admin/user/mallory?fullName=Changed&email=victim%40example.com',
      {
        user: 'mallory',
      },
    );
    expect(res.status, res.text).toBe(409);
    expect((await fork(server.orm).findOneOrFail(User, { loginKey: 'mallory' })).fullName).toBe('mallory');
  });

  it('an administrator setting it on another account, and creating an account with it, are 409 as well', async () => {
    const update = await server.request(
      'POST',
      '/rest/admin/user/mallory',
      form('root', 'email=Victim%40example.com'),
    );
    expect(update.status, update.text).toBe(409);
    const create = await server.request(
      'PUT',
      '/rest/admin/user/newbie?fullName=New&email=VICTIM%40example.com&password=Passw0rd-long-enough',
      { user: 'root', accept: JSON_ACCEPT },
    );
    expect(create.status, create.text).toBe(409);
    expect(await fork(server.orm).findOne(User, { loginKey: 'newbie' })).toBeNull();
  });

  it('the user import refuses a taken address per user (also one taken earlier in the same request)', async () => {
    const res = await server.request('PUT', '/rest/import/users', {
      user: 'root',
      accept: JSON_ACCEPT,
      contentType: 'application/xml',
      body:
        '<list><user login="imp_one" email="Victim@example.com"/><user login="imp_two" email="two@example.com"/>' +
        '<user login="imp_three" email="TWO@example.com"/><user login="mallory" email="victim@EXAMPLE.com"/></list>',
    });
    expect(res.status, res.text).toBe(200);
    const items = res.json() as { id: string; imported: boolean; errors?: { fieldName: string }[] }[];
    expect(items.map((i) => [i.id, i.imported])).toEqual([
      ['imp_one', false],
      ['imp_two', true],
      ['imp_three', false],
      ['mallory', false],
    ]);
    expect(items[0]?.errors).toEqual([
      { message: 'email is used by another account', fieldName: 'email', value: 'Victim@example.com' },
    ]);
    expect(await fork(server.orm).findOne(User, { loginKey: 'imp_one' })).toBeNull();
    expect(await emailOf('mallory')).toBe('mallory@example.com');
  });

  it('one’s own address in another case, and a free address, are accepted', async () => {
    const own = await server.request(
      'POST',
      '/rest/admin/user/mallory',
      form('mallory', 'email=Mallory%40Example.com'),
    );
    expect(own.status, own.text).toBe(200);
    const free = await server.request(
      'POST',
      '/rest/admin/user/mallory',
      form('mallory', 'email=m2%40example.com'),
    );
    expect(free.status, free.text).toBe(200);
    expect(await emailOf('mallory')).toBe('m2@example.com');
  });
});
