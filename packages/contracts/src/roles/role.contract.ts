import { z } from 'zod';
import { element, list, type RouteMeta } from '../common/route-meta.js';
import { name, optionalText } from '../common/text-fields.js';

const TAGS = ['Roles'];

export const ZRoleName = name(100);
export const ZPermissionKey = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters');

export const ZRoleRef = z.object({ name: z.string(), url: z.string() });
export const ZRole = z.object({ name: z.string(), description: z.string(), permissionsUrl: z.string() });
export const ZPermission = z.object({ name: z.string(), description: z.string() });
export type RoleDto = z.infer<typeof ZRole>;
export type PermissionDto = z.infer<typeof ZPermission>;

const roleXml = element('role');
const permissionsXml = list('permissions', element('permission'));

export const listRolesMeta = {
  openapi: { method: 'GET', path: '/admin/role', summary: 'Get all roles', tags: TAGS },
  xml: list('roleRefs', roleXml),
} satisfies RouteMeta;
export const ZListRolesOutput = z.array(ZRoleRef);

export const getRoleMeta = {
  openapi: { method: 'GET', path: '/admin/role/{role}', summary: 'Get role by its name', tags: TAGS },
  xml: roleXml,
} satisfies RouteMeta;
export const ZGetRoleInput = z.object({ role: ZRoleName });

export const createRoleMeta = {
  openapi: {
    method: 'PUT',
    path: '/admin/role/{role}',
    summary: 'Add a new role',
    tags: TAGS,
    errorResponses: [400, 401, 403, 409],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZCreateRoleInput = z.object({ role: ZRoleName, description: optionalText(1000) });

export const updateRoleMeta = {
  openapi: {
    method: 'POST',
    path: '/admin/role/{role}',
    summary: 'Update a role',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404, 409],
  },
  xml: roleXml,
} satisfies RouteMeta;
export const ZUpdateRoleInput = z.object({
  role: ZRoleName,
  newName: ZRoleName.optional(),
  description: optionalText(1000),
});

export const listRolePermissionsMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/role/{role}/permission',
    summary: 'Get role permissions',
    tags: TAGS,
  },
  xml: permissionsXml,
} satisfies RouteMeta;
export const ZListPermissionsOutput = z.array(ZPermission);

export const addRolePermissionMeta = {
  openapi: {
    method: 'POST',
    path: '/admin/role/{role}/permission/{permission}',
    summary: 'Add specified permission to role',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: permissionsXml,
} satisfies RouteMeta;
export const ZRolePermissionInput = z.object({ role: ZRoleName, permission: ZPermissionKey });

export const removeRolePermissionMeta = {
  openapi: {
    method: 'DELETE',
    path: '/admin/role/{role}/permission/{permission}',
    summary: 'Delete specified permission from role',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: permissionsXml,
} satisfies RouteMeta;

export const listPermissionsMeta = {
  openapi: { method: 'GET', path: '/admin/permission', summary: 'Get all available permissions', tags: TAGS },
  xml: permissionsXml,
} satisfies RouteMeta;
