import type { PermissionKey } from '@trackline/contracts';
import { type Actor, can, firstNotHeld, requirePermission } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import { type IProject, Project } from '../model/project.entity.js';
import { type IRole, Role } from '../model/role.entity.js';
import type { Em } from '../orm/em.js';

/** Where a role is granted: globally (project null) or in one project; `scopeKey` as stored. */
export type GrantScope = { role: IRole; project: IProject | null; scopeKey: string };

export const scopeKeyOf = (project: { id: number } | null) => (project ? `p${project.id}` : 'global');

/**
 * The rules for granting or revoking a role, the same whether the grantee is a user or a group:
 * in a project the caller needs UPDATE_PROJECT there; globally `globalPermission` (UPDATE_USER
 * for users, UPDATE_USERGROUP for groups). The caller is authorised before the grantee and the
 * role are looked up, so that a refused caller cannot probe which exist; a project the caller
 * cannot read answers like a missing one. Then the caller must hold every permission the role
 * carries in that scope (`requireHoldsRole`).
 */
export async function resolveGrant<G>(
  em: Em,
  actor: Actor,
  target: { roleName: string; projectName?: string | undefined; globalPermission: PermissionKey },
  findGrantee: () => Promise<G>,
): Promise<GrantScope & { grantee: G }> {
  let project: IProject | null = null;
  if (target.projectName) {
    project = await findReadableProject(em, actor, target.projectName);
    requirePermission(actor, 'UPDATE_PROJECT', project.id, `grant roles in project [ ${project.shortName} ]`);
  } else {
    requirePermission(
      actor,
      target.globalPermission,
      undefined,
      `grant global roles (${target.globalPermission})`,
    );
  }
  const grantee = await findGrantee();
  const role = await em.findOne(
    Role,
    { nameKey: target.roleName.toLowerCase() },
    { populate: ['permissions'] },
  );
  if (!role) throw DomainError.notFound('Role', target.roleName);
  requireHoldsRole(actor, role, project);
  return { grantee, role, project, scopeKey: scopeKeyOf(project) };
}

export async function findReadableProject(em: Em, actor: Actor, shortName: string): Promise<IProject> {
  const project = await em.findOne(Project, { shortNameKey: shortName.toUpperCase() });
  if (!project || !can(actor, 'READ_PROJECT', project.id)) throw DomainError.notFound('Project', shortName);
  return project;
}

/**
 * Granting or revoking a role needs every permission the role carries, held in the scope of
 * the grant (see `holdsInScope`): UPDATE_USER, UPDATE_USERGROUP or UPDATE_PROJECT alone must
 * not hand out, to the caller or anyone, more than the caller has, nor take it from someone who
 * has more. Adding someone to (or removing them from) a group is a grant of each of its roles.
 */
export function requireHoldsRole(
  actor: Actor,
  role: IRole,
  project: { id: number; shortName: string } | null,
) {
  const keys = role.permissions.getItems().map((p) => p.key as PermissionKey);
  const missing = firstNotHeld(actor, keys, project?.id);
  if (missing !== undefined) {
    const where = project ? `in project [ ${project.shortName} ]` : 'globally';
    throw DomainError.forbidden(
      `grant or revoke role [ ${role.name} ] ${where}: it carries ${missing}, which you do not hold there`,
    );
  }
}
