import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Project } from './project.entity.js';
import { User } from './user.entity.js';

export const Permission = defineEntity({
  name: 'Permission',
  tableName: 'permissions',
  properties: {
    key: p.string().length(100).primary(),
    description: p.string().length(300),
  },
});
export type IPermission = InferEntity<typeof Permission>;

export const Role = defineEntity({
  name: 'Role',
  tableName: 'roles',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(100),
    /** Lower-cased name: role names are unique regardless of case. */
    nameKey: p.string().length(100).unique(),
    description: p.string().length(1000).default(''),
    permissions: () => p.manyToMany(Permission).pivotTable('role_permissions'),
  },
});
export type IRole = InferEntity<typeof Role>;

/**
 * A role given to a user, globally (`project` null) or in one project.
 * `scopeKey` ('global' or 'p<id>') makes the triple unique even when project is null.
 */
export const RoleGrant = defineEntity({
  name: 'RoleGrant',
  tableName: 'role_grants',
  uniques: [{ properties: ['user', 'role', 'scopeKey'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    role: () => p.manyToOne(Role).deleteRule('cascade'),
    project: () => p.manyToOne(Project).nullable().deleteRule('cascade'),
    scopeKey: p.string().length(40),
  },
});
export type IRoleGrant = InferEntity<typeof RoleGrant>;
