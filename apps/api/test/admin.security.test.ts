import {
  addRolePermission,
  createLinkType,
  createProject,
  createRole,
  createSession,
  createVcsIntegration,
  grantRole,
  insertUser,
  Project,
} from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actorFor,
  adminSnapshot,
  expectNoStackTraces,
  fork,
  JSON_ACCEPT,
  startTestServer,
  type TestServer,
  userWithRole,
  xmlError,
} from './harness.js';

/**
 * The permission matrix of the admin REST surface. Every caller is tried against every
 * operation; the expected outcome of each pair is written out below, by hand, from the
 * seeded role definitions (`packages/domain/src/seed/seed-data.ts`) and the permission each
 * use case requires. It is deliberately NOT computed from that data.
 *
 * Callers: the five seeded roles granted globally, Project Admin granted in one project only
 * (its "home" project), a user without any role, and an anonymous caller.
 */

type Caller =
  | 'admin'
  | 'projectAdmin'
  | 'developer'
  | 'reporter'
  | 'observer'
  | 'scopedProjectAdmin'
  | 'noRole'
  | 'anonymous';

/** 2xx and the change happened. */
const ALLOWED = 'allowed';
/** 403 `You have no rights to …`, nothing changed. */
const DENIED = 'denied';
/** 404: a project the caller cannot read answers exactly like a missing one; nothing changed. */
const HIDDEN = 'hidden';
/** 401: no credentials; nothing changed. */
const UNAUTHENTICATED = 'unauthenticated';
type Outcome = typeof ALLOWED | typeof DENIED | typeof HIDDEN | typeof UNAUTHENTICATED;

const CALLERS: Caller[] = [
  'admin',
  'projectAdmin',
  'developer',
  'reporter',
  'observer',
  'scopedProjectAdmin',
  'noRole',
  'anonymous',
];

/** Short suffix for the per-caller objects each mutating operation works on. */
const KEY: Record<Caller, string> = {
  admin: 'adm',
  projectAdmin: 'pa',
  developer: 'dev',
  reporter: 'rep',
  observer: 'obs',
  scopedProjectAdmin: 'spa',
  noRole: 'none',
  anonymous: 'anon',
};
const home = (c: Caller) => `HOME_${KEY[c]}`;
const foreign = (c: Caller) => `FOREIGN_${KEY[c]}`;

type Operation = {
  /** The route template as in the OpenAPI document, for the coverage check. */
  route: string;
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  path: (c: Caller) => string;
  /** Status of a success. */
  ok: 200 | 201 | 404;
  mutates: boolean;
  /** A form body (secrets such as passwords are never sent in the query string). */
  form?: string;
};

