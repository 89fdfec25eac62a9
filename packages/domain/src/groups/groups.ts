import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import type { PermissionKey } from '@trackline/contracts';
import { type Actor, firstNotHeld, requirePermission } from '../auth/actor.js';
import { changedNames, emitSecurityEvent } from '../auth/security-events.js';
import { DomainError } from '../errors.js';
import { IssueComment } from '../model/comment.entity.js';
import { Group, GroupMember, GroupRoleGrant, type IGroup } from '../model/group.entity.js';
import { Issue } from '../model/issue.entity.js';
import { User } from '../model/user.entity.js';
import type { Em } from '../orm/em.js';
import { onUniqueViolation, rejectWith } from '../orm/unique.js';
import { resolveGrant } from '../roles/grant-rules.js';
import { findGroupByName, groupNameKey, storableGroupName } from './group-names.js';

export type GroupChanges = {
  newName?: string | undefined;
  description?: string | undefined;
  autoJoin?: boolean | undefined;
};

async function findGroup(em: Em, name: string): Promise<IGroup> {
  const group = await findGroupByName(em, name);
  if (!group) throw DomainError.notFound('Group', name);
  return group;
}

async function findUser(em: Em, login: string) {
  const user = await em.findOne(User, { loginKey: login.toLowerCase() });
  if (!user) throw DomainError.notFound('User', login);
  return user;
}

export function listGroups(em: Em, actor: Actor): Promise<IGroup[]> {
  requirePermission(actor, 'READ_USERGROUP');
  return em.find(Group, {}, { orderBy: { nameKey: 'asc' } });
}

export function getGroup(em: Em, actor: Actor, name: string): Promise<IGroup> {
  requirePermission(actor, 'READ_USERGROUP');
  return findGroup(em, name);
}

export async function createGroup(
  em: Em,
  actor: Actor,
  name: string,
  input: Omit<GroupChanges, 'newName'> = {},
): Promise<IGroup> {
  requirePermission(actor, 'CREATE_USERGROUP');
  name = storableGroupName(name, 'group');
  if (await findGroupByName(em, name)) throw DomainError.alreadyExists('Group', name);
  return onUniqueViolation(
    async () => {
      const group = em.create(Group, {
        name,
        nameKey: groupNameKey(name),
        description: input.description ?? '',
        autoJoin: input.autoJoin ?? false,
      });
      await em.flush();
      emitSecurityEvent(em, actor, { event: 'group.created', group: name, changes: changedNames(input) });
      return group;
    },
    rejectWith(() => DomainError.alreadyExists('Group', name)),
  );
}

export async function updateGroup(
  em: Em,
  actor: Actor,
  name: string,
  changes: GroupChanges,
): Promise<IGroup> {
  requirePermission(actor, 'UPDATE_USERGROUP');
  const group = await findGroup(em, name);
  const newName = changes.newName === undefined ? undefined : storableGroupName(changes.newName, 'newName');
  if (newName && groupNameKey(newName) !== group.nameKey) {
    if (await findGroupByName(em, newName)) throw DomainError.alreadyExists('Group', newName);
  }
  // Auto-join hands the group's roles to every account created from now on: like adding members.
  if (changes.autoJoin === true && !group.autoJoin)
    await requireHoldsGroupRoles(em, actor, group, 'make group auto-join');
  if (newName) Object.assign(group, { name: newName, nameKey: groupNameKey(newName) });
  if (changes.description !== undefined) group.description = changes.description;
  if (changes.autoJoin !== undefined) group.autoJoin = changes.autoJoin;
  await onUniqueViolation(
    () => em.flush(),
    rejectWith(() => DomainError.alreadyExists('Group', newName ?? name)),
  );
  emitSecurityEvent(em, actor, { event: 'group.updated', group: group.name, changes: changedNames(changes) });
  return group;
}

/**
 * Joining or leaving a group hands out or takes away each of its roles, and so does anything
 * that makes someone a member without naming them (auto-join, creating an account that joins the
 * auto-join groups): the caller must hold every permission those roles carry, in each grant's
 * scope (as for a direct grant, `requireHoldsRole`). `action` names what was refused.
 */
export async function requireHoldsGroupRoles(
  em: Em,
  actor: Actor,
  group: IGroup,
  action = 'change the members of group',
) {
  const grants = await em.find(GroupRoleGrant, { group }, { populate: ['role.permissions', 'project'] });
  for (const grant of grants) {
    const keys = grant.role.permissions.getItems().map((p) => p.key as PermissionKey);
    const missing = firstNotHeld(actor, keys, grant.project?.id);
    if (missing !== undefined) {
      throw DomainError.forbidden(
        `${action} [ ${group.name} ]: its role [ ${grant.role.name} ] carries ${missing}, which you do not hold there`,
      );
    }
  }
}

