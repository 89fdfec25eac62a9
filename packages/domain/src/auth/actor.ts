import { PERMISSIONS, type PermissionKey, type UserType } from '@trackline/contracts';
import { DomainError } from '../errors.js';

/** Permissions a user holds: globally, and per project id. Resolved once per request. */
export type Actor = {
  userId: number;
  login: string;
  type: UserType;
  global: ReadonlySet<PermissionKey>;
  byProject: ReadonlyMap<number, ReadonlySet<PermissionKey>>;
  /**
   * Ids of the groups the user belongs to (their roles are already in `global`/`byProject`);
   * for what is visible to a group only. Absent means none.
   */
  groups?: ReadonlySet<number> | undefined;
  /**
   * Projects in the trash (and, then, the live ones): no permission holds in a trashed
   * project, so it and its issues answer as missing everywhere. Absent when the trash is empty.
   */
  trash?: ProjectTrash | undefined;
};

export type ProjectTrash = { ids: ReadonlySet<number>; live: readonly number[] };

const trashed = (actor: Actor, projectId: number) => actor.trash?.ids.has(projectId) ?? false;

/**
 * Whether the actor holds `permission`. Without a project only global grants count;
 * with one, a global grant or a grant in that project does.
 */
export function can(actor: Actor, permission: PermissionKey, projectId?: number): boolean {
  if (projectId !== undefined && trashed(actor, projectId)) return false;
  if (actor.global.has(permission)) return true;
  if (projectId === undefined || PERMISSIONS[permission].scope === 'global') return false;
  return actor.byProject.get(projectId)?.has(permission) ?? false;
}

/** Whether the actor holds `permission` in at least one project (or globally). */
export function canAnywhere(actor: Actor, permission: PermissionKey): boolean {
  if (actor.global.has(permission)) return true;
  for (const [id, perms] of actor.byProject) if (perms.has(permission) && !trashed(actor, id)) return true;
  return false;
}

/** Whether the actor belongs to the group (a member of no group, or an actor built without groups: no). */
export const inGroup = (actor: Actor, groupId: number): boolean => actor.groups?.has(groupId) ?? false;

export function requirePermission(
  actor: Actor,
  permission: PermissionKey,
  projectId?: number,
  what?: string,
) {
  if (!can(actor, permission, projectId)) {
    throw DomainError.forbidden(
      what ?? `${PERMISSIONS[permission].description.toLowerCase()} (${permission})`,
    );
  }
}

/**
 * Whether the actor holds `permission` in a scope, as a grant there would give it: globally
 * (no project) only through a global grant; in a project through a global grant or a grant
 * in that project. Unlike `can`, a global-scope permission carried by a project grant counts
 * in that project: it is exactly what granting the same role there would hand out.
 */
export function holdsInScope(actor: Actor, permission: PermissionKey, projectId?: number): boolean {
  if (actor.global.has(permission)) return true;
  return projectId !== undefined && (actor.byProject.get(projectId)?.has(permission) ?? false);
}

/** The first of `permissions` the actor does not hold in the scope, if any. */
export function firstNotHeld(
  actor: Actor,
  permissions: Iterable<PermissionKey>,
  projectId?: number,
): PermissionKey | undefined {
  for (const permission of permissions) if (!holdsInScope(actor, permission, projectId)) return permission;
  return undefined;
}

/**
 * Whether `actor` holds everything `other` holds, scope by scope: acting as `other` would
 * then give `actor` nothing it does not already have.
 */
export function covers(actor: Actor, other: Actor): boolean {
  if (firstNotHeld(actor, other.global) !== undefined) return false;
  for (const [projectId, permissions] of other.byProject) {
    if (firstNotHeld(actor, permissions, projectId) !== undefined) return false;
  }
  return true;
}

/**
 * Project ids where the actor holds `permission`, or 'all' for a global grant. While the
 * trash holds projects, a global grant gives the live projects' ids instead of 'all'.
 */
export function projectsWith(actor: Actor, permission: PermissionKey): 'all' | number[] {
  if (actor.global.has(permission)) return actor.trash ? [...actor.trash.live] : 'all';
  return [...actor.byProject]
    .filter(([id, perms]) => perms.has(permission) && !trashed(actor, id))
    .map(([id]) => id);
}