const OPERATIONS = {
  'list link types': {
    route: 'GET /admin/issueLinkType',
    method: 'GET',
    path: () => '/rest/admin/issueLinkType',
    ok: 200,
    mutates: false,
  },
  'get a link type': {
    route: 'GET /admin/issueLinkType/{name}',
    method: 'GET',
    path: () => '/rest/admin/issueLinkType/Depend',
    ok: 200,
    mutates: false,
  },
  'count a link type’s usages': {
    route: 'GET /admin/issueLinkType/{name}/count',
    method: 'GET',
    path: () => '/rest/admin/issueLinkType/Depend/count',
    ok: 200,
    mutates: false,
  },
  'create a link type': {
    route: 'PUT /admin/issueLinkType/{name}',
    method: 'PUT',
    path: (c) => `/rest/admin/issueLinkType/New_${KEY[c]}?outwardName=new%20${KEY[c]}`,
    ok: 201,
    mutates: true,
  },
  'update a link type': {
    route: 'POST /admin/issueLinkType/{name}',
    method: 'POST',
    path: (c) => `/rest/admin/issueLinkType/Upd_${KEY[c]}?outwardName=changed%20${KEY[c]}`,
    ok: 200,
    mutates: true,
  },
  'delete a link type': {
    route: 'DELETE /admin/issueLinkType/{name}',
    method: 'DELETE',
    path: (c) => `/rest/admin/issueLinkType/Del_${KEY[c]}`,
    ok: 200,
    mutates: true,
  },
  'list roles': {
    route: 'GET /admin/role',
    method: 'GET',
    path: () => '/rest/admin/role',
    ok: 200,
    mutates: false,
  },
  'get a role': {
    route: 'GET /admin/role/{role}',
    method: 'GET',
    path: () => '/rest/admin/role/Project%20Admin',
    ok: 200,
    mutates: false,
  },
  'create a role': {
    route: 'PUT /admin/role/{role}',
    method: 'PUT',
    path: (c) => `/rest/admin/role/New_${KEY[c]}?description=new`,
    ok: 201,
    mutates: true,
  },
  'update a role': {
    route: 'POST /admin/role/{role}',
    method: 'POST',
    path: (c) => `/rest/admin/role/Upd_${KEY[c]}?newName=Renamed_${KEY[c]}&description=changed`,
    ok: 200,
    mutates: true,
  },
  'list a role’s permissions': {
    route: 'GET /admin/role/{role}/permission',
    method: 'GET',
    path: () => '/rest/admin/role/Developer/permission',
    ok: 200,
    mutates: false,
  },
  'add a permission to a role': {
    route: 'POST /admin/role/{role}/permission/{permission}',
    method: 'POST',
    path: (c) => `/rest/admin/role/Perm_${KEY[c]}/permission/CREATE_ISSUE`,
    ok: 200,
    mutates: true,
  },
  'remove a permission from a role': {
    route: 'DELETE /admin/role/{role}/permission/{permission}',
    method: 'DELETE',
    path: (c) => `/rest/admin/role/Perm_${KEY[c]}/permission/READ_ISSUE`,
    ok: 200,
    mutates: true,
  },
  'read the permission catalogue': {
    route: 'GET /admin/permission',
    method: 'GET',
    path: () => '/rest/admin/permission',
    ok: 200,
    mutates: false,
  },
  'list projects': {
    route: 'GET /admin/project',
    method: 'GET',
    path: () => '/rest/admin/project',
    ok: 200,
    mutates: false,
  },
  'get a project shared by nobody': {
    route: 'GET /admin/project/{project}',
    method: 'GET',
    path: () => '/rest/admin/project/SHARED',
    ok: 200,
    mutates: false,
  },
  'get the caller’s home project': {
    route: 'GET /admin/project/{project}',
    method: 'GET',
    path: (c) => `/rest/admin/project/${home(c)}`,
    ok: 200,
    mutates: false,
  },
  'create a project (query parameters)': {
    route: 'PUT /admin/project/{projectId}',
    method: 'PUT',
    path: (c) => `/rest/admin/project/NEW_${KEY[c]}?projectName=New%20${KEY[c]}`,
    ok: 201,
    mutates: true,
  },
  'create a project (body)': {
    route: 'PUT /admin/project',
    method: 'PUT',
    path: (c) => `/rest/admin/project?id=BODY_${KEY[c]}&name=Body%20${KEY[c]}`,
    ok: 201,
    mutates: true,
  },
  'list system users': {
    route: 'GET /admin/systemuser',
    method: 'GET',
    path: () => '/rest/admin/systemuser',
    ok: 200,
    mutates: false,
  },
  'get another user': {
    route: 'GET /admin/user/{login}',
    method: 'GET',
    path: () => '/rest/admin/user/root',
    ok: 200,
    mutates: false,
  },
  'create a user': {
    route: 'PUT /admin/user/{login}',
    method: 'PUT',
    path: (c) => `/rest/admin/user/created_${KEY[c]}?password=password-1`,
    ok: 201,
    mutates: true,
  },
  'grant a role globally': {
    route: 'POST /admin/user/{login}/role/{role}',
    method: 'POST',
    path: (c) => `/rest/admin/user/grantee_${KEY[c]}/role/Observer`,
    ok: 200,
    mutates: true,
  },
  'grant a role in a foreign project': {
    route: 'POST /admin/user/{login}/role/{role}',
    method: 'POST',
    path: (c) => `/rest/admin/user/grantee_${KEY[c]}/role/Developer?project=${foreign(c)}`,
    ok: 200,
    mutates: true,
  },
  'grant a role in the caller’s home project': {
    route: 'POST /admin/user/{login}/role/{role}',
    method: 'POST',
    path: (c) => `/rest/admin/user/grantee_${KEY[c]}/role/Reporter?project=${home(c)}`,
    ok: 200,
    mutates: true,
  },
  'revoke a global role': {
    route: 'DELETE /admin/user/{login}/role/{role}',
    method: 'DELETE',
    path: (c) => `/rest/admin/user/revokee_${KEY[c]}/role/Observer`,
    ok: 200,
    mutates: true,
  },
  'revoke a role in a foreign project': {
    route: 'DELETE /admin/user/{login}/role/{role}',
    method: 'DELETE',
    path: (c) => `/rest/admin/user/revokee_${KEY[c]}/role/Observer?project=${foreign(c)}`,
    ok: 200,
    mutates: true,
  },
  'revoke a role in the caller’s home project': {
    route: 'DELETE /admin/user/{login}/role/{role}',
    method: 'DELETE',
    path: (c) => `/rest/admin/user/revokee_${KEY[c]}/role/Observer?project=${home(c)}`,
    ok: 200,
    mutates: true,
  },
  'end a user’s sessions': {
    route: 'DELETE /admin/user/{login}/sessions',
    method: 'DELETE',
    path: (c) => `/rest/admin/user/sessioned_${KEY[c]}/sessions`,
    ok: 200,
    mutates: true,
  },
  'set a user’s password': {
    route: 'POST /admin/user/{login}/password',
    method: 'POST',
    path: (c) => `/rest/admin/user/passwordless_${KEY[c]}/password`,
    form: 'newPassword=password-1',
    ok: 200,
    mutates: true,
  },
  'list VCS integrations': {
    route: 'GET /admin/vcsIntegration',
    method: 'GET',
    path: () => '/rest/admin/vcsIntegration',
    ok: 200,
    mutates: false,
  },
  'get a VCS integration': {
    route: 'GET /admin/vcsIntegration/{name}',
    method: 'GET',
    path: () => '/rest/admin/vcsIntegration/Vcs_shared',
    ok: 200,
    mutates: false,
  },
  'create a VCS integration': {
    route: 'PUT /admin/vcsIntegration/{name}',
    method: 'PUT',
    path: (c) =>
      `/rest/admin/vcsIntegration/New_${KEY[c]}?host=github&repository=org/new_${KEY[c]}&projects=SHARED&committersRole=Developer`,
    ok: 201,
    mutates: true,
  },
  'update a VCS integration': {
    route: 'POST /admin/vcsIntegration/{name}',
    method: 'POST',
    path: (c) => `/rest/admin/vcsIntegration/Vcs_${KEY[c]}?branches=main`,
    ok: 200,
    mutates: true,
  },
  'delete a VCS integration': {
    route: 'DELETE /admin/vcsIntegration/{name}',
    method: 'DELETE',
    path: (c) => `/rest/admin/vcsIntegration/Vcs_${KEY[c]}`,
    ok: 200,
    mutates: true,
  },
  'list a VCS integration’s deliveries': {
    route: 'GET /admin/vcsIntegration/{name}/delivery',
    method: 'GET',
    path: () => '/rest/admin/vcsIntegration/Vcs_shared/delivery',
    ok: 200,
    mutates: false,
  },
  'read a delivery report': {
    route: 'GET /admin/vcsIntegration/{name}/delivery/{delivery}',
    method: 'GET',
    path: () => deliveryPath,
    ok: 200,
    mutates: false,
  },
  // Allowed callers get 404: the home projects are never in the trash (see security/12-…).
  'list the project trash': {
    route: 'GET /admin/projectTrash',
    method: 'GET',
    path: () => '/rest/admin/projectTrash',
    ok: 200,
    mutates: false,
  },
  'restore a deleted project': {
    route: 'POST /admin/projectTrash/{project}/restore',
    method: 'POST',
    path: (c) => `/rest/admin/projectTrash/${home(c)}/restore`,
    ok: 404,
    mutates: false,
  },
  'purge a deleted project': {
    route: 'DELETE /admin/projectTrash/{project}',
    method: 'DELETE',
    path: (c) => `/rest/admin/projectTrash/${home(c)}`,
    ok: 404,
    mutates: false,
  },
  'delete a foreign project': {
    route: 'DELETE /admin/project/{project}',
    method: 'DELETE',
    path: (c) => `/rest/admin/project/${foreign(c)}`,
    ok: 200,
    mutates: true,
  },
  // Last: it removes the scoped Project Admin's only grant.
  'delete the caller’s home project': {
    route: 'DELETE /admin/project/{project}',
    method: 'DELETE',
    path: (c) => `/rest/admin/project/${home(c)}`,
    ok: 200,
    mutates: true,
  },
} satisfies Record<string, Operation>;
type OperationName = keyof typeof OPERATIONS;

