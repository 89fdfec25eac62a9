import {
  addRolePermission,
  createLinkType,
  createProject,
  createRole,
  createSession,
  createVcsIntegration,
  grantRole,
  insertUser,
  type Orm,
  receiveHook,
} from '@trackline/domain';
import {
  actorFor,
  createTestOrm,
  fork,
  githubPush,
  hookRequest,
  userWithRole,
} from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callProcedure } from './caller.js';
import { adminSnapshot } from './harness.js';

/**
 * The admin surface by seeded role, called in-process through `createCaller` (moved here from
 * the HTTP matrix of admin.security.test.ts, which now keeps only the wire shapes). Every
 * caller is tried against every operation; the expected outcome of each pair is written out
 * below, by hand, from the seeded role definitions (`packages/domain/src/model/seed-data.ts`)
 * and the permission each use case requires. It is deliberately NOT computed from that data.
 * `permissions.caller.test.ts` holds the same decisions per permission, for every procedure.
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

/** Success, and the change happened (for a mutation) or nothing changed (for a read). */
const ALLOWED = 'allowed';
/** PERMISSION_DENIED `You have no rights to …`, nothing changed. */
const DENIED = 'denied';
/** NOT_FOUND: a project the caller cannot read answers exactly like a missing one; nothing changed. */
const HIDDEN = 'hidden';
/** UNAUTHENTICATED: no actor; nothing changed. */
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
  procedure: string;
  input: (c: Caller) => unknown;
  /** A success answers NOT_FOUND instead (the trash operations on a project that is not there). */
  okIsNotFound?: true;
  mutates: boolean;
  /** A success is a legacy create: 201 with a Location (on REST). */
  created?: true;
};

