import { createProject, insertUser, Project } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actorFor,
  adminSnapshot,
  expectJsonError,
  expectNoStackTraces,
  expectXmlError,
  fork,
  JSON_ACCEPT,
  startTestServer,
  type TestServer,
  userWithRole,
  xmlError,
} from './harness.js';

/**
 * The wire shapes of the admin REST surface's permission decisions. The decisions themselves
 * (every operation × every seeded role, and every procedure × the permission it needs) are
 * asserted in-process by `permissions.roles.caller.test.ts` and `permissions.caller.test.ts`;
 * here, per route family, one refusal without credentials (401) and one for want of a
 * permission (403) in XML and in JSON with the exact legacy message, one success with its
 * status, and the 404 that hides an unreadable project. Every admin route answers 401 without
 * credentials.
 */

type Caller =
  | 'admin'
  | 'projectAdmin'
  | 'developer'
  | 'reporter'
  | 'observer'
  | 'scopedProjectAdmin'
  | 'noRole';
const CALLERS: Caller[] = [
  'admin',
  'projectAdmin',
  'developer',
  'reporter',
  'observer',
  'scopedProjectAdmin',
  'noRole',
];

const KEY: Record<Caller, string> = {
  admin: 'adm',
  projectAdmin: 'pa',
  developer: 'dev',
  reporter: 'rep',
  observer: 'obs',
  scopedProjectAdmin: 'spa',
  noRole: 'none',
};
const home = (c: Caller) => `HOME_${KEY[c]}`;

type Family = {
  /** A route of the family refused to `deniedAs` (no change happens). */
  denied: { method: 'GET' | 'PUT' | 'POST' | 'DELETE'; path: string; as: Caller; message: string };
  /** A route of the family the admin may call, and its status. */
  allowed: { method: 'GET' | 'PUT' | 'POST' | 'DELETE'; path: string; status: 200 | 201 };
};

/** One row per route family of `/rest/admin`; the messages are the legacy wording, exactly. */
const FAMILIES: Record<string, Family> = {
  webhook: {
    // A hook of every project needs UPDATE_PROJECT globally.
    denied: {
      method: 'PUT',
      path: '/rest/admin/webhook/Wire_dev?url=https%3A%2F%2Fhooks.example.com%2Fin',
      as: 'developer',
      message: 'You have no rights to register a webhook for every project.',
    },
    allowed: {
      method: 'PUT',
      path: '/rest/admin/webhook/Wire_adm?url=https%3A%2F%2Fhooks.example.com%2Fin',
      status: 201,
    },
  },
  timetracking: {
    denied: {
      method: 'PUT',
      path: '/rest/admin/timetracking?hoursADay=6',
      as: 'projectAdmin',
      message: 'You have no rights to change the working time (LOW_LEVEL_ADMIN).',
    },
    allowed: { method: 'PUT', path: '/rest/admin/timetracking?hoursADay=8', status: 200 },
  },
  customfield: {
    denied: {
      method: 'PUT',
      path: '/rest/admin/customfield/field/Wire_dev?type=string',
      as: 'developer',
      message:
        'You have no rights to administer custom fields and bundles (UPDATE_PROJECT in every project).',
    },
    allowed: { method: 'PUT', path: '/rest/admin/customfield/field/Wire_adm?type=enum%5B1%5D', status: 201 },
  },
  group: {
    denied: {
      method: 'GET',
      path: '/rest/admin/group',
      as: 'developer',
      message: 'You have no rights to read group (READ_USERGROUP).',
    },
    allowed: { method: 'PUT', path: '/rest/admin/group/Wire_adm?autoJoin=false', status: 201 },
  },
  issueLinkType: {
    denied: {
      method: 'PUT',
      path: '/rest/admin/issueLinkType/Wire_dev?outwardName=wire',
      as: 'developer',
      message: 'You have no rights to administer issue link types (UPDATE_ISSUE_LINK_TYPE).',
    },
    allowed: { method: 'PUT', path: '/rest/admin/issueLinkType/Wire_adm?outwardName=wire', status: 201 },
  },
  role: {
    denied: {
      method: 'GET',
      path: '/rest/admin/role',
      as: 'developer',
      message: 'You have no rights to read role (READ_ROLE).',
    },
    allowed: { method: 'PUT', path: '/rest/admin/role/Wire_adm?description=wire', status: 201 },
  },
  permission: {
    denied: {
      method: 'GET',
      path: '/rest/admin/permission',
      as: 'observer',
      message: 'You have no rights to read role (READ_ROLE).',
    },
    allowed: { method: 'GET', path: '/rest/admin/permission', status: 200 },
  },
  project: {
    denied: {
      method: 'PUT',
      path: '/rest/admin/project/WIRE_DEV?projectName=Wire',
      as: 'developer',
      message: 'You have no rights to create project (CREATE_PROJECT).',
    },
    allowed: { method: 'PUT', path: '/rest/admin/project/WIRE_ADM?projectName=Wire', status: 201 },
  },
  projectTrash: {
    denied: {
      method: 'GET',
      path: '/rest/admin/projectTrash',
      as: 'developer',
      message: 'You have no rights to see deleted projects (DELETE_PROJECT globally).',
    },
    allowed: { method: 'GET', path: '/rest/admin/projectTrash', status: 200 },
  },
  systemuser: {
    denied: {
      method: 'GET',
      path: '/rest/admin/systemuser',
      as: 'projectAdmin',
      message: 'You have no rights to read system users (LOW_LEVEL_ADMIN).',
    },
    allowed: { method: 'GET', path: '/rest/admin/systemuser', status: 200 },
  },
  user: {
    denied: {
      method: 'PUT',
      path: '/rest/admin/user/wire_dev?password=password-1',
      as: 'developer',
      message: 'You have no rights to create user (CREATE_USER).',
    },
    allowed: { method: 'PUT', path: '/rest/admin/user/wire_adm?password=password-1', status: 201 },
  },
  vcsIntegration: {
    denied: {
      method: 'GET',
      path: '/rest/admin/vcsIntegration',
      as: 'projectAdmin',
      message: 'You have no rights to administer vcs integrations (ADMIN_VCS_INTEGRATION).',
    },
    allowed: { method: 'GET', path: '/rest/admin/vcsIntegration', status: 200 },
  },
};