/**
 * An import adds its assignees to an existing group (`PUT /rest/import/{p}/issues?assigneeGroup=`)
 * only for a caller who may add members to it by hand: UPDATE_USERGROUP and the group's roles.
 * Joining a group reads what is visible to it only, so IMPORT_DATA alone is no way in.
 */
export async function requireImportMayJoin(em: Em, actor: Actor, group: IGroup): Promise<void> {
  requirePermission(
    actor,
    'UPDATE_USERGROUP',
    undefined,
    `add imported assignees to group [ ${group.name} ] (UPDATE_USERGROUP)`,
  );
  await requireHoldsGroupRoles(em, actor, group, 'add imported assignees to group');
}

/**
 * The group an import adds its assignees to (`PUT /rest/import/{p}/issues?assigneeGroup=`): every
 * importer of the original passes `"<project> Assignees"` without creating it, and the original
 * created it. Missing: created without roles (not auto-join), so joining it hands out nothing; an
 * existing one is checked by the import first (`requireImportMayJoin`, when it gains members).
 */
export async function importAssigneeGroup(em: Em, actor: Actor, name: string): Promise<IGroup> {
  name = storableGroupName(name, 'assigneeGroup');
  const existing = await findGroupByName(em, name);
  if (existing) return existing;
  // Inserted beside the unit of work (a concurrent import may create it first: the same group).
  const inserted = await em
    .createQueryBuilder(Group)
    .insert({ name, nameKey: groupNameKey(name), description: '', autoJoin: false, createdAt: new Date() })
    .onConflict('nameKey')
    .ignore()
    .execute();
  const group = (await findGroupByName(em, name)) as IGroup;
  if (inserted.affectedRows)
    emitSecurityEvent(em, actor, { event: 'group.created', group: name, changes: [] });
  return group;
}

/** Creating an account joins it to every auto-join group: the creator must hold their roles. */
export async function requireHoldsAutoJoinRoles(em: Em, actor: Actor): Promise<void> {
  for (const group of await em.find(Group, { autoJoin: true }))
    await requireHoldsGroupRoles(em, actor, group, 'create users: they would join auto-join group');
}

export async function deleteGroup(em: Em, actor: Actor, name: string): Promise<void> {
  requirePermission(actor, 'DELETE_USERGROUP');
  const group = await findGroup(em, name);
  // Deleting takes its roles from every member.
  await requireHoldsGroupRoles(em, actor, group);
  // What is visible to this group only would become visible to everyone.
  const comments = await em.count(IssueComment, { permittedGroup: group.id });
  const issues = await em.count(Issue, { permittedGroup: group.id });
  if (comments + issues > 0) throw stillRestricting(group.name, { comments, issues });
  try {
    await em.nativeDelete(Group, { id: group.id });
  } catch (error) {
    // A comment or issue restricted to it was written meanwhile (the foreign key refuses the delete).
    if (error instanceof ForeignKeyConstraintViolationException) throw stillRestricting(group.name);
    throw error;
  }
  emitSecurityEvent(em, actor, { event: 'group.deleted', group: group.name });
}

const stillRestricting = (name: string, count?: { comments: number; issues: number }) => {
  const what = count
    ? [
        count.issues > 0 ? `${count.issues} issue(s)` : '',
        count.comments > 0 ? `${count.comments} comment(s)` : '',
      ]
        .filter(Boolean)
        .join(' and ')
    : 'some issues or comments';
  return new DomainError('CONFLICT', `Group [ ${name} ] cannot be deleted: ${what} are visible to it only.`);
};

/** The groups a user belongs to: their own, or anyone's with READ_USERGROUP. */
export async function listUserGroups(em: Em, actor: Actor, login: string): Promise<IGroup[]> {
  if (login.toLowerCase() !== actor.login.toLowerCase()) requirePermission(actor, 'READ_USERGROUP');
  const user = await findUser(em, login);
  const rows = await em.find(GroupMember, { user }, { populate: ['group'] });
  return rows.map((r) => r.group).sort((a, b) => a.nameKey.localeCompare(b.nameKey));
}

/** Adds a user to a group; adding a member again changes nothing and succeeds. */
export async function addUserToGroup(em: Em, actor: Actor, login: string, groupName: string): Promise<void> {
  requirePermission(actor, 'UPDATE_USERGROUP');
  const user = await findUser(em, login);
  const group = await findGroup(em, groupName);
  await requireHoldsGroupRoles(em, actor, group);
  if (await em.findOne(GroupMember, { user, group })) return;
  // A concurrent add of the same member won the insert: same outcome, so success.
  await onUniqueViolation(
    async () => {
      em.create(GroupMember, { user, group });
      await em.flush();
      emitSecurityEvent(em, actor, { event: 'group.member.added', group: group.name, target: user.login });
    },
    () => undefined,
  );
}