const k = (c: Caller) => KEY[c];
const OPERATIONS = {
  'list link types': { procedure: 'linkTypes.list', input: () => ({}), mutates: false },
  'get a link type': { procedure: 'linkTypes.get', input: () => ({ name: 'Depend' }), mutates: false },
  'count a link type’s usages': {
    procedure: 'linkTypes.count',
    input: () => ({ name: 'Depend' }),
    mutates: false,
  },
  'create a link type': {
    procedure: 'linkTypes.create',
    input: (c) => ({ name: `New_${k(c)}`, outwardName: `new ${k(c)}` }),
    mutates: true,
    created: true,
  },
  'update a link type': {
    procedure: 'linkTypes.update',
    input: (c) => ({ name: `Upd_${k(c)}`, outwardName: `changed ${k(c)}` }),
    mutates: true,
  },
  'delete a link type': {
    procedure: 'linkTypes.delete',
    input: (c) => ({ name: `Del_${k(c)}` }),
    mutates: true,
  },
  'list roles': { procedure: 'roles.list', input: () => ({}), mutates: false },
  'get a role': { procedure: 'roles.get', input: () => ({ role: 'Project Admin' }), mutates: false },
  'create a role': {
    procedure: 'roles.create',
    input: (c) => ({ role: `New_${k(c)}`, description: 'new' }),
    mutates: true,
    created: true,
  },
  'update a role': {
    procedure: 'roles.update',
    input: (c) => ({ role: `Upd_${k(c)}`, newName: `Renamed_${k(c)}`, description: 'changed' }),
    mutates: true,
  },
  'list a role’s permissions': {
    procedure: 'roles.permissions',
    input: () => ({ role: 'Developer' }),
    mutates: false,
  },
  'add a permission to a role': {
    procedure: 'roles.addPermission',
    input: (c) => ({ role: `Perm_${k(c)}`, permission: 'CREATE_ISSUE' }),
    mutates: true,
  },
  'remove a permission from a role': {
    procedure: 'roles.removePermission',
    input: (c) => ({ role: `Perm_${k(c)}`, permission: 'READ_ISSUE' }),
    mutates: true,
  },
  'read the permission catalogue': { procedure: 'roles.allPermissions', input: () => ({}), mutates: false },
  'list projects': { procedure: 'projects.list', input: () => ({}), mutates: false },
  'get a project shared by nobody': {
    procedure: 'projects.get',
    input: () => ({ project: 'SHARED' }),
    mutates: false,
  },
  'get the caller’s home project': {
    procedure: 'projects.get',
    input: (c) => ({ project: home(c) }),
    mutates: false,
  },
  'create a project (query parameters)': {
    procedure: 'projects.create',
    input: (c) => ({ project: `NEW_${k(c)}`, projectName: `New ${k(c)}` }),
    mutates: true,
    created: true,
  },
  'create a project (body)': {
    procedure: 'projects.createFromBody',
    input: (c) => ({ id: `BODY_${k(c)}`, name: `Body ${k(c)}` }),
    mutates: true,
    created: true,
  },
  'list system users': { procedure: 'users.systemUsers', input: () => ({}), mutates: false },
  'get another user': { procedure: 'users.get', input: () => ({ login: 'root' }), mutates: false },
  'create a user': {
    procedure: 'users.create',
    input: (c) => ({ login: `created_${k(c)}`, password: 'password-1' }),
    mutates: true,
    created: true,
  },
  'grant a role globally': {
    procedure: 'users.grantRole',
    input: (c) => ({ login: `grantee_${k(c)}`, role: 'Observer' }),
    mutates: true,
  },
  'grant a role in a foreign project': {
    procedure: 'users.grantRole',
    input: (c) => ({ login: `grantee_${k(c)}`, role: 'Developer', project: foreign(c) }),
    mutates: true,
  },
  'grant a role in the caller’s home project': {
    procedure: 'users.grantRole',
    input: (c) => ({ login: `grantee_${k(c)}`, role: 'Reporter', project: home(c) }),
    mutates: true,
  },
  'revoke a global role': {
    procedure: 'users.revokeRole',
    input: (c) => ({ login: `revokee_${k(c)}`, role: 'Observer' }),
    mutates: true,
  },
  'revoke a role in a foreign project': {
    procedure: 'users.revokeRole',
    input: (c) => ({ login: `revokee_${k(c)}`, role: 'Observer', project: foreign(c) }),
    mutates: true,
  },
  'revoke a role in the caller’s home project': {
    procedure: 'users.revokeRole',
    input: (c) => ({ login: `revokee_${k(c)}`, role: 'Observer', project: home(c) }),
    mutates: true,
  },
  'end a user’s sessions': {
    procedure: 'users.revokeSessions',
    input: (c) => ({ login: `sessioned_${k(c)}` }),
    mutates: true,
  },
  'set a user’s password': {
    procedure: 'users.changePassword',
    input: (c) => ({ login: `passwordless_${k(c)}`, newPassword: 'password-1' }),
    mutates: true,
  },
  'list VCS integrations': { procedure: 'vcs.list', input: () => ({}), mutates: false },
  'get a VCS integration': { procedure: 'vcs.get', input: () => ({ name: 'Vcs_shared' }), mutates: false },
  'create a VCS integration': {
    procedure: 'vcs.create',
    input: (c) => ({
      name: `New_${k(c)}`,
      host: 'github',
      repository: `org/new_${k(c)}`,
      projects: 'SHARED',
      committersRole: 'Developer',
    }),
    mutates: true,
    created: true,
  },
  'update a VCS integration': {
    procedure: 'vcs.update',
    input: (c) => ({ name: `Vcs_${k(c)}`, branches: 'main' }),
    mutates: true,
  },
  'delete a VCS integration': {
    procedure: 'vcs.delete',
    input: (c) => ({ name: `Vcs_${k(c)}` }),
    mutates: true,
  },
  'list a VCS integration’s deliveries': {
    procedure: 'vcs.deliveries',
    input: () => ({ name: 'Vcs_shared' }),
    mutates: false,
  },
  'read a delivery report': {
    procedure: 'vcs.delivery',
    input: () => ({ name: 'Vcs_shared', delivery: deliveryId }),
    mutates: false,
  },
  // Allowed callers get NOT_FOUND: the home projects are never in the trash (see security/12-…).
  'list the project trash': { procedure: 'projects.trash', input: () => ({}), mutates: false },
  'restore a deleted project': {
    procedure: 'projects.restore',
    input: (c) => ({ project: home(c) }),
    okIsNotFound: true,
    mutates: false,
  },
  'purge a deleted project': {
    procedure: 'projects.purge',
    input: (c) => ({ project: home(c) }),
    okIsNotFound: true,
    mutates: false,
  },
  'delete a foreign project': {
    procedure: 'projects.delete',
    input: (c) => ({ project: foreign(c) }),
    mutates: true,
  },
  // Last: it removes the scoped Project Admin's only grant.
  'delete the caller’s home project': {
    procedure: 'projects.delete',
    input: (c) => ({ project: home(c) }),
    mutates: true,
  },
} satisfies Record<string, Operation>;
type OperationName = keyof typeof OPERATIONS;