const VISIBLE_PROJECTS: Record<Exclude<Caller, 'anonymous'>, 'every' | string[]> = {
  admin: 'every',
  projectAdmin: 'every',
  developer: 'every',
  reporter: 'every',
  observer: 'every',
  scopedProjectAdmin: ['HOME_spa'],
  noRole: [],
};

const GLOBAL_ROLE: Record<Caller, string | null> = {
  admin: 'Admin',
  projectAdmin: 'Project Admin',
  developer: 'Developer',
  reporter: 'Reporter',
  observer: 'Observer',
  scopedProjectAdmin: null,
  noRole: null,
};
const login = (c: Caller) => `m_${KEY[c]}`;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  const orm = server.orm;
  const root = await actorFor(orm, 'root');
  const em = () => fork(orm);
  await createProject(em(), root, { shortName: 'SHARED', name: 'Shared' });
  for (const c of CALLERS) {
    await createProject(em(), root, { shortName: home(c), name: `Home ${KEY[c]}` });
    const role = GLOBAL_ROLE[c];
    if (c === 'scopedProjectAdmin') await userWithRole(orm, login(c), 'Project Admin', home(c));
    else await userWithRole(orm, login(c), role ?? undefined);
  }
  await insertUser(em(), { login: 'grantee_dev' });
});
afterAll(() => server.close());

const request = (c: Caller | 'anonymous', method: string, path: string, accept = '', form?: string) =>
  server.request(method, path, {
    accept,
    ...(c === 'anonymous' ? {} : { user: login(c) }),
    ...(form === undefined ? {} : { body: form, contentType: 'application/x-www-form-urlencoded' }),
  });

