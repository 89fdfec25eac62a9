import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Project } from './project.entity.js';
import { Role } from './role.entity.js';
import { User } from './user.entity.js';

/** A user group (`/rest/admin/group`): its members hold every role granted to it. */
export const Group = defineEntity({
  name: 'Group',
  tableName: 'user_groups',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(100),
    /** Lower-cased name: group names are unique regardless of case. */
    nameKey: p.string().length(100).unique(),
    description: p.string().length(1000).default(''),
    /** New users join this group when they are created. */
    autoJoin: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IGroup = InferEntity<typeof Group>;

export const GroupMember = defineEntity({
  name: 'GroupMember',
  tableName: 'group_members',
  // User first: the actor's grants are loaded by member.
  uniques: [{ properties: ['user', 'group'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    group: () => p.manyToOne(Group).deleteRule('cascade'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
  },
});
export type IGroupMember = InferEntity<typeof GroupMember>;

/**
 * A role given to a group, globally (`project` null) or in one project; `scopeKey` as in
 * `RoleGrant` ('global' or 'p<id>'), so that the triple is unique even when project is null.
 */
export const GroupRoleGrant = defineEntity({
  name: 'GroupRoleGrant',
  tableName: 'group_role_grants',
  uniques: [{ properties: ['group', 'role', 'scopeKey'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    group: () => p.manyToOne(Group).deleteRule('cascade'),
    role: () => p.manyToOne(Role).deleteRule('cascade'),
    project: () => p.manyToOne(Project).nullable().deleteRule('cascade'),
    scopeKey: p.string().length(40),
  },
});
export type IGroupRoleGrant = InferEntity<typeof GroupRoleGrant>;
