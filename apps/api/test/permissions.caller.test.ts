import type { PermissionKey } from '@trackline/contracts';
import {
  type Actor,
  addBundleGroup,
  addBundleValue,
  addFieldValue,
  addRolePermission,
  addUserToGroup,
  attachProjectCustomField,
  createBundle,
  createGroup,
  createIssue,
  createLinkType,
  createPermanentToken,
  createProject,
  createPrototype,
  createRole,
  createSavedSearch,
  createSession,
  createTag,
  createVcsIntegration,
  createWebhook,
  createWorkItem,
  createWorkType,
  deleteProject,
  type Em,
  executeCommand,
  grantGroupRole,
  grantRole,
  IssueAttachment,
  IssueComment,
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
import { callProcedure, procedurePaths } from './caller.js';

/**
 * The permission matrix of every tRPC procedure, called in-process through `createCaller`
 * (no HTTP): the decision each use case makes, for five kinds of caller. The wire shapes of
 * those decisions (status, XML/JSON body, legacy messages, 404-vs-403 over REST and /trpc
 * batches) are checked by the thinner HTTP suites (admin.security, bola, issues.security).
 *
 * Callers:
 * - root: the seeded administrator (every permission, globally);
 * - holder: a user holding exactly the row's permissions (a role made for the row), granted
 *   in project PERM for project-scoped ones and globally for global ones;
 * - reader: Observer in PERM only (READ_ISSUE, READ_COMMENT, READ_PROJECT, READ_WORK_ITEM there);
 * - none: a user without any grant;
 * - anonymous: no actor at all.
 *
 * The expectations are written out by hand from the use cases' rules; they are not computed.
 */

type Kind = 'root' | 'holder' | 'reader' | 'none' | 'anonymous';
const KINDS: Kind[] = ['root', 'holder', 'reader', 'none', 'anonymous'];

const OK = 'ok';
/** PERMISSION_DENIED (403). */
const DENIED = 'denied';
/** NOT_FOUND (404): the object is hidden from this caller exactly like a missing one. */
const HIDDEN = 'hidden';
type Outcome = typeof OK | typeof DENIED | typeof HIDDEN;

/** What a row's `input` may use to make the objects its call works on. */
type Arrange = {
  kind: Kind;
  /** A name unique to this row and caller: every write works on its own fresh objects. */
  key: string;
  /** The caller's login (null for anonymous). */
  login: string | null;
  /** The holder's role of this row: grant it where the holder must hold the row's permissions. */
  holderRole: string;
  holderLogin: string;
  em: () => Em;
  root: Actor;
};

type Row = {
  /** The holder's grants: project-scoped permissions are granted in PERM, global ones globally. */
  holder: { project?: PermissionKey[]; global?: PermissionKey[] };
  input: (a: Arrange) => unknown | Promise<unknown>;
  /** Outcomes of the authenticated callers; anonymous is always UNAUTHENTICATED. */
  expect: Record<Exclude<Kind, 'anonymous'>, Outcome>;
};

const P = 'PERM';
/** Issue numbers for the import rows (each call imports a new one). */
let nextImportNumber = 100_000;
const ISSUE = 'PERM-1';

const ANY: Row['expect'] = { root: OK, holder: OK, reader: OK, none: OK };
/** Only root and the holder (the permission is not carried by Observer). */
const HOLDERS: Row['expect'] = { root: OK, holder: OK, reader: DENIED, none: DENIED };

/** A hook root registers for PERM: the holder administers it; the reader and none are not shown it. */
const ADMINISTERS: Row['expect'] = { root: OK, holder: OK, reader: HIDDEN, none: HIDDEN };
async function freshHook(a: Arrange) {
  const name = `Hook_${a.key}`;
  await createWebhook(a.em(), a.root, { name, url: 'https://hooks.example.com/in', projects: [P] });
  return name;
}

/** A fresh project `X_<key>` where the holder holds the row's role and the reader is Observer. */
async function projectFor(a: Arrange, prefix: string) {
  const shortName = `${prefix}_${a.key}`.toUpperCase();
  await createProject(a.em(), a.root, { shortName, name: shortName });
  await grantRole(a.em(), a.root, a.holderLogin, a.holderRole, shortName);
  await grantRole(a.em(), a.root, 'reader', 'Observer', shortName);
  return shortName;
}
async function trashedProject(a: Arrange) {
  const shortName = await projectFor(a, 'T');
  await deleteProject(a.em(), a.root, shortName);
  return shortName;
}
async function freshUser(a: Arrange, prefix: string) {
  const login = `${prefix}_${a.key}`;
  await insertUser(a.em(), { login });
  return login;
}
async function freshGroup(a: Arrange, prefix: string) {
  const name = `${prefix}_${a.key}`;
  await createGroup(a.em(), a.root, name);
  return name;
}
/** A comment by root on ISSUE, for the rows that change someone else's comment. */
async function rootComment(a: Arrange) {
  const text = `comment ${a.key}`;
  await executeCommand(a.em(), a.root, [ISSUE], undefined, text);
  return String((await a.em().findOneOrFail(IssueComment, { text })).id);
}
async function emptyRole(a: Arrange) {
  await createRole(a.em(), a.root, `Empty_${a.key}`);
  return `Empty_${a.key}`;
}
async function freshIntegration(a: Arrange) {
  const name = `Vcs_${a.key}`;
  const { view } = await createVcsIntegration(a.em(), a.root, {
    name,
    host: 'github',
    repository: 'trackline/webapp',
    projects: [P],
    committersRole: 'Developer',
  });
  return { name, integration: view.integration };
}

/** A fresh string field prototype `F_<key>`. */
async function freshPrototype(a: Arrange) {
  await createPrototype(a.em(), a.root, { name: `F_${a.key}`, type: 'string' });
  return `F_${a.key}`;
}
/** A fresh project with a fresh prototype attached to it. */
async function attachedField(a: Arrange) {
  const project = await projectFor(a, 'CF');
  const name = await freshPrototype(a);
  await attachProjectCustomField(a.em(), a.root, project, name, {});
  return { project, name };
}
/** A fresh project whose Subsystem holds `UI` and whose Fix versions hold `1.0`. */
async function projectWithValues(a: Arrange) {
  const project = await projectFor(a, 'SV');
  await addFieldValue(a.em(), a.root, project, 'Subsystem', { name: 'UI' });
  await addFieldValue(a.em(), a.root, project, 'Fix versions', { name: '1.0' });
  return project;
}
/** A fresh project with a build field attached. */
async function projectWithBuilds(a: Arrange) {
  const project = await projectFor(a, 'BL');
  await createPrototype(a.em(), a.root, { name: `Build_${a.key}`, type: 'build[1]' });
  await attachProjectCustomField(a.em(), a.root, project, `Build_${a.key}`, {});
  return project;
}
/** A fresh enum bundle `B_<key>` holding the value `v1` (a user bundle: holding root). */
async function freshBundle(a: Arrange, type: 'bundle' | 'userBundle' = 'bundle') {
  await createBundle(a.em(), a.root, type, {
    name: `B_${a.key}`,
    users: type === 'userBundle' ? ['root'] : [],
  });
  if (type === 'bundle') await addBundleValue(a.em(), a.root, 'bundle', `B_${a.key}`, { name: 'v1' });
  return `B_${a.key}`;
}

// biome-ignore format: one row per procedure, aligned for reading
const ROWS: Record<string, Row> = {
  'customFields.listPrototypes':  { holder: { project: ['UPDATE_PROJECT'] }, input: () => ({}), expect: HOLDERS },
  'customFields.getPrototype':    { holder: { project: ['UPDATE_PROJECT'] }, input: () => ({ name: 'Priority' }), expect: HOLDERS },
  'customFields.createPrototype': { holder: { global: ['UPDATE_PROJECT'] }, input: (a) => ({ name: `N_${a.key}`, type: 'enum[*]' }), expect: HOLDERS },
  'customFields.updatePrototype': { holder: { global: ['UPDATE_PROJECT'] }, input: async (a) => ({ name: await freshPrototype(a), aliases: `al_${a.key}` }), expect: HOLDERS },
  'customFields.deletePrototype': { holder: { global: ['UPDATE_PROJECT'] }, input: async (a) => ({ name: await freshPrototype(a) }), expect: HOLDERS },
  'customFields.listProjectFields': { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: () => ({ project: P }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'customFields.getProjectField': { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: () => ({ project: P, name: 'State' }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'customFields.attachProjectField': { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: async (a) => ({ project: await projectFor(a, 'CF'), name: await freshPrototype(a) }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'customFields.updateProjectField': { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: async (a) => ({ ...(await attachedField(a)), emptyFieldText: 'None' }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'customFields.detachProjectField': { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: async (a) => attachedField(a), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'projectBundles.subsystems':    { holder: { project: ['READ_PROJECT'] }, input: () => ({ project: P }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'projectBundles.subsystem':     { holder: { project: ['READ_PROJECT'] }, input: async (a) => ({ project: await projectWithValues(a), name: 'UI' }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'projectBundles.createSubsystem': { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: async (a) => ({ project: await projectFor(a, 'SV'), name: 'Core', defaultAssignee: 'root' }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'projectBundles.deleteSubsystem': { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: async (a) => ({ project: await projectWithValues(a), name: 'UI' }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'projectBundles.versions':      { holder: { project: ['READ_PROJECT'] }, input: () => ({ project: P }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'projectBundles.version':       { holder: { project: ['READ_PROJECT'] }, input: async (a) => ({ project: await projectWithValues(a), name: '1.0' }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'projectBundles.createVersion': { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: async (a) => ({ project: await projectFor(a, 'SV'), name: '9.0', isReleased: true }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'projectBundles.updateVersion': { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: async (a) => ({ project: await projectWithValues(a), name: '1.0', isArchived: true }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'projectBundles.deleteVersion': { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: async (a) => ({ project: await projectWithValues(a), name: '1.0' }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'projectBundles.builds':        { holder: { project: ['READ_PROJECT'] }, input: () => ({ project: P }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'projectBundles.createBuild':   { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: async (a) => ({ project: await projectWithBuilds(a), name: '101' }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'projectBundles.assignees':     { holder: { project: ['READ_PROJECT'] }, input: () => ({ project: P }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'projectBundles.addAssignee':   { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: async (a) => ({ project: await projectFor(a, 'AS'), login: 'reader' }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'projectBundles.removeAssignee': { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: async (a) => ({ project: await projectFor(a, 'AS'), login: 'root' }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'bundles.addGroup':             { holder: { global: ['UPDATE_PROJECT'] }, input: async (a) => ({ bundle: await freshBundle(a, 'userBundle'), group: await freshGroup(a, 'BG') }), expect: HOLDERS },
  'bundles.removeGroup':          { holder: { global: ['UPDATE_PROJECT'] }, input: async (a) => { const group = await freshGroup(a, 'BG'); const bundle = await freshBundle(a, 'userBundle'); await addBundleGroup(a.em(), a.root, bundle, group); return { bundle, group }; }, expect: HOLDERS },
  'projectBundles.assigneeGroups': { holder: { project: ['READ_PROJECT'] }, input: () => ({ project: P }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'bundles.list':                 { holder: { project: ['UPDATE_PROJECT'] }, input: () => ({ bundleType: 'stateBundle' }), expect: HOLDERS },
  'bundles.get':                  { holder: { project: ['UPDATE_PROJECT'] }, input: () => ({ bundleType: 'bundle', bundle: 'Priorities' }), expect: HOLDERS },
  'bundles.rename':               { holder: { global: ['UPDATE_PROJECT'] }, input: async (a) => ({ bundleType: 'bundle', bundle: await freshBundle(a), newName: `R_${a.key}` }), expect: HOLDERS },
  'bundles.create':               { holder: { global: ['UPDATE_PROJECT'] }, input: (a) => ({ bundleType: 'versionBundle', name: `V_${a.key}`, values: [{ name: '1.0' }] }), expect: HOLDERS },
  'bundles.delete':               { holder: { global: ['UPDATE_PROJECT'] }, input: async (a) => ({ bundleType: 'bundle', bundle: await freshBundle(a) }), expect: HOLDERS },
  'bundles.addValue':             { holder: { global: ['UPDATE_PROJECT'] }, input: async (a) => ({ bundleType: 'bundle', bundle: await freshBundle(a), value: 'v2' }), expect: HOLDERS },
  'bundles.updateValue':          { holder: { global: ['UPDATE_PROJECT'] }, input: async (a) => ({ bundleType: 'bundle', bundle: await freshBundle(a), value: 'v1', colorIndex: 2 }), expect: HOLDERS },
  'bundles.moveValue':            { holder: { global: ['UPDATE_PROJECT'] }, input: async (a) => ({ bundleType: 'bundle', bundle: await freshBundle(a), value: 'v1', position: 0 }), expect: HOLDERS },
  'bundles.deleteValue':          { holder: { global: ['UPDATE_PROJECT'] }, input: async (a) => ({ bundleType: 'bundle', bundle: await freshBundle(a), value: 'v1' }), expect: HOLDERS },
  'bundles.addUser':              { holder: { global: ['UPDATE_PROJECT'] }, input: async (a) => ({ bundle: await freshBundle(a, 'userBundle'), login: 'reader' }), expect: HOLDERS },
  'bundles.removeUser':           { holder: { global: ['UPDATE_PROJECT'] }, input: async (a) => ({ bundle: await freshBundle(a, 'userBundle'), login: 'root' }), expect: HOLDERS },
  'linkTypes.list':               { holder: {}, input: () => ({}), expect: ANY },
  'linkTypes.get':                { holder: {}, input: () => ({ name: 'Depend' }), expect: ANY },
  'linkTypes.count':              { holder: {}, input: () => ({ name: 'Depend' }), expect: ANY },
  'linkTypes.create':             { holder: { global: ['UPDATE_ISSUE_LINK_TYPE'] }, input: (a) => ({ name: `New_${a.key}`, outwardName: `new ${a.key}` }), expect: HOLDERS },
  'linkTypes.update':             { holder: { global: ['UPDATE_ISSUE_LINK_TYPE'] },
    input: async (a) => {
      await createLinkType(a.em(), a.root, `Upd_${a.key}`, { outwardName: `upd ${a.key}` });
      return { name: `Upd_${a.key}`, outwardName: `changed ${a.key}` };
    }, expect: HOLDERS },
  'linkTypes.delete':             { holder: { global: ['UPDATE_ISSUE_LINK_TYPE'] },
    input: async (a) => {
      await createLinkType(a.em(), a.root, `Del_${a.key}`, { outwardName: `del ${a.key}` });
      return { name: `Del_${a.key}` };
    }, expect: HOLDERS },

  'roles.list':                   { holder: { global: ['READ_ROLE'] }, input: () => ({}), expect: HOLDERS },
  'roles.get':                    { holder: { global: ['READ_ROLE'] }, input: () => ({ role: 'Developer' }), expect: HOLDERS },
  'roles.permissions':            { holder: { global: ['READ_ROLE'] }, input: () => ({ role: 'Developer' }), expect: HOLDERS },
  'roles.allPermissions':         { holder: { global: ['READ_ROLE'] }, input: () => ({}), expect: HOLDERS },
  'roles.create':                 { holder: { global: ['CREATE_ROLE'] }, input: (a) => ({ role: `New_${a.key}` }), expect: HOLDERS },
  'roles.update':                 { holder: { global: ['UPDATE_ROLE'] },
    input: async (a) => {
      await createRole(a.em(), a.root, `Upd_${a.key}`);
      return { role: `Upd_${a.key}`, newName: `Renamed_${a.key}` };
    }, expect: HOLDERS },
  'roles.addPermission':          { holder: { global: ['UPDATE_ROLE'] },
    input: async (a) => {
      await createRole(a.em(), a.root, `Add_${a.key}`);
      // A permission the holder holds globally: none may hand out what they do not hold.
      return { role: `Add_${a.key}`, permission: 'UPDATE_ROLE' };
    }, expect: HOLDERS },
  'roles.removePermission':       { holder: { global: ['UPDATE_ROLE'] },
    input: async (a) => {
      await createRole(a.em(), a.root, `Rm_${a.key}`);
      await addRolePermission(a.em(), a.root, `Rm_${a.key}`, 'UPDATE_ROLE');
      return { role: `Rm_${a.key}`, permission: 'UPDATE_ROLE' };
    }, expect: HOLDERS },

  'projects.list':                { holder: {}, input: () => ({}), expect: ANY },
  'projects.grants':              { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: () => ({ project: P }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'projects.fieldOptions':        { holder: { project: ['READ_PROJECT'] }, input: () => ({ project: P }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'projects.get':                 { holder: { project: ['READ_PROJECT'] }, input: () => ({ project: P }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'projects.create':              { holder: { global: ['CREATE_PROJECT'] }, input: (a) => ({ project: `Q_${a.key}`.toUpperCase(), projectName: `Q ${a.key}` }), expect: HOLDERS },
  'projects.createFromBody':      { holder: { global: ['CREATE_PROJECT'] }, input: (a) => ({ id: `B_${a.key}`.toUpperCase(), name: `B ${a.key}` }), expect: HOLDERS },
  'projects.delete':              { holder: { project: ['READ_PROJECT', 'DELETE_PROJECT'] }, input: async (a) => ({ project: await projectFor(a, 'D') }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  // The trash is administered with a global DELETE_PROJECT: no project grant reaches it.
  'projects.trash':               { holder: { global: ['DELETE_PROJECT'] }, input: () => ({}), expect: HOLDERS },
  'projects.restore':             { holder: { global: ['DELETE_PROJECT'] }, input: async (a) => ({ project: await trashedProject(a) }), expect: HOLDERS },
  'projects.purge':               { holder: { global: ['DELETE_PROJECT'] }, input: async (a) => ({ project: await trashedProject(a) }), expect: HOLDERS },

  'users.logout':                 { holder: {}, input: () => ({}), expect: ANY },
  'users.revokeOwnSessions':      { holder: {}, input: () => ({}), expect: ANY },
  'users.revokeSessions':         { holder: { global: ['UPDATE_USER'] },
    input: async (a) => {
      const login = `sessioned_${a.key}`;
      await createSession(a.em(), (await insertUser(a.em(), { login })).id);
      return { login };
    }, expect: HOLDERS },
  'users.changePassword':         { holder: { global: ['LOW_LEVEL_ADMIN'] }, input: async (a) => ({ login: await freshUser(a, 'pw'), newPassword: 'password-2' }), expect: HOLDERS },
  'users.systemUsers':            { holder: { global: ['LOW_LEVEL_ADMIN'] }, input: () => ({}), expect: HOLDERS },
  'users.get':                    { holder: { global: ['READ_USER'] }, input: () => ({ login: 'root' }), expect: HOLDERS },
  'users.account':                { holder: { global: ['READ_USER'] }, input: () => ({ login: 'root' }), expect: HOLDERS },
  'users.setBanned':              { holder: { global: ['UPDATE_USER'] }, input: async (a) => ({ login: await freshUser(a, 'ban'), banned: true }), expect: HOLDERS },
  'users.create':                 { holder: { global: ['CREATE_USER'] }, input: (a) => ({ login: `created_${a.key}`, password: 'password-1' }), expect: HOLDERS },
  // Granting or revoking also needs every permission the role carries: these roles carry none.
  // A grant in a project (UPDATE_PROJECT there, the project hidden from those who cannot read it) ...
  'users.grantRole':              { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] },
    input: async (a) => ({ login: await freshUser(a, 'grantee'), role: await emptyRole(a), project: P }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  // ... and a global one (UPDATE_USER).
  'users.revokeRole':             { holder: { global: ['UPDATE_USER'] },
    input: async (a) => {
      const login = await freshUser(a, 'revokee');
      const role = await emptyRole(a);
      await grantRole(a.em(), a.root, login, role);
      return { login, role };
    }, expect: HOLDERS },
  'groups.list':                  { holder: { global: ['READ_USERGROUP'] }, input: () => ({}), expect: HOLDERS },
  'groups.get':                   { holder: { global: ['READ_USERGROUP'] }, input: () => ({ group: 'All Users' }), expect: HOLDERS },
  'groups.create':                { holder: { global: ['CREATE_USERGROUP'] }, input: (a) => ({ group: `New_${a.key}`, autoJoin: false }), expect: HOLDERS },
  'groups.update':                { holder: { global: ['UPDATE_USERGROUP'] }, input: async (a) => ({ group: await freshGroup(a, 'upd'), description: 'changed' }), expect: HOLDERS },
  'groups.delete':                { holder: { global: ['DELETE_USERGROUP'] }, input: async (a) => ({ group: await freshGroup(a, 'del') }), expect: HOLDERS },
  'groups.roles':                 { holder: { global: ['READ_USERGROUP'] }, input: () => ({ group: 'All Users' }), expect: HOLDERS },
  // Like a user's grants: the role carries nothing, so UPDATE_USERGROUP (global) is all it takes.
  'groups.grantRole':             { holder: { global: ['UPDATE_USERGROUP'] }, input: async (a) => ({ group: await freshGroup(a, 'gr'), role: await emptyRole(a) }), expect: HOLDERS },
  'groups.revokeRole':            { holder: { global: ['UPDATE_USERGROUP'] },
    input: async (a) => {
      const group = await freshGroup(a, 'rv');
      const role = await emptyRole(a);
      await grantGroupRole(a.em(), a.root, group, role);
      return { group, role };
    }, expect: HOLDERS },
  'groups.ofUser':                { holder: { global: ['READ_USERGROUP'] }, input: () => ({ login: 'root' }), expect: HOLDERS },
  'groups.addUser':               { holder: { global: ['UPDATE_USERGROUP'] }, input: async (a) => ({ login: await freshUser(a, 'joiner'), group: await freshGroup(a, 'add') }), expect: HOLDERS },
  'groups.removeUser':            { holder: { global: ['UPDATE_USERGROUP'] },
    input: async (a) => {
      const login = await freshUser(a, 'leaver');
      const group = await freshGroup(a, 'rm');
      await addUserToGroup(a.em(), a.root, login, group);
      return { login, group };
    }, expect: HOLDERS },
  'users.roles':                  { holder: { global: ['READ_USER'] }, input: () => ({ login: 'root' }), expect: HOLDERS },
  'users.list':                   { holder: { global: ['READ_USER'] }, input: () => ({ q: 'root' }), expect: HOLDERS },
  'users.update':                 { holder: { global: ['UPDATE_USER'] }, input: async (a) => ({ login: await freshUser(a, 'upd'), fullName: 'Changed' }), expect: HOLDERS },
  'users.save':                   { holder: { global: ['UPDATE_USER'] }, input: async (a) => ({ login: await freshUser(a, 'sav'), fullName: 'Saved' }), expect: HOLDERS },
  'users.delete':                 { holder: { global: ['DELETE_USER'] }, input: async (a) => ({ login: await freshUser(a, 'gone') }), expect: HOLDERS },
  'users.merge':                  { holder: { global: ['UPDATE_USER', 'DELETE_USER'] }, input: async (a) => ({ login: await freshUser(a, 'kept'), loginToMerge: await freshUser(a, 'merged') }), expect: HOLDERS },
  'users.createToken':            { holder: {}, input: (a) => ({ name: `token_${a.key}` }), expect: ANY },
  'users.revokeToken':            { holder: {},
    input: async (a) => {
      if (a.login) await createPermanentToken(a.em(), await actorFor(ormOf(), a.login), `revoked_${a.key}`);
      return { name: `revoked_${a.key}` };
    }, expect: ANY },
  'users.tokens':                 { holder: {}, input: () => ({}), expect: ANY },

  'issues.create':                { holder: { project: ['READ_PROJECT', 'CREATE_ISSUE'] }, input: () => ({ project: P, summary: 'made by the permission suite' }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'issues.get':                   { holder: { project: ['READ_ISSUE'] }, input: () => ({ issue: ISSUE }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'issues.search':                { holder: {}, input: () => ({ filter: '' }), expect: ANY },
  'issues.execute':               { holder: { project: ['READ_ISSUE', 'CREATE_COMMENT'] }, input: () => ({ issue: ISSUE, comment: 'from the permission suite' }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  // tRPC only (the console): the typed view and list read like `get` and `search`; the command
  // on a selection is `execute`'s rule for each issue.
  'issues.view':                  { holder: { project: ['READ_ISSUE'] }, input: () => ({ issue: ISSUE }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'issues.list':                  { holder: {}, input: () => ({ filter: '' }), expect: ANY },
  'commands.execute':             { holder: { project: ['READ_ISSUE', 'CREATE_COMMENT'] }, input: () => ({ issues: [ISSUE], comment: 'from the permission suite' }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'issues.intellisense':          { holder: { project: ['READ_ISSUE'] }, input: () => ({ issue: ISSUE, command: '' }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  // The legacy spellings (issue 12): the same rules as the routes they mirror.
  'issues.count':                 { holder: {}, input: () => ({ filter: '' }), expect: ANY },
  'issues.countBulk':             { holder: {}, input: () => ({ query: ['', '#Unresolved'] }), expect: ANY },
  'issues.exportLinks':           { holder: {}, input: () => ({}), expect: ANY },
  'issues.searchIntellisense':    { holder: {}, input: () => ({ filter: 'State: ' }), expect: ANY },
  'issues.byProject':             { holder: { project: ['READ_PROJECT', 'READ_ISSUE'] }, input: () => ({ project: P }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'issues.comments':              { holder: { project: ['READ_ISSUE', 'READ_COMMENT'] }, input: () => ({ issue: ISSUE }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  // Root's comment: the holder needs the not-own permission; Observer reads but may not change it.
  'issues.updateComment':         { holder: { project: ['READ_ISSUE', 'READ_COMMENT', 'UPDATE_NOT_OWN_COMMENT'] }, input: async (a) => ({ issue: ISSUE, comment: await rootComment(a), text: `edited ${a.key}` }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'issues.deleteComment':         { holder: { project: ['READ_ISSUE', 'READ_COMMENT', 'DELETE_NOT_OWN_COMMENT'] }, input: async (a) => ({ issue: ISSUE, comment: await rootComment(a) }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'issues.links':                 { holder: { project: ['READ_ISSUE'] }, input: () => ({ issue: ISSUE }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'issues.changes':               { holder: { project: ['READ_ISSUE'] }, input: () => ({ issue: ISSUE }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'issues.activity':              { holder: { project: ['READ_ISSUE'] }, input: () => ({ issue: ISSUE }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'issues.exists':                { holder: { project: ['READ_ISSUE'] }, input: () => ({ issue: ISSUE }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'issues.executeAlias':          { holder: { project: ['READ_ISSUE', 'CREATE_COMMENT'] }, input: () => ({ issue: ISSUE, comment: 'from the permission suite' }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'issues.createByPost':          { holder: { project: ['READ_PROJECT', 'CREATE_ISSUE'] }, input: () => ({ project: P, summary: 'posted by the permission suite' }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'issues.update':                { holder: { project: ['READ_ISSUE', 'UPDATE_ISSUE'] }, input: (a) => ({ issue: ISSUE, summary: `renamed by ${a.key}` }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'issues.delete':                { holder: { project: ['READ_ISSUE', 'DELETE_ISSUE'] },
    input: async (a) => {
      const issue = await createIssue(a.em(), a.root, { project: P, summary: `to delete ${a.key}` });
      return { issue: issue.id };
    }, expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'attachments.list':             { holder: { project: ['READ_ISSUE'] }, input: () => ({ issue: ISSUE }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'attachments.delete':           { holder: { project: ['READ_ISSUE', 'DELETE_ATTACHMENT_ISSUE'] },
    input: async (a) => {
      const [issue] = await a.em().execute<{ id: number }[]>('select id from issues where number_in_project = 1 and project_id = (select id from projects where short_name = ?)', [P]);
      const attachment = await a.em().insert(IssueAttachment, {
        issue: Number(issue?.id), name: `f_${a.key}`, contentHash: '0'.repeat(64), size: 0,
        contentType: 'text/plain', author: a.root.userId, groupName: null, createdAt: new Date(),
      });
      return { issue: ISSUE, attachment: Number(attachment) };
    }, expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  // Time tracking: work items need the work item permissions in the issue's project; another
  // user's item needs UPDATE_NOT_OWN_WORK_ITEM; work types UPDATE_PROJECT globally; the working
  // time LOW_LEVEL_ADMIN; project settings UPDATE_PROJECT there.
  'timeTracking.workItems':       { holder: { project: ['READ_ISSUE', 'READ_WORK_ITEM'] }, input: () => ({ issue: ISSUE }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'timeTracking.createWorkItem':  { holder: { project: ['READ_ISSUE', 'READ_WORK_ITEM', 'CREATE_WORK_ITEM'] }, input: () => ({ issue: ISSUE, duration: 15 }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'timeTracking.updateWorkItem':  { holder: { project: ['READ_ISSUE', 'READ_WORK_ITEM', 'UPDATE_NOT_OWN_WORK_ITEM'] },
    input: async (a) => ({ issue: ISSUE, workItem: (await createWorkItem(a.em(), a.root, ISSUE, { duration: 5 })).id, duration: 10 }),
    expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'timeTracking.deleteWorkItem':  { holder: { project: ['READ_ISSUE', 'READ_WORK_ITEM', 'UPDATE_NOT_OWN_WORK_ITEM'] },
    input: async (a) => ({ issue: ISSUE, workItem: (await createWorkItem(a.em(), a.root, ISSUE, { duration: 5 })).id }),
    expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'timeTracking.importWorkItems': { holder: { global: ['IMPORT_DATA'], project: ['READ_ISSUE'] }, input: () => ({ issue: ISSUE, workItems: [{ date: '1300000000000', duration: '30' }] }), expect: HOLDERS },
  'timeTracking.workTypes':       { holder: {}, input: () => ({}), expect: ANY },
  'timeTracking.createWorkType':  { holder: { global: ['UPDATE_PROJECT'] }, input: (a) => ({ name: `type_${a.key}` }), expect: HOLDERS },
  'timeTracking.createWorkTypeByPost': { holder: { global: ['UPDATE_PROJECT'] }, input: (a) => ({ name: `posted_${a.key}` }), expect: HOLDERS },
  'timeTracking.workType':        { holder: {}, input: async (a) => ({ name: String((await createWorkType(a.em(), a.root, `seen_${a.key}`)).id) }), expect: ANY },
  'timeTracking.projectWorkTypes': { holder: { project: ['READ_PROJECT'] }, input: () => ({ project: P }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'timeTracking.attachProjectWorkType': { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: async (a) => ({ project: P, workType: (await createWorkType(a.em(), a.root, `used_${a.key}`)).name }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'timeTracking.deleteWorkType':  { holder: { global: ['UPDATE_PROJECT'] },
    input: async (a) => ({ name: (await createWorkType(a.em(), a.root, `gone_${a.key}`)).name }), expect: HOLDERS },
  'timeTracking.projectSettings': { holder: { project: ['READ_PROJECT'] }, input: () => ({ project: P }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'timeTracking.setProjectSettings': { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: () => ({ project: P, enabled: true }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'timeTracking.settings':        { holder: {}, input: () => ({}), expect: ANY },
  'timeTracking.setSettings':     { holder: { global: ['LOW_LEVEL_ADMIN'] }, input: () => ({ hoursADay: 8 }), expect: HOLDERS },
  'projects.all':                 { holder: {}, input: () => ({}), expect: ANY },
  'userProfiles.me':              { holder: {}, input: () => ({}), expect: ANY },
  'userProfiles.current':         { holder: {}, input: () => ({}), expect: ANY },
  'userProfiles.get':             { holder: { global: ['READ_USER'] }, input: () => ({ login: 'root' }), expect: HOLDERS },

  'commands.suggest':             { holder: {}, input: () => ({ command: '' }), expect: ANY },
  'commands.underline':           { holder: {}, input: () => ({ command: '' }), expect: ANY },
  'commands.underlineAndSuggest': { holder: {}, input: () => ({ command: '' }), expect: ANY },
  'commands.underlineAndSuggestAndCommands': { holder: {}, input: () => ({ command: '' }), expect: ANY },

  // The import API: IMPORT_DATA globally (it sets authors and times as given), and the target
  // project readable; a project Admin without it is refused.
  'import.users':                 { holder: { global: ['IMPORT_DATA'] }, input: (a) => ({ users: [{ login: `imported_${a.key}`, fullName: 'Imported' }] }), expect: HOLDERS },
  'import.issues':                { holder: { global: ['IMPORT_DATA'], project: ['READ_PROJECT'] },
    input: () => ({ project: P, issues: [{ fields: [
      { name: 'numberInProject', values: [String(nextImportNumber++)] }, { name: 'summary', values: ['imported'] },
      { name: 'created', values: ['1300000000000'] }, { name: 'reporterName', values: ['root'] },
    ] }] }), expect: HOLDERS },
  'import.links':                 { holder: { global: ['IMPORT_DATA'] }, input: () => ({ links: [] }), expect: HOLDERS },

  'folders.list':                 { holder: {}, input: () => ({}), expect: ANY },
  'folders.current':              { holder: {}, input: () => ({}), expect: ANY },
  'folders.setContext':           { holder: {}, input: () => ({}), expect: ANY },
  'folders.get':                  { holder: { project: ['READ_PROJECT'] }, input: () => ({ issueFolder: P }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'folders.savedSearches':        { holder: {}, input: () => ({}), expect: ANY },
  'folders.savedSearch':          { holder: {},
    input: async (a) => {
      if (a.login) await createSavedSearch(a.em(), await actorFor(ormOf(), a.login), { name: `s_${a.key}`, query: '' });
      return { name: `s_${a.key}` };
    }, expect: ANY },
  // The caller's own saved searches and tags need no permission (sharing or others' ones do).
  'folders.saveSearch':           { holder: {}, input: (a) => ({ name: `new_${a.key}`, query: '' }), expect: ANY },
  'folders.deleteSearch':         { holder: {},
    input: async (a) => {
      if (a.login) await createSavedSearch(a.em(), await actorFor(ormOf(), a.login), { name: `del_${a.key}`, query: '' });
      return { name: `del_${a.key}` };
    }, expect: ANY },
  'folders.tags':                 { holder: {}, input: () => ({}), expect: ANY },
  'folders.tag':                  { holder: {},
    input: async (a) => {
      if (a.login) await createTag(a.em(), await actorFor(ormOf(), a.login), { name: `t_${a.key}` });
      return { name: `t_${a.key}` };
    }, expect: ANY },
  'folders.createTag':            { holder: {}, input: (a) => ({ name: `new_${a.key}` }), expect: ANY },
  'folders.deleteTag':            { holder: {},
    input: async (a) => {
      if (a.login) await createTag(a.em(), await actorFor(ormOf(), a.login), { name: `del_${a.key}` });
      return { name: `del_${a.key}` };
    }, expect: ANY },

  // An integration is administered by whoever holds ADMIN_VCS_INTEGRATION and reads every linked project.
  'vcs.list':                     { holder: { global: ['ADMIN_VCS_INTEGRATION'] }, input: () => ({}), expect: HOLDERS },
  'vcs.get':                      { holder: { global: ['ADMIN_VCS_INTEGRATION'], project: ['READ_PROJECT'] }, input: async (a) => ({ name: (await freshIntegration(a)).name }), expect: HOLDERS },
  'vcs.create':                   { holder: { global: ['ADMIN_VCS_INTEGRATION'], project: ['READ_PROJECT'] }, input: (a) => ({ name: `New_${a.key}`, host: 'github', repository: `org/new_${a.key}`, projects: P, committersRole: 'Developer' }), expect: HOLDERS },
  'vcs.update':                   { holder: { global: ['ADMIN_VCS_INTEGRATION'], project: ['READ_PROJECT'] }, input: async (a) => ({ name: (await freshIntegration(a)).name, branches: 'main' }), expect: HOLDERS },
  'vcs.delete':                   { holder: { global: ['ADMIN_VCS_INTEGRATION'], project: ['READ_PROJECT'] }, input: async (a) => ({ name: (await freshIntegration(a)).name }), expect: HOLDERS },
  'vcs.deliveries':               { holder: { global: ['ADMIN_VCS_INTEGRATION'], project: ['READ_PROJECT'] }, input: async (a) => ({ name: (await freshIntegration(a)).name }), expect: HOLDERS },
  'vcs.delivery':                 { holder: { global: ['ADMIN_VCS_INTEGRATION'], project: ['READ_PROJECT'] },
    input: async (a) => {
      const { name, integration } = await freshIntegration(a);
      const receipt = await receiveHook(
        a.em(),
        integration,
        hookRequest('github', githubPush([['a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2', 'nothing referenced', 'x@example.com']]), {
          'x-github-event': 'push',
          'x-github-delivery': `d_${a.key}`,
        }),
      );
      return { name, delivery: 'deliveryId' in receipt ? receipt.deliveryId : 0 };
    }, expect: HOLDERS },

  // Notifications: one's own inbox, channels and subscriptions need nothing; a project's group
  // is read with READ_PROJECT and set with UPDATE_PROJECT there.
  'notifications.inbox':          { holder: {}, input: () => ({}), expect: ANY },
  'notifications.unreadCount':    { holder: {}, input: () => ({}), expect: ANY },
  'notifications.markRead':       { holder: {}, input: () => ({}), expect: ANY },
  'notifications.settings':       { holder: {}, input: () => ({}), expect: ANY },
  'notifications.updateSettings': { holder: {}, input: () => ({ ownChanges: false }), expect: ANY },
  'notifications.subscriptions':  { holder: {}, input: () => ({}), expect: ANY },
  'notifications.subscribe':      { holder: {},
    input: async (a) => {
      if (a.login) await createTag(a.em(), await actorFor(ormOf(), a.login), { name: `n_${a.key}` });
      return { tag: `n_${a.key}`, notify: true };
    }, expect: ANY },
  'notifications.projectGroup':   { holder: { project: ['READ_PROJECT'] }, input: () => ({ project: P }), expect: { root: OK, holder: OK, reader: OK, none: HIDDEN } },
  'notifications.setProjectGroup': { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: () => ({ project: P, group: '' }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  // Webhooks: UPDATE_PROJECT in each of the hook's projects; one the caller may not administer is
  // hidden like a missing one (the list shows only those they may).
  'webhooks.list':                { holder: {}, input: () => ({}), expect: ANY },
  'webhooks.get':                 { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: async (a) => ({ name: await freshHook(a) }), expect: ADMINISTERS },
  'webhooks.create':              { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: (a) => ({ name: `New_${a.key}`, url: 'https://hooks.example.com/in', projects: P }), expect: { root: OK, holder: OK, reader: DENIED, none: HIDDEN } },
  'webhooks.update':              { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: async (a) => ({ name: await freshHook(a), kinds: 'comment.added' }), expect: ADMINISTERS },
  'webhooks.delete':              { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: async (a) => ({ name: await freshHook(a) }), expect: ADMINISTERS },
  'webhooks.deliveries':          { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] }, input: async (a) => ({ name: await freshHook(a) }), expect: ADMINISTERS },
  'webhooks.redeliver':           { holder: { project: ['READ_PROJECT', 'UPDATE_PROJECT'] },
    input: async (a) => {
      const name = await freshHook(a);
      const em = a.em();
      const [event] = await em.execute<{ id: number }[]>(
        "insert into notification_events (issue_id, project_id, author_id, kinds, payload, quiet, created_at, status) values (0, 0, 0, 'issue.created', '[]', false, 0, 'done') returning id",
      );
      const [delivery] = await em.execute<{ id: number }[]>(
        "insert into webhook_deliveries (webhook_id, event_id, status, created_at) values ((select id from webhooks where name = ?), ?, 'failed', 0) returning id",
        [name, event?.id],
      );
      return { name, delivery: Number(delivery?.id) };
    }, expect: ADMINISTERS },
};

let orm: Orm;
const ormOf = () => orm;

/** The row's holder: a role with exactly its permissions, granted where they apply. */
async function makeHolder(path: string, row: Row) {
  const root = await actorFor(orm, 'root');
  const slug = path.replace('.', '_');
  const role = `Only ${slug}`;
  const login = `holder_${slug}`;
  await createRole(fork(orm), root, role, 'permission suite');
  await insertUser(fork(orm), { login });
  const globalRole = `Only global ${slug}`;
  if (row.holder.global?.length) {
    await createRole(fork(orm), root, globalRole, 'permission suite');
    for (const p of row.holder.global) await addRolePermission(fork(orm), root, globalRole, p);
    await grantRole(fork(orm), root, login, globalRole);
  }
  for (const p of row.holder.project ?? []) await addRolePermission(fork(orm), root, role, p);
  await grantRole(fork(orm), root, login, role, P);
  return { login, role };
}

beforeAll(async () => {
  orm = await createTestOrm();
  const root = await actorFor(orm, 'root');
  await createProject(fork(orm), root, { shortName: P, name: 'Permission suite' });
  await createIssue(fork(orm), root, { project: P, summary: 'the issue of the suite' });
  await userWithRole(orm, 'reader', 'Observer', P);
  await userWithRole(orm, 'none');
});
afterAll(() => orm?.close());

describe('every procedure of the app router, through createCaller', () => {
  it('every procedure has a row, and every row a procedure', () => {
    expect(Object.keys(ROWS).sort()).toEqual(procedurePaths());
  });

  for (const [path, row] of Object.entries(ROWS)) {
    describe(path, () => {
      let holder: { login: string; role: string };
      beforeAll(async () => {
        holder = await makeHolder(path, row);
      });

      for (const kind of KINDS) {
        const expected = kind === 'anonymous' ? 'unauthenticated' : row.expect[kind];
        it(`${kind}: ${expected}`, async () => {
          const login = {
            root: 'root',
            holder: holder.login,
            reader: 'reader',
            none: 'none',
            anonymous: null,
          }[kind];
          const root = await actorFor(orm, 'root');
          const input = await row.input({
            kind,
            key: `${kind}_${path.replace('.', '_')}`,
            login,
            holderRole: holder.role,
            holderLogin: holder.login,
            em: () => fork(orm),
            root,
          });
          const actor = login ? await actorFor(orm, login) : null;
          const result = await callProcedure(orm, actor, path, input);
          const outcome = result.ok ? OK : result.code;
          const code = {
            ok: OK,
            denied: 'PERMISSION_DENIED',
            hidden: 'NOT_FOUND',
            unauthenticated: 'UNAUTHENTICATED',
          }[expected];
          expect(outcome).toBe(code);
          // The legacy wording of a refusal; a hidden object reads like a missing one.
          if (!result.ok && expected === DENIED) expect(result.message).toMatch(/no rights/);
          if (!result.ok && expected === HIDDEN)
            expect(result.message).toMatch(/^[\w ]+ \[ .+ \] not found\.$/);
        });
      }
    });
  }
});