// Before the matrix, which deletes projects.
describe('what an allowed read shows', () => {
  it('GET /rest/admin/project lists exactly the projects each caller can read', async () => {
    const every = (await fork(server.orm).find(Project, {}, { orderBy: { shortNameKey: 'asc' } })).map(
      (p) => p.shortName,
    );
    expect(every.length).toBeGreaterThan(0);
    for (const [caller, visible] of Object.entries(VISIBLE_PROJECTS) as [Caller, 'every' | string[]][]) {
      const res = await request(caller, 'GET', '/rest/admin/project', JSON_ACCEPT);
      expect(res.status).toBe(200);
      const ids = res.json().map((p: { id: string }) => p.id);
      if (visible === 'every') expect(ids, caller).toEqual(every);
      else expect(ids, caller).toEqual(visible);
    }
  });

  it('a refused grant reveals nothing about which users, roles or projects exist', async () => {
    for (const path of [
      '/rest/admin/user/grantee_dev/role/Observer',
      '/rest/admin/user/no_such_user/role/Observer',
      '/rest/admin/user/grantee_dev/role/NoSuchRole',
    ]) {
      const res = await request('developer', 'POST', path);
      expect(res.status, path).toBe(403);
      expect(xmlError(res.text)).toBe('You have no rights to grant global roles (UPDATE_USER).');
    }
    for (const project of ['SHARED', 'NO_SUCH_PROJECT']) {
      const res = await request(
        'noRole',
        'POST',
        `/rest/admin/user/no_such_user/role/Observer?project=${project}`,
      );
      expect(res.status, project).toBe(404);
      expect(xmlError(res.text)).toBe(`Project [ ${project} ] not found.`);
    }
  });

  it('a denied request in JSON has the JSON error shape', async () => {
    const res = await request('developer', 'GET', '/rest/admin/role', JSON_ACCEPT);
    expect(res.status).toBe(403);
    expect(res.json()).toEqual({
      value: 'You have no rights to read role (READ_ROLE).',
      code: 'PERMISSION_DENIED',
      status: 403,
    });
  });
});

describe('wire shapes per route family', () => {
  for (const [family, { denied, allowed }] of Object.entries(FAMILIES)) {
    describe(family, () => {
      it('401 without credentials, in XML and in JSON; nothing changed', async () => {
        const before = await adminSnapshot(server.orm);
        expectXmlError(
          await request('anonymous', denied.method, denied.path),
          401,
          'Authentication required.',
        );
        expectJsonError(
          await request('anonymous', denied.method, denied.path, JSON_ACCEPT),
          401,
          'UNAUTHENTICATED',
          'Authentication required.',
        );
        expect(await adminSnapshot(server.orm)).toEqual(before);
      });

      it(`403 for ${denied.as}, in XML and in JSON, with the legacy message; nothing changed`, async () => {
        const before = await adminSnapshot(server.orm);
        expectXmlError(await request(denied.as, denied.method, denied.path), 403, denied.message);
        expectJsonError(
          await request(denied.as, denied.method, denied.path, JSON_ACCEPT),
          403,
          'PERMISSION_DENIED',
          denied.message,
        );
        expect(await adminSnapshot(server.orm)).toEqual(before);
      });

      it(`${allowed.status} for the admin`, async () => {
        const res = await request('admin', allowed.method, allowed.path);
        expect(res.status, res.text).toBe(allowed.status);
        if (allowed.status === 201)
          expect(res.headers.get('location')).toMatch(/^http:\/\/.+\/rest\/admin\//);
      });
    });
  }

  it('an unreadable project answers 404 like a missing one, in XML and in JSON', async () => {
    for (const path of ['/rest/admin/project/SHARED', `/rest/admin/project/${home('developer')}`]) {
      expectXmlError(
        await request('scopedProjectAdmin', 'GET', path),
        404,
        `Project [ ${path.split('/').pop()} ] not found.`,
      );
    }
    expectJsonError(
      await request('noRole', 'DELETE', '/rest/admin/project/SHARED', JSON_ACCEPT),
      404,
      'NOT_FOUND',
      'Project [ SHARED ] not found.',
    );
  });
});

describe('coverage', () => {
  it('every admin route of the OpenAPI document answers 401 without credentials', async () => {
    const doc = (await server.request('GET', '/rest/openapi.json')).json();
    const routes = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .filter(([path]) => path.startsWith('/admin/'))
      .flatMap(([path, item]) => Object.keys(item).map((method) => [method.toUpperCase(), path] as const));
    expect(routes.length).toBeGreaterThan(30);
    const families = new Set(routes.map(([, path]) => path.split('/')[2]));
    expect([...families].sort()).toEqual(Object.keys(FAMILIES).sort());
    for (const [method, path] of routes) {
      const concrete = `/rest${path.replace(/\{(\w+)\}/g, 'X1')}`;
      const res = await request('anonymous', method, concrete);
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(401);
    }
  });

  it('no response of this suite carried a stack trace', () => {
    expectNoStackTraces(server);
  });
});
