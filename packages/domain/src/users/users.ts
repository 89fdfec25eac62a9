import { type Actor, requirePermission } from '../auth/actor.js';
import { hashPassword } from '../auth/password.js';
import { emitSecurityEvent } from '../auth/security-events.js';
import { DomainError } from '../errors.js';
import { byRole, joinAutoJoinGroups, type RoleScopes, requireHoldsAutoJoinRoles } from '../groups/groups.js';
import { RoleGrant } from '../model/role.entity.js';
import { type IUser, User } from '../model/user.entity.js';
import type { Em } from '../orm/em.js';
import { isUniqueViolation, onUniqueViolation } from '../orm/unique.js';
import { resolveGrant } from '../roles/grant-rules.js';
import { emailKeyOf, emailTaken, requireEmailFree } from './email-keys.js';
import { loginSkeletonKey, requireDistinctLogin } from './login-skeleton.js';

export type NewUser = {
  login: string;
  fullName?: string | undefined;
  email?: string | undefined;
  jabber?: string | undefined;
  password?: string | undefined;
  /** Who sets the e-mail, when not the owner (see `User.emailSetBy`); absent for the seed and tests. */
  emailSetBy?: number | undefined;
  /** A hash already made by `hashPassword` (the test kit's cheap-cost users); wins over `password`. */
  passwordHash?: string | undefined;
  type?: IUser['type'];
};

/** Inserts a user without a permission check: for the seed and for tests. */
export async function insertUser(em: Em, input: NewUser): Promise<IUser> {
  const user = em.create(User, {
    login: input.login,
    loginKey: input.login.toLowerCase(),
    loginSkeleton: loginSkeletonKey(input.login),
    fullName: input.fullName ?? input.login,
    email: input.email ?? null,
    emailKey: input.email ? emailKeyOf(input.email) : null,
    emailSetBy: input.email ? (input.emailSetBy ?? null) : null,
    jabber: input.jabber ?? null,
    passwordHash: input.passwordHash ?? (input.password ? await hashPassword(input.password) : null),
    type: input.type ?? 'user',
    contextFolder: null,
  });
  try {
    await em.flush();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // The login's unique index, or (a concurrent writer passed the check) the e-mail's, which the
    // driver's message names (`users_email_key_unique`, `users.email_key`).
    throw input.email && /email_key/.test(String((error as Error).message))
      ? emailTaken(input.email)
      : DomainError.alreadyExists('User', input.login);
  }
  // Humans only: a group's roles must not reach guest, workflow or service accounts unasked.
  if (user.type === 'user') await joinAutoJoinGroups(em, user.id);
  return user;
}

export async function createUser(em: Em, actor: Actor, input: NewUser): Promise<IUser> {
  requirePermission(actor, 'CREATE_USER');
  if (await em.findOne(User, { loginKey: input.login.toLowerCase() })) {
    throw DomainError.alreadyExists('User', input.login);
  }
  // A login that looks like another account's (`ɾoot`, `гоот` beside `root`) is refused: 409.
  await requireDistinctLogin(em, input.login);
  if (input.email) await requireEmailFree(em, input.email, null);
  await requireHoldsAutoJoinRoles(em, actor);
  const user = await insertUser(em, { ...input, type: 'user', emailSetBy: actor.userId });
  emitSecurityEvent(em, actor, { event: 'user.created', target: user.login });
  return user;
}

export async function getUser(em: Em, actor: Actor, login: string): Promise<IUser> {
  if (login.toLowerCase() !== actor.login.toLowerCase()) requirePermission(actor, 'READ_USER');
  const user = await em.findOne(User, { loginKey: login.toLowerCase() });
  if (!user) throw DomainError.notFound('User', login);
  return user;
}

/** Non-human accounts (root, guest, the workflow user, service accounts), for import scripts. */
export function listSystemUsers(em: Em, actor: Actor): Promise<IUser[]> {
  requirePermission(actor, 'LOW_LEVEL_ADMIN', undefined, 'read system users (LOW_LEVEL_ADMIN)');
  return em.find(User, { type: { $ne: 'user' } }, { orderBy: { loginKey: 'asc' } });
}

const resolveUserGrant = (em: Em, actor: Actor, login: string, roleName: string, projectName?: string) =>
  resolveGrant(em, actor, { roleName, projectName, globalPermission: 'UPDATE_USER' }, async () => {
    const user = await em.findOne(User, { loginKey: login.toLowerCase() });
    if (!user) throw DomainError.notFound('User', login);
    return user;
  });

/** Grants a role; granting one the user already has succeeds and changes nothing. */
export async function grantRole(em: Em, actor: Actor, login: string, roleName: string, projectName?: string) {
  const {
    grantee: user,
    role,
    project,
    scopeKey,
  } = await resolveUserGrant(em, actor, login, roleName, projectName);
  if (await em.findOne(RoleGrant, { user, role, scopeKey })) return;
  // A concurrent grant of the same role won the insert: same outcome, so success.
  await onUniqueViolation(
    async () => {
      em.create(RoleGrant, { user, role, project, scopeKey });
      await em.flush();
      emitSecurityEvent(em, actor, {
        event: 'role.granted',
        target: user.login,
        role: role.name,
        project: project?.shortName,
      });
    },
    () => undefined,
  );
}

export async function revokeRole(
  em: Em,
  actor: Actor,
  login: string,
  roleName: string,
  projectName?: string,
) {
  const {
    grantee: user,
    role,
    project,
    scopeKey,
  } = await resolveUserGrant(em, actor, login, roleName, projectName);
  const removed = await em.nativeDelete(RoleGrant, { user, role, scopeKey });
  if (removed === 0)
    throw new DomainError('NOT_FOUND', `User [ ${login} ] does not have role [ ${role.name} ] there.`);
  emitSecurityEvent(em, actor, {
    event: 'role.revoked',
    target: user.login,
    role: role.name,
    project: project?.shortName,
  });
}

/** The roles granted to the user themselves (not through groups): their own, or anyone's with READ_USER. */
export async function listUserRoles(em: Em, actor: Actor, login: string): Promise<RoleScopes[]> {
  if (login.toLowerCase() !== actor.login.toLowerCase()) requirePermission(actor, 'READ_USER');
  const user = await em.findOne(User, { loginKey: login.toLowerCase() });
  if (!user) throw DomainError.notFound('User', login);
  return byRole(await em.find(RoleGrant, { user }, { populate: ['role', 'project'] }));
}