const MATRIX: Record<OperationName, Record<Caller, Outcome>> = {
  'list link types': {
    admin: ALLOWED,
    projectAdmin: ALLOWED,
    developer: ALLOWED,
    reporter: ALLOWED,
    observer: ALLOWED,
    scopedProjectAdmin: ALLOWED,
    noRole: ALLOWED,
    anonymous: UNAUTHENTICATED,
  },
  'get a link type': {
    admin: ALLOWED,
    projectAdmin: ALLOWED,
    developer: ALLOWED,
    reporter: ALLOWED,
    observer: ALLOWED,
    scopedProjectAdmin: ALLOWED,
    noRole: ALLOWED,
    anonymous: UNAUTHENTICATED,
  },
  'count a link type’s usages': {
    admin: ALLOWED,
    projectAdmin: ALLOWED,
    developer: ALLOWED,
    reporter: ALLOWED,
    observer: ALLOWED,
    scopedProjectAdmin: ALLOWED,
    noRole: ALLOWED,
    anonymous: UNAUTHENTICATED,
  },
  'create a link type': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'update a link type': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'delete a link type': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'list roles': {
    admin: ALLOWED,
    projectAdmin: ALLOWED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'get a role': {
    admin: ALLOWED,
    projectAdmin: ALLOWED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'create a role': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'update a role': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'list a role’s permissions': {
    admin: ALLOWED,
    projectAdmin: ALLOWED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'add a permission to a role': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'remove a permission from a role': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'read the permission catalogue': {
    admin: ALLOWED,
    projectAdmin: ALLOWED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'list projects': {
    admin: ALLOWED,
    projectAdmin: ALLOWED,
    developer: ALLOWED,
    reporter: ALLOWED,
    observer: ALLOWED,
    scopedProjectAdmin: ALLOWED,
    noRole: ALLOWED,
    anonymous: UNAUTHENTICATED,
  },
  'get a project shared by nobody': {
    admin: ALLOWED,
    projectAdmin: ALLOWED,
    developer: ALLOWED,
    reporter: ALLOWED,
    observer: ALLOWED,
    scopedProjectAdmin: HIDDEN,
    noRole: HIDDEN,
    anonymous: UNAUTHENTICATED,
  },
  'get the caller’s home project': {
    admin: ALLOWED,
    projectAdmin: ALLOWED,
    developer: ALLOWED,
    reporter: ALLOWED,
    observer: ALLOWED,
    scopedProjectAdmin: ALLOWED,
    noRole: HIDDEN,
    anonymous: UNAUTHENTICATED,
  },
  'create a project (query parameters)': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'create a project (body)': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'list system users': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'get another user': {
    admin: ALLOWED,
    projectAdmin: ALLOWED,
    developer: ALLOWED,
    reporter: ALLOWED,
    observer: ALLOWED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'create a user': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'grant a role globally': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'grant a role in a foreign project': {
    admin: ALLOWED,
    projectAdmin: ALLOWED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: HIDDEN,
    noRole: HIDDEN,
    anonymous: UNAUTHENTICATED,
  },
  'grant a role in the caller’s home project': {
    admin: ALLOWED,
    projectAdmin: ALLOWED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: ALLOWED,
    noRole: HIDDEN,
    anonymous: UNAUTHENTICATED,
  },
  'revoke a global role': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'revoke a role in a foreign project': {
    admin: ALLOWED,
    projectAdmin: ALLOWED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: HIDDEN,
    noRole: HIDDEN,
    anonymous: UNAUTHENTICATED,
  },
  'revoke a role in the caller’s home project': {
    admin: ALLOWED,
    projectAdmin: ALLOWED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: ALLOWED,
    noRole: HIDDEN,
    anonymous: UNAUTHENTICATED,
  },
  'end a user’s sessions': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'set a user’s password': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'list VCS integrations': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'get a VCS integration': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'create a VCS integration': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'update a VCS integration': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'delete a VCS integration': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'list a VCS integration’s deliveries': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'read a delivery report': {
    admin: ALLOWED,
    projectAdmin: DENIED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'list the project trash': {
    admin: ALLOWED,
    projectAdmin: ALLOWED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'restore a deleted project': {
    admin: ALLOWED,
    projectAdmin: ALLOWED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'purge a deleted project': {
    admin: ALLOWED,
    projectAdmin: ALLOWED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: DENIED,
    noRole: DENIED,
    anonymous: UNAUTHENTICATED,
  },
  'delete a foreign project': {
    admin: ALLOWED,
    projectAdmin: ALLOWED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: HIDDEN,
    noRole: HIDDEN,
    anonymous: UNAUTHENTICATED,
  },
  'delete the caller’s home project': {
    admin: ALLOWED,
    projectAdmin: ALLOWED,
    developer: DENIED,
    reporter: DENIED,
    observer: DENIED,
    scopedProjectAdmin: ALLOWED,
    noRole: HIDDEN,
    anonymous: UNAUTHENTICATED,
  },
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

let orm: Orm;
/** A real delivery recorded by the receiver, for the report read. */
let deliveryId = 0;
/**
 * The snapshot after the previous cell: the cells run one after another and nothing else
 * writes in between, so it is the next cell's "before" (one snapshot per cell, not two).
 */
let latest: Awaited<ReturnType<typeof adminSnapshot>> | undefined;

beforeAll(async () => {
  orm = await createTestOrm();
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
  const { view } = await createVcsIntegration(em(), root, {
    name: 'Vcs_shared',
    host: 'github',
    repository: 'trackline/webapp',
    projects: ['SHARED'],
    committersRole: 'Developer',
  });
  const push = githubPush([
    ['a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2', 'No issue referenced', 'someone@example.com'],
  ]);
  const receipt = await receiveHook(
    em(),
    view.integration,
    hookRequest('github', push, { 'x-github-event': 'push', 'x-github-delivery': 'matrix-delivery-1' }),
  );
  expect(receipt.status).toBe(202);
  deliveryId = 'deliveryId' in receipt ? (receipt.deliveryId ?? 0) : 0;
  expect(deliveryId).toBeGreaterThan(0);
});
afterAll(() => orm?.close());

describe('admin permission matrix by seeded role (createCaller)', () => {
  for (const [name, op] of Object.entries(OPERATIONS) as [OperationName, Operation][]) {
    describe(`${op.procedure}: ${name}`, () => {
      for (const caller of CALLERS) {
        const expected = MATRIX[name][caller];
        it(`${caller}: ${expected}`, async () => {
          const actor = caller === 'anonymous' ? null : await actorFor(orm, login(caller));
          const before = latest ?? (await adminSnapshot(orm));
          latest = undefined;
          const result = await callProcedure(orm, actor, op.procedure, op.input(caller));
          const after = await adminSnapshot(orm);
          latest = after;
          const outcome = result.ok ? 'ok' : `${result.code}: ${result.message}`;
          switch (expected) {
            case ALLOWED:
              if (op.okIsNotFound) expect(outcome).toMatch(/^NOT_FOUND: /);
              else expect(outcome).toBe('ok');
              expect(result.context.response.status).toBe(op.created ? 201 : undefined);
              if (op.mutates) expect(after).not.toEqual(before);
              else expect(after).toEqual(before);
              break;
            case DENIED:
              expect(outcome).toMatch(/^PERMISSION_DENIED: You have no rights to .+\.$/);
              expect(after).toEqual(before);
              break;
            case HIDDEN:
              expect(outcome).toMatch(/^NOT_FOUND: Project \[ \w+ \] not found\.$/);
              expect(after).toEqual(before);
              break;
            case UNAUTHENTICATED:
              expect(outcome).toBe('UNAUTHENTICATED: Authentication required.');
              expect(after).toEqual(before);
              break;
          }
        });
      }
    });
  }
});
