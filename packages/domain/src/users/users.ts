import type { PermissionKey } from '@trackline/contracts';
import { type Actor, can, firstNotHeld, requirePermission } from '../auth/actor.js';
import { hashPassword } from '../auth/password.js';
import { DomainError } from '../errors.js';
import type { Em } from '../orm/em.js';
import { onUniqueViolation, rejectWith } from '../orm/unique.js';
import { type IProject, Project } from '../projects/project.entity.js';
import { type IRole, Role, RoleGrant } from '../roles/role.entity.js';
import { type IUser, User } from './user.entity.js';

export type NewUser = {
  login: string;
  fullName?: string | undefined;
  email?: string | undefined;
  password?: string | undefined;
  /** A hash already made by `hashPassword` (the test kit's cheap-cost users); wins over `password`. */
  passwordHash?: string | undefined;
  type?: IUser['type'];
};

/** Inserts a user without a permission check: for the seed and for tests. */
export async function insertUser(em: Em, input: NewUser): Promise<IUser> {
  return onUniqueViolation(
    async () => {
      const user = em.create(User, {
        login: input.login,
        loginKey: input.login.toLowerCase(),
        fullName: input.fullName ?? input.login,
        email: input.email ?? null,
        emailKey: input.email?.toLowerCase() ?? null,
        passwordHash: input.passwordHash ?? (input.password ? await hashPassword(input.password) : null),
        type: input.type ?? 'user',
        contextFolder: null,
      });
      await em.flush();
      return user;
    },
    rejectWith(() => DomainError.alreadyExists('User', input.login)),
  );
}

export async function createUser(em: Em, actor: Actor, input: NewUser): Promise<IUser> {
  requirePermission(actor, 'CREATE_USER');
  if (await em.findOne(User, { loginKey: input.login.toLowerCase() })) {
    throw DomainError.alreadyExists('User', input.login);
  }
  return insertUser(em, { ...input, type: 'user' });
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

async function resolveGrant(em: Em, actor: Actor, login: string, roleName: string, projectName?: string) {
  // Authorise before looking up the user and role, so that a refused caller cannot probe
  // which users or roles exist; a project the caller cannot read answers like a missing one.
  let project: IProject | null = null;
  if (projectName) {
    project = await em.findOne(Project, { shortNameKey: projectName.toUpperCase() });
    if (!project || !can(actor, 'READ_PROJECT', project.id))
      throw DomainError.notFound('Project', projectName);
    // A project admin may grant within the project.
    requirePermission(actor, 'UPDATE_PROJECT', project.id, `grant roles in project [ ${project.shortName} ]`);
  } else {
    requirePermission(actor, 'UPDATE_USER', undefined, 'grant global roles (UPDATE_USER)');
  }
  const user = await em.findOne(User, { loginKey: login.toLowerCase() });
  if (!user) throw DomainError.notFound('User', login);
  const role = await em.findOne(Role, { nameKey: roleName.toLowerCase() }, { populate: ['permissions'] });
  if (!role) throw DomainError.notFound('Role', roleName);
  requireHoldsRole(actor, role, project);
  return { user, role, project, scopeKey: project ? `p${project.id}` : 'global' };
}

/**
 * Granting or revoking a role needs every permission the role carries, held in the scope of
 * the grant (see `holdsInScope`): UPDATE_USER or UPDATE_PROJECT alone must not hand out, to
 * the caller or anyone, more than the caller has, nor take it from someone who has more.
 */
function requireHoldsRole(actor: Actor, role: IRole, project: IProject | null) {
  const keys = role.permissions.getItems().map((p) => p.key as PermissionKey);
  const missing = firstNotHeld(actor, keys, project?.id);
  if (missing !== undefined) {
    const where = project ? `in project [ ${project.shortName} ]` : 'globally';
    throw DomainError.forbidden(
      `grant or revoke role [ ${role.name} ] ${where}: it carries ${missing}, which you do not hold there`,
    );
  }
}

/** Grants a role; granting one the user already has succeeds and changes nothing. */
export async function grantRole(em: Em, actor: Actor, login: string, roleName: string, projectName?: string) {
  const { user, role, project, scopeKey } = await resolveGrant(em, actor, login, roleName, projectName);
  if (await em.findOne(RoleGrant, { user, role, scopeKey })) return;
  // A concurrent grant of the same role won the insert: same outcome, so success.
  await onUniqueViolation(
    async () => {
      em.create(RoleGrant, { user, role, project, scopeKey });
      await em.flush();
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
  const { user, role, scopeKey } = await resolveGrant(em, actor, login, roleName, projectName);
  const removed = await em.nativeDelete(RoleGrant, { user, role, scopeKey });
  if (removed === 0)
    throw new DomainError('NOT_FOUND', `User [ ${login} ] does not have role [ ${role.name} ] there.`);
}