export async function removeUserFromGroup(
  em: Em,
  actor: Actor,
  login: string,
  groupName: string,
): Promise<void> {
  requirePermission(actor, 'UPDATE_USERGROUP');
  const user = await findUser(em, login);
  const group = await findGroup(em, groupName);
  await requireHoldsGroupRoles(em, actor, group);
  const removed = await em.nativeDelete(GroupMember, { user, group });
  if (removed === 0)
    throw new DomainError('NOT_FOUND', `User [ ${user.login} ] is not a member of group [ ${group.name} ].`);
  emitSecurityEvent(em, actor, { event: 'group.member.removed', group: group.name, target: user.login });
}

/** Puts a new user into every auto-join group (called wherever ordinary users are inserted). */
export async function joinAutoJoinGroups(em: Em, userId: number): Promise<void> {
  const groups = await em.find(Group, { autoJoin: true }, { fields: ['id'] });
  if (groups.length === 0) return;
  await em.insertMany(
    GroupMember,
    groups.map((g) => ({ user: userId, group: g.id })),
  );
}

const resolveGroupGrant = (em: Em, actor: Actor, groupName: string, roleName: string, projectName?: string) =>
  resolveGrant(em, actor, { roleName, projectName, globalPermission: 'UPDATE_USERGROUP' }, () =>
    findGroup(em, groupName),
  );

/** Grants a role to a group, globally or in each named project; granting it again changes nothing. */
export async function grantGroupRole(
  em: Em,
  actor: Actor,
  groupName: string,
  roleName: string,
  projectNames: readonly string[] = [],
): Promise<void> {
  const scopes = projectNames.length ? projectNames : [undefined];
  // Every scope is checked before anything is written: all or nothing.
  const grants = [];
  for (const projectName of scopes)
    grants.push(await resolveGroupGrant(em, actor, groupName, roleName, projectName));
  for (const { grantee: group, role, project, scopeKey } of grants) {
    if (await em.findOne(GroupRoleGrant, { group, role, scopeKey })) continue;
    await onUniqueViolation(
      async () => {
        em.create(GroupRoleGrant, { group, role, project, scopeKey });
        await em.flush();
        emitSecurityEvent(em, actor, {
          event: 'role.granted',
          group: group.name,
          role: role.name,
          project: project?.shortName,
        });
      },
      () => undefined,
    );
  }
}

/**
 * Revokes a group's role: in one project, or (no project) everywhere the group holds it,
 * each of those grants needing the same rights as granting it.
 */
export async function revokeGroupRole(
  em: Em,
  actor: Actor,
  groupName: string,
  roleName: string,
  projectName?: string,
): Promise<void> {
  if (projectName) {
    const {
      grantee: group,
      role,
      project,
      scopeKey,
    } = await resolveGroupGrant(em, actor, groupName, roleName, projectName);
    const removed = await em.nativeDelete(GroupRoleGrant, { group, role, scopeKey });
    if (removed === 0) throw notHeld(group.name, role.name);
    emitSecurityEvent(em, actor, {
      event: 'role.revoked',
      group: group.name,
      role: role.name,
      project: project?.shortName,
    });
    return;
  }
  requirePermission(actor, 'UPDATE_USERGROUP');
  const group = await findGroup(em, groupName);
  const grants = await em.find(
    GroupRoleGrant,
    { group, role: { nameKey: roleName.toLowerCase() } },
    { populate: ['role', 'project'] },
  );
  if (grants.length === 0) throw notHeld(group.name, roleName);
  for (const grant of grants) {
    await resolveGroupGrant(em, actor, groupName, roleName, grant.project?.shortName);
  }
  await em.nativeDelete(GroupRoleGrant, { id: { $in: grants.map((g) => g.id) } });
  for (const grant of grants)
    emitSecurityEvent(em, actor, {
      event: 'role.revoked',
      group: group.name,
      role: grant.role.name,
      project: grant.project?.shortName,
    });
}

const notHeld = (group: string, role: string) =>
  new DomainError('NOT_FOUND', `Group [ ${group} ] does not have role [ ${role} ].`);

/** A role and the projects it is granted in (empty: granted globally). */
export type RoleScopes = { role: string; projects: string[] };

/**
 * Grants (role, project or null for global) by role, roles by name, projects by short name;
 * a role also granted globally lists no projects (it holds everywhere).
 */
export function byRole(
  grants: { role: { name: string }; project?: { shortName: string } | null | undefined }[],
): RoleScopes[] {
  const map = new Map<string, Set<string> | 'global'>();
  for (const g of grants) {
    const seen = map.get(g.role.name) ?? new Set<string>();
    if (seen === 'global') continue;
    if (g.project) seen.add(g.project.shortName);
    map.set(g.role.name, g.project ? seen : 'global');
  }
  return [...map]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([role, projects]) => ({ role, projects: projects === 'global' ? [] : [...projects].sort() }));
}

export async function listGroupRoles(em: Em, actor: Actor, groupName: string): Promise<RoleScopes[]> {
  requirePermission(actor, 'READ_USERGROUP');
  const group = await findGroup(em, groupName);
  return byRole(await em.find(GroupRoleGrant, { group }, { populate: ['role', 'project'] }));
}
