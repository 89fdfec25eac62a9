import { Project, Role } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminSnapshot,
  createToken,
  expectNoStackTraces,
  fork,
  type RequestOptions,
  startTestServer,
  type TestResponse,
  type TestServer,
  userWithRole,
} from './harness.js';

/**
 * The same procedures over `/trpc` (the transport of the typed client): queries as
 * `GET /trpc/<path>?input=<json>`, mutations as `POST /trpc/<path>` with a JSON body.
 * Errors carry the domain code in `error.data.errorCode` and the HTTP status in `data.httpStatus`.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await userWithRole(server.orm, 'dev', 'Developer');
});
afterAll(() => server.close());

const asRoot: RequestOptions = { user: 'root' };

function query(path: string, input: unknown, options: RequestOptions = asRoot) {
  return server.request('GET', `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, options);
}
function mutate(path: string, input: unknown, options: RequestOptions = asRoot) {
  return server.request('POST', `/trpc/${path}`, {
    ...options,
    contentType: 'application/json',
    body: JSON.stringify(input),
  });
}

function data(res: TestResponse) {
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return res.json().result.data;
}

function expectTrpcError(
  res: TestResponse,
  httpStatus: number,
  errorCode: string,
  message?: string | RegExp,
) {
  expect(res.status, res.text).toBe(httpStatus);
  const { error } = res.json();
  expect(error.data).toMatchObject({ httpStatus, errorCode });
  expect(error.data.stack).toBeUndefined();
  if (typeof message === 'string') expect(error.message).toBe(message);
  else if (message) expect(error.message).toMatch(message);
  return error;
}

describe('queries', () => {
  it('linkTypes.list and linkTypes.get', async () => {
    const list = data(await query('linkTypes.list', {}));
    expect(list.map((t: { name: string }) => t.name)).toEqual(['Depend', 'Duplicate', 'Relates', 'Subtask']);
    expect(data(await query('linkTypes.get', { name: 'relates' }))).toEqual({
      name: 'Relates',
      outwardName: 'relates to',
      inwardName: 'relates to',
      directed: false,
      aggregation: false,
    });
    expect(data(await query('linkTypes.count', { name: 'Depend' }))).toEqual({ value: 0 });
  });

  it('roles.get, roles.list, roles.permissions, roles.allPermissions', async () => {
    expect(data(await query('roles.get', { role: 'Project Admin' }))).toEqual({
      name: 'Project Admin',
      description: 'Administers the projects it is granted in.',
      permissionsUrl: `${server.url}/rest/admin/role/Project%20Admin/permission`,
    });
    expect(data(await query('roles.list', {})).map((r: { name: string }) => r.name)).toEqual([
      'Admin',
      'Developer',
      'Observer',
      'Project Admin',
      'Reporter',
    ]);
    expect(
      data(await query('roles.permissions', { role: 'Observer' })).map((p: { name: string }) => p.name),
    ).toEqual(['READ_COMMENT', 'READ_ISSUE', 'READ_PROJECT', 'READ_USER', 'READ_WORK_ITEM']);
    expect(data(await query('roles.allPermissions', {}))).toHaveLength(50);
  });

  it('users.systemUsers', async () => {
    expect(data(await query('users.systemUsers', {})).map((u: { login: string }) => u.login)).toEqual([
      'deleted_user',
      'guest',
      'root',
      'system_user',
    ]);
  });

  it('authenticates with a permanent token too', async () => {
    const token = await createToken(server, 'dev', 'trpc');
    expect(data(await query('linkTypes.list', {}, { token }))).toHaveLength(4);
  });
});

describe('mutations', () => {
  it('roles: create, update, addPermission, removePermission (no 201 on this transport)', async () => {
    const created = await mutate('roles.create', { role: 'Viaduct', description: ' over tRPC ' });
    expect(created.headers.get('location')).toBeNull();
    expect(data(created)).toEqual({
      name: 'Viaduct',
      description: 'over tRPC',
      permissionsUrl: `${server.url}/rest/admin/role/Viaduct/permission`,
    });
    expect(data(await mutate('roles.update', { role: 'viaduct', newName: 'Bridge' }))).toMatchObject({
      name: 'Bridge',
      description: 'over tRPC',
    });
    expect(data(await mutate('roles.addPermission', { role: 'Bridge', permission: 'READ_ISSUE' }))).toEqual([
      { name: 'READ_ISSUE', description: 'Read Issue' },
    ]);
    expect(
      data(await mutate('roles.removePermission', { role: 'Bridge', permission: 'READ_ISSUE' })),
    ).toEqual([]);
    expect(await fork(server.orm).count(Role, { nameKey: 'bridge' })).toBe(1);
  });

  it('link types: create with JSON booleans, update, delete', async () => {
    expect(
      data(
        await mutate('linkTypes.create', {
          name: 'Clones',
          outwardName: 'clones',
          inwardName: 'is cloned by',
          directed: true,
        }),
      ),
    ).toEqual({
      name: 'Clones',
      outwardName: 'clones',
      inwardName: 'is cloned by',
      directed: true,
      aggregation: false,
    });
    expect(data(await mutate('linkTypes.update', { name: 'Clones', aggregation: true }))).toMatchObject({
      aggregation: true,
    });
    expect(data(await mutate('linkTypes.delete', { name: 'Clones' }))).toEqual({
      value: 'Issue link type [ Clones ] was successfully deleted.',
    });
  });

  it('projects: create (numbers as numbers), get, list, delete', async () => {
    expect(
      data(
        await mutate('projects.create', {
          project: 'TRPC',
          projectName: 'Over tRPC',
          startingNumber: 5,
          lead: 'dev',
        }),
      ),
    ).toMatchObject({ id: 'TRPC', name: 'Over tRPC', lead: 'dev', startingNumber: 5, description: '' });
    expect(data(await query('projects.get', { project: 'trpc' }))).toMatchObject({ id: 'TRPC' });
    expect(data(await query('projects.list', {}))).toEqual([
      { id: 'TRPC', url: `${server.url}/rest/admin/project/TRPC` },
    ]);
    expect(data(await mutate('projects.createFromBody', { id: 'BODY', name: 'Body' }))).toMatchObject({
      id: 'BODY',
    });
    expect(data(await mutate('projects.delete', { project: 'BODY' }))).toEqual({});
    expect(await fork(server.orm).count(Project, { deletedAt: null })).toBe(1);
    expect(data(await query('projects.trash', {}))).toEqual([
      expect.objectContaining({ id: 'BODY', issues: 0 }),
    ]);
    expect(data(await mutate('projects.restore', { project: 'BODY' }))).toMatchObject({ id: 'BODY' });
    expect(data(await mutate('projects.delete', { project: 'BODY' }))).toEqual({});
    expect(data(await mutate('projects.purge', { project: 'BODY' }))).toEqual({});
    expect(await fork(server.orm).count(Project, {})).toBe(1);
  });

  it('users: create and grantRole', async () => {
    expect(data(await mutate('users.create', { login: 'piper', password: 'password-9' }))).toMatchObject({
      login: 'piper',
      type: 'user',
    });
    expect(
      data(await mutate('users.grantRole', { login: 'piper', role: 'Observer', project: 'TRPC' })),
    ).toEqual({});
    const piper = { user: 'piper', password: 'password-9' };
    expect(data(await query('projects.list', {}, piper)).map((p: { id: string }) => p.id)).toEqual(['TRPC']);
  });
});

describe('errors carry the domain code and the HTTP status', () => {
  it('UNAUTHENTICATED 401 without credentials', async () => {
    expectTrpcError(await query('roles.list', {}, {}), 401, 'UNAUTHENTICATED', 'Authentication required.');
    expectTrpcError(
      await query('roles.list', {}, { user: 'root', password: 'nope' }),
      401,
      'UNAUTHENTICATED',
    );
  });

  it('PERMISSION_DENIED 403 naming the permission', async () => {
    expectTrpcError(
      await query('roles.list', {}, { user: 'dev' }),
      403,
      'PERMISSION_DENIED',
      'You have no rights to read role (READ_ROLE).',
    );
    const before = await adminSnapshot(server.orm);
    expectTrpcError(
      await mutate('roles.create', { role: 'Sneaky' }, { user: 'dev' }),
      403,
      'PERMISSION_DENIED',
    );
    expect(await adminSnapshot(server.orm)).toEqual(before);
  });

  it('NOT_FOUND 404', async () => {
    const error = expectTrpcError(
      await query('roles.get', { role: 'Nope' }),
      404,
      'NOT_FOUND',
      'Role [ Nope ] not found.',
    );
    expect(error.data.code).toBe('NOT_FOUND');
    expectTrpcError(
      await mutate('roles.addPermission', { role: 'Admin', permission: 'FLY' }),
      404,
      'NOT_FOUND',
      'Permission [ FLY ] not found.',
    );
    expectTrpcError(await query('nope.nothing', {}), 404, 'NOT_FOUND');
  });

  it('ALREADY_EXISTS 409, also for a name differing only in case', async () => {
    const error = expectTrpcError(
      await mutate('roles.create', { role: 'ADMIN' }),
      409,
      'ALREADY_EXISTS',
      'Role [ ADMIN ] already exists.',
    );
    expect(error.data.code).toBe('CONFLICT');
    expectTrpcError(
      await mutate('projects.create', { project: 'trpc', projectName: 'Again' }),
      409,
      'ALREADY_EXISTS',
      'Project [ trpc ] already exists.',
    );
  });

  it('VALIDATION_FAILED 400 with issues naming the field', async () => {
    const error = expectTrpcError(
      await mutate('projects.create', { project: '1ABC', projectName: 'x' }),
      400,
      'VALIDATION_FAILED',
      'project: must start with a letter and contain only letters, digits and _',
    );
    expect(error.data.issues).toEqual([
      { field: 'project', message: 'must start with a letter and contain only letters, digits and _' },
    ]);
    expect(
      expectTrpcError(await mutate('projects.create', { project: 'OK' }), 400, 'VALIDATION_FAILED').data
        .issues,
    ).toEqual([{ field: 'projectName', message: 'is required' }]);
    expect(
      expectTrpcError(
        await mutate('projects.create', { project: 'OK', projectName: 'x', startingNumber: 0 }),
        400,
        'VALIDATION_FAILED',
      ).data.issues,
    ).toEqual([{ field: 'startingNumber', message: 'must be at least 1' }]);
    expectTrpcError(
      await mutate('projects.create', { project: 'OK', projectName: 'x', lead: 'ghost' }),
      400,
      'VALIDATION_FAILED',
      'projectLeadLogin: user [ ghost ] not found',
    );
    expectTrpcError(
      await mutate('projects.createFromBody', { name: 'x' }),
      400,
      'VALIDATION_FAILED',
      /^id: is required/,
    );
  });

  it('rejects a malformed JSON body with 400', async () => {
    const res = await server.request('POST', '/trpc/roles.create', {
      ...asRoot,
      contentType: 'application/json',
      body: '{"role": ',
    });
    expectTrpcError(res, 400, 'VALIDATION_FAILED');
  });

  it('refuses a mutation over GET and a query over POST (405)', async () => {
    const before = await adminSnapshot(server.orm);
    expectTrpcError(await query('roles.create', { role: 'ViaGet' }), 405, 'NOT_FOUND');
    expect(await adminSnapshot(server.orm)).toEqual(before);
    expectTrpcError(await mutate('roles.get', { role: 'Admin' }), 405, 'NOT_FOUND');
  });

  // REST turns query strings into numbers where the contract takes numbers (rest/route-table.ts),
  // without touching the contract's schemas: /trpc stays strict whatever REST did before.
  it('validates /trpc input the same way before and after the REST route was used', async () => {
    const input = { project: 'STRNUM', projectName: 'String number', startingNumber: '5' };
    const before = await mutate('projects.create', input);
    expect(
      (await server.request('PUT', '/rest/admin/project/WARM?projectName=Warm&startingNumber=2', asRoot))
        .status,
    ).toBe(201);
    const after = await mutate('projects.create', input);
    expect(before.status).toBe(400);
    expect(after.status).toBe(before.status);
  });
});

describe('hygiene', () => {
  it('no response of this suite carried a stack trace', () => {
    expectNoStackTraces(server);
  });
});
