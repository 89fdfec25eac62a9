import { IssueLinkType, PermanentToken, Project, Role } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createToken,
  expectNoStackTraces,
  fork,
  JSON_ACCEPT,
  startTestServer,
  type TestResponse,
  type TestServer,
  xmlError,
} from './harness.js';

/**
 * Concurrent creates of one name: exactly one 201, every other request a clean 409, and one
 * row. Requests go through a token so that they all reach the use case at the same time
 * (rather than queueing behind password hashing).
 */

const ATTEMPTS = 10;
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  token = await createToken(server, 'root', 'race');
});
afterAll(() => server.close());

const burst = (method: string, paths: string[], accept = '') =>
  Promise.all(paths.map((path) => server.request(method, path, { token, accept })));

function expectOneWinner(responses: TestResponse[], conflict: RegExp) {
  const statuses = responses.map((r) => r.status);
  expect(
    statuses.filter((s) => s === 201),
    statuses.join(','),
  ).toHaveLength(1);
  expect(
    statuses.filter((s) => s === 409),
    statuses.join(','),
  ).toHaveLength(responses.length - 1);
  for (const res of responses.filter((r) => r.status === 409)) expect(xmlError(res.text)).toMatch(conflict);
}

describe(`${ATTEMPTS} concurrent creates of the same name`, () => {
  it('projects: PUT /rest/admin/project/RACE?projectName=Race', async () => {
    const responses = await burst('PUT', Array(ATTEMPTS).fill('/rest/admin/project/RACE?projectName=Race'));
    expectOneWinner(responses, /^Project (\[ RACE \]|with name \[ Race \]) already exists\.$/);
    expect(await fork(server.orm).count(Project, { shortNameKey: 'RACE' })).toBe(1);
  });

  it('projects whose short names differ only in case', async () => {
    const paths = Array.from({ length: ATTEMPTS }, (_, i) => {
      const id = i % 2 === 0 ? 'CASED' : 'cased';
      return `/rest/admin/project/${id}?projectName=Cased%20${i}`;
    });
    expectOneWinner(await burst('PUT', paths), /^Project \[ (CASED|cased) \] already exists\.$/);
    expect(await fork(server.orm).count(Project, { shortNameKey: 'CASED' })).toBe(1);
  });

  it('projects created from a body, answered in JSON', async () => {
    const responses = await Promise.all(
      Array.from({ length: ATTEMPTS }, () =>
        server.request('PUT', '/rest/admin/project', {
          token,
          accept: JSON_ACCEPT,
          contentType: 'application/json',
          body: JSON.stringify({ id: 'BODYRACE', name: 'Body race' }),
        }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    for (const res of responses.filter((r) => r.status !== 201)) {
      expect(res.status).toBe(409);
      expect(res.json()).toMatchObject({ code: 'ALREADY_EXISTS', status: 409 });
    }
    expect(await fork(server.orm).count(Project, { shortNameKey: 'BODYRACE' })).toBe(1);
  });

  it('roles: PUT /rest/admin/role/Racer', async () => {
    const responses = await burst('PUT', Array(ATTEMPTS).fill('/rest/admin/role/Racer?description=fast'));
    expectOneWinner(responses, /^Role \[ Racer \] already exists\.$/);
    expect(await fork(server.orm).count(Role, { nameKey: 'racer' })).toBe(1);
  });

  it('link types: PUT /rest/admin/issueLinkType/Racer', async () => {
    const responses = await burst(
      'PUT',
      Array(ATTEMPTS).fill(
        '/rest/admin/issueLinkType/Racer?outwardName=races&inwardName=is%20raced%20by&directed=true',
      ),
    );
    expectOneWinner(responses, /already exists\.$/);
    expect(await fork(server.orm).count(IssueLinkType, { nameKey: 'racer' })).toBe(1);
  });

  it('tokens: PUT /rest/user/token/twin', async () => {
    const responses = await burst('PUT', Array(ATTEMPTS).fill('/rest/user/token/twin'));
    expectOneWinner(responses, /^Token \[ twin \] already exists\.$/);
    expect(await fork(server.orm).count(PermanentToken, { name: 'twin' })).toBe(1);
  });
});

describe('concurrent idempotent changes', () => {
  it('adding the same permission concurrently succeeds every time and stores it once', async () => {
    expect((await server.request('PUT', '/rest/admin/role/Adder', { token })).status).toBe(201);
    const responses = await burst(
      'POST',
      Array(ATTEMPTS).fill('/rest/admin/role/Adder/permission/CREATE_ISSUE'),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(ATTEMPTS).fill(200));
    const role = await fork(server.orm).findOneOrFail(
      Role,
      { nameKey: 'adder' },
      { populate: ['permissions'] },
    );
    expect(role.permissions.getItems().map((p) => p.key)).toEqual(['CREATE_ISSUE']);
  });

  it('granting the same role concurrently succeeds every time and stores one grant', async () => {
    expect(
      (await server.request('PUT', '/rest/admin/user/granted?password=password-1', { token })).status,
    ).toBe(201);
    const responses = await burst(
      'POST',
      Array(ATTEMPTS).fill('/rest/admin/user/granted/role/Observer?project=RACE'),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(ATTEMPTS).fill(200));
    const projects = await server.request('GET', '/rest/admin/project', {
      user: 'granted',
      password: 'password-1',
      accept: JSON_ACCEPT,
    });
    expect(projects.json()).toEqual([{ id: 'RACE', url: `${server.url}/rest/admin/project/RACE` }]);
  });

  it('concurrent deletes of one project: one 200, the rest 404', async () => {
    const responses = await burst('DELETE', Array(ATTEMPTS).fill('/rest/admin/project/CASED'));
    const statuses = responses.map((r) => r.status);
    expect(
      statuses.filter((s) => s === 200),
      statuses.join(','),
    ).toHaveLength(1);
    expect(
      statuses.filter((s) => s === 404),
      statuses.join(','),
    ).toHaveLength(ATTEMPTS - 1);
    // Trashed once (restorable), not deleted: one row, marked deleted once.
    const rows = await fork(server.orm).find(Project, { shortNameKey: 'CASED' });
    expect(rows.map((p) => p.deletedAt !== null && p.deletedAt !== undefined)).toEqual([true]);
  });
});

describe('hygiene', () => {
  it('no response of this suite carried a stack trace', () => {
    expectNoStackTraces(server);
  });
});
