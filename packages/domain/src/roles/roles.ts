import { isPermissionKey, PERMISSIONS, type PermissionKey } from '@trackline/contracts';
import { type Actor, holdsInScope, requirePermission } from '../auth/actor.js';
import { changedNames, emitSecurityEvent } from '../auth/security-events.js';
import { DomainError } from '../errors.js';
import { type IPermission, type IRole, Permission, Role } from '../model/role.entity.js';
import type { Em } from '../orm/em.js';
import { onUniqueViolation, rejectWith } from '../orm/unique.js';
import { allRoles, type RoleView, roleByName } from '../read-models/roles.js';

export function listRoles(em: Em, actor: Actor): Promise<RoleView[]> {
  requirePermission(actor, 'READ_ROLE');
  return allRoles(em);
}

async function findRole(em: Em, name: string, populate = false): Promise<IRole> {
  const role = await em.findOne(
    Role,
    { nameKey: name.toLowerCase() },
    populate ? { populate: ['permissions'] } : {},
  );
  if (!role) throw DomainError.notFound('Role', name);
  return role;
}

export async function getRole(em: Em, actor: Actor, name: string): Promise<RoleView> {
  requirePermission(actor, 'READ_ROLE');
  const role = await roleByName(em, name);
  if (!role) throw DomainError.notFound('Role', name);
  return role;
}

export async function createRole(em: Em, actor: Actor, name: string, description = ''): Promise<IRole> {
  requirePermission(actor, 'CREATE_ROLE');
  if (await em.findOne(Role, { nameKey: name.toLowerCase() })) throw DomainError.alreadyExists('Role', name);
  return onUniqueViolation(
    async () => {
      const role = em.create(Role, { name, nameKey: name.toLowerCase(), description });
      await em.flush();
      emitSecurityEvent(em, actor, { event: 'role.created', role: name });
      return role;
    },
    rejectWith(() => DomainError.alreadyExists('Role', name)),
  );
}

export async function updateRole(
  em: Em,
  actor: Actor,
  name: string,
  changes: { newName?: string | undefined; description?: string | undefined },
): Promise<IRole> {
  requirePermission(actor, 'UPDATE_ROLE');
  const role = await findRole(em, name);
  if (changes.newName && changes.newName.toLowerCase() !== role.nameKey) {
    if (await em.findOne(Role, { nameKey: changes.newName.toLowerCase() })) {
      throw DomainError.alreadyExists('Role', changes.newName);
    }
    Object.assign(role, { name: changes.newName, nameKey: changes.newName.toLowerCase() });
  } else if (changes.newName) {
    role.name = changes.newName;
  }
  if (changes.description !== undefined) role.description = changes.description;
  await onUniqueViolation(
    () => em.flush(),
    rejectWith(() => DomainError.alreadyExists('Role', changes.newName ?? name)),
  );
  emitSecurityEvent(em, actor, { event: 'role.updated', role: name, changes: changedNames(changes) });
  return role;
}

const sortPermissions = (list: Iterable<IPermission>) => [...list].sort((a, b) => a.key.localeCompare(b.key));

export async function listRolePermissions(em: Em, actor: Actor, name: string): Promise<IPermission[]> {
  requirePermission(actor, 'READ_ROLE');
  const role = await findRole(em, name, true);
  return sortPermissions(role.permissions.getItems());
}

async function findPermission(em: Em, key: string): Promise<IPermission> {
  const permission = isPermissionKey(key) ? await em.findOne(Permission, { key }) : null;
  if (!permission) throw DomainError.notFound('Permission', key);
  return permission;
}

/**
 * A role can be granted anywhere, so only a permission the caller holds globally may be put
 * into or taken out of one: otherwise UPDATE_ROLE alone would let its holder give themselves
 * (through a role they hold) anything, or strip administrators of what they hold.
 */
function requireHeldGlobally(actor: Actor, permission: IPermission, change: 'add' | 'remove') {
  const key = permission.key as PermissionKey;
  if (!holdsInScope(actor, key)) {
    throw DomainError.forbidden(
      `${change} permission [ ${key} ] ${change === 'add' ? 'to' : 'from'} a role: you do not hold it globally`,
    );
  }
}

/** Adds a permission; adding one the role already has changes nothing and succeeds. */
export async function addRolePermission(em: Em, actor: Actor, name: string, key: string) {
  requirePermission(actor, 'UPDATE_ROLE');
  const role = await findRole(em, name, true);
  const permission = await findPermission(em, key);
  requireHeldGlobally(actor, permission, 'add');
  if (role.permissions.contains(permission)) return sortPermissions(role.permissions.getItems());
  role.permissions.add(permission);
  // A concurrent request added it between our read and our insert: same outcome, so success.
  return onUniqueViolation(
    async () => {
      await em.flush();
      emitSecurityEvent(em, actor, { event: 'role.permission.added', role: role.name, permission: key });
      return sortPermissions(role.permissions.getItems());
    },
    async () => {
      em.clear();
      return sortPermissions((await findRole(em, name, true)).permissions.getItems());
    },
  );
}

export async function removeRolePermission(em: Em, actor: Actor, name: string, key: string) {
  requirePermission(actor, 'UPDATE_ROLE');
  const role = await findRole(em, name, true);
  const permission = await findPermission(em, key);
  requireHeldGlobally(actor, permission, 'remove');
  if (!role.permissions.contains(permission)) {
    throw new DomainError('NOT_FOUND', `Role [ ${role.name} ] does not have permission [ ${key} ].`);
  }
  role.permissions.remove(permission);
  await em.flush();
  emitSecurityEvent(em, actor, { event: 'role.permission.removed', role: role.name, permission: key });
  return sortPermissions(role.permissions.getItems());
}

export function listAllPermissions(actor: Actor): { key: string; description: string }[] {
  requirePermission(actor, 'READ_ROLE');
  return Object.entries(PERMISSIONS).map(([key, p]) => ({ key, description: p.description }));
}