// biome-ignore format: one row per operation, one column per caller, aligned for reading
const MATRIX: Record<OperationName, Record<Caller, Outcome>> = {
  'list link types':                           { admin: ALLOWED, projectAdmin: ALLOWED, developer: ALLOWED, reporter: ALLOWED, observer: ALLOWED, scopedProjectAdmin: ALLOWED, noRole: ALLOWED, anonymous: UNAUTHENTICATED },
  'get a link type':                           { admin: ALLOWED, projectAdmin: ALLOWED, developer: ALLOWED, reporter: ALLOWED, observer: ALLOWED, scopedProjectAdmin: ALLOWED, noRole: ALLOWED, anonymous: UNAUTHENTICATED },
  'count a link type’s usages':                { admin: ALLOWED, projectAdmin: ALLOWED, developer: ALLOWED, reporter: ALLOWED, observer: ALLOWED, scopedProjectAdmin: ALLOWED, noRole: ALLOWED, anonymous: UNAUTHENTICATED },
  'create a link type':                        { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'update a link type':                        { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'delete a link type':                        { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'list roles':                                { admin: ALLOWED, projectAdmin: ALLOWED, developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'get a role':                                { admin: ALLOWED, projectAdmin: ALLOWED, developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'create a role':                             { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'update a role':                             { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'list a role’s permissions':                 { admin: ALLOWED, projectAdmin: ALLOWED, developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'add a permission to a role':                { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'remove a permission from a role':           { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'read the permission catalogue':             { admin: ALLOWED, projectAdmin: ALLOWED, developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'list projects':                             { admin: ALLOWED, projectAdmin: ALLOWED, developer: ALLOWED, reporter: ALLOWED, observer: ALLOWED, scopedProjectAdmin: ALLOWED, noRole: ALLOWED, anonymous: UNAUTHENTICATED },
  'get a project shared by nobody':            { admin: ALLOWED, projectAdmin: ALLOWED, developer: ALLOWED, reporter: ALLOWED, observer: ALLOWED, scopedProjectAdmin: HIDDEN,  noRole: HIDDEN,  anonymous: UNAUTHENTICATED },
  'get the caller’s home project':             { admin: ALLOWED, projectAdmin: ALLOWED, developer: ALLOWED, reporter: ALLOWED, observer: ALLOWED, scopedProjectAdmin: ALLOWED, noRole: HIDDEN,  anonymous: UNAUTHENTICATED },
  'create a project (query parameters)':       { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'create a project (body)':                   { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'list system users':                         { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'get another user':                          { admin: ALLOWED, projectAdmin: ALLOWED, developer: ALLOWED, reporter: ALLOWED, observer: ALLOWED, scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'create a user':                             { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'grant a role globally':                     { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'grant a role in a foreign project':         { admin: ALLOWED, projectAdmin: ALLOWED, developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: HIDDEN,  noRole: HIDDEN,  anonymous: UNAUTHENTICATED },
  'grant a role in the caller’s home project': { admin: ALLOWED, projectAdmin: ALLOWED, developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: ALLOWED, noRole: HIDDEN,  anonymous: UNAUTHENTICATED },
  'revoke a global role':                      { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'revoke a role in a foreign project':        { admin: ALLOWED, projectAdmin: ALLOWED, developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: HIDDEN,  noRole: HIDDEN,  anonymous: UNAUTHENTICATED },
  'revoke a role in the caller’s home project':{ admin: ALLOWED, projectAdmin: ALLOWED, developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: ALLOWED, noRole: HIDDEN,  anonymous: UNAUTHENTICATED },
  'end a user’s sessions':                     { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'set a user’s password':                     { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'list VCS integrations':                     { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'get a VCS integration':                     { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'create a VCS integration':                  { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'update a VCS integration':                  { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'delete a VCS integration':                  { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'list a VCS integration’s deliveries':       { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'read a delivery report':                    { admin: ALLOWED, projectAdmin: DENIED,  developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'list the project trash':                    { admin: ALLOWED, projectAdmin: ALLOWED, developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'restore a deleted project':                 { admin: ALLOWED, projectAdmin: ALLOWED, developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'purge a deleted project':                   { admin: ALLOWED, projectAdmin: ALLOWED, developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: DENIED,  noRole: DENIED,  anonymous: UNAUTHENTICATED },
  'delete a foreign project':                  { admin: ALLOWED, projectAdmin: ALLOWED, developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: HIDDEN,  noRole: HIDDEN,  anonymous: UNAUTHENTICATED },
  'delete the caller’s home project':          { admin: ALLOWED, projectAdmin: ALLOWED, developer: DENIED,  reporter: DENIED,  observer: DENIED,  scopedProjectAdmin: ALLOWED, noRole: HIDDEN,  anonymous: UNAUTHENTICATED },
};

/** Which projects `GET /rest/admin/project` shows each caller ('every' = all that exist). */
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
  anonymous: null,
};
const login = (c: Caller) => `m_${KEY[c]}`;

let server: TestServer;
/** A real delivery recorded by the receiver, for the report read. */
let deliveryPath = '';

beforeAll(async () => {
  server = await startTestServer();
  const orm = server.orm;
  const root = await actorFor(orm, 'root');
  const em = () => fork(orm);
  await createProject(em(), root, { shortName: 'SHARED', name: 'Shared' });
  for (const c of CALLERS) {
    const k = KEY[c];
    await createProject(em(), root, { shortName: home(c), name: `Home ${k}` });
    await createProject(em(), root, { shortName: foreign(c), name: `Foreign ${k}` });
    await createLinkType(em(), root, `Upd_${k}`, { outwardName: `upd ${k}` });
    await createLinkType(em(), root, `Del_${k}`, { outwardName: `del ${k}` });
    await createRole(em(), root, `Upd_${k}`, 'to update');
    await createRole(em(), root, `Perm_${k}`, 'to change permissions of');
    await addRolePermission(em(), root, `Perm_${k}`, 'READ_ISSUE');
    await insertUser(em(), { login: `grantee_${k}` });
    await insertUser(em(), { login: `revokee_${k}` });
    await grantRole(em(), root, `revokee_${k}`, 'Observer');
    await grantRole(em(), root, `revokee_${k}`, 'Observer', foreign(c));
    await grantRole(em(), root, `revokee_${k}`, 'Observer', home(c));
    await createSession(em(), (await insertUser(em(), { login: `sessioned_${k}` })).id);
    await insertUser(em(), { login: `passwordless_${k}` });
    await createVcsIntegration(em(), root, {
      name: `Vcs_${k}`,
      host: 'github',
      repository: `org/vcs_${k}`,
      projects: ['SHARED'],
      committersRole: 'Developer',
    });
    if (c === 'anonymous') continue;
    const role = GLOBAL_ROLE[c];
    if (c === 'scopedProjectAdmin') await userWithRole(orm, login(c), 'Project Admin', home(c));
    else await userWithRole(orm, login(c), role ?? undefined);
  }
});
afterAll(() => server.close());

beforeAll(async () => {
  const { apiKey } = await createVcsIntegration(fork(server.orm), await actorFor(server.orm, 'root'), {
    name: 'Vcs_shared',
    host: 'github',
    repository: 'org/shared',
    projects: ['SHARED'],
    committersRole: 'Developer',
  });
  const push = {
    ref: 'refs/heads/main',
    repository: { full_name: 'org/shared' },
    commits: [
      {
        id: 'a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2',
        message: 'No issue referenced',
        timestamp: '2026-11-01T10:00:00Z',
        url: 'https://example.com/c/1',
        author: { name: 'Someone', email: 'someone@example.com' },
      },
    ],
  };
  const res = await server.request('POST', `/rest/vcsHooksReceiver/github?apiKey=${apiKey}`, {
    body: JSON.stringify(push),
    contentType: 'application/json',
    accept: JSON_ACCEPT,
    headers: { 'x-github-event': 'push', 'x-github-delivery': 'matrix-delivery-1' },
  });
  expect(res.status, res.text).toBe(202);
  deliveryPath = new URL(res.headers.get('location') ?? '', server.url).pathname;
  expect(deliveryPath).toMatch(/^\/rest\/admin\/vcsIntegration\/Vcs_shared\/delivery\/\d+$/);
});

const request = (c: Caller, method: string, path: string, accept = '', form?: string) =>
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

describe('permission matrix', () => {
  for (const [name, op] of Object.entries(OPERATIONS) as [OperationName, Operation][]) {
    describe(`${op.method} ${name}`, () => {
      for (const caller of CALLERS) {
        const expected = MATRIX[name][caller];
        it(`${caller}: ${expected}`, async () => {
          const before = await adminSnapshot(server.orm);
          const res = await request(caller, op.method, op.path(caller), '', op.form);
          const after = await adminSnapshot(server.orm);
          switch (expected) {
            case ALLOWED:
              expect(res.status, res.text).toBe(op.ok);
              if (op.mutates) expect(after).not.toEqual(before);
              else expect(after).toEqual(before);
              break;
            case DENIED:
              expect(res.status, res.text).toBe(403);
              expect(xmlError(res.text)).toMatch(/^You have no rights to .+\.$/);
              expect(after).toEqual(before);
              break;
            case HIDDEN:
              expect(res.status, res.text).toBe(404);
              expect(xmlError(res.text)).toMatch(/^Project \[ \w+ \] not found\.$/);
              expect(after).toEqual(before);
              break;
            case UNAUTHENTICATED:
              expect(res.status, res.text).toBe(401);
              expect(xmlError(res.text)).toBe('Authentication required.');
              expect(after).toEqual(before);
              break;
          }
        });
      }
    });
  }
});

describe('coverage', () => {
  it('the matrix covers every admin route of the OpenAPI document', async () => {
    const doc = (await server.request('GET', '/rest/openapi.json')).json();
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .filter(([path]) => path.startsWith('/admin/'))
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    const covered = [...new Set(Object.values(OPERATIONS).map((op: Operation) => op.route))].sort();
    expect(covered).toEqual(documented);
  });

  it('no response of this suite carried a stack trace', () => {
    expectNoStackTraces(server);
  });
});
