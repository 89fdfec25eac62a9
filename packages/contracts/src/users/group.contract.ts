import { z } from 'zod';
import { QueryBool } from '../common/query-bool.js';
import { element, list, type RouteMeta } from '../common/route-meta.js';
import { name, optionalText } from '../common/text-fields.js';
import { ZLogin, ZProjectShortName } from '../projects/project.contract.js';
import { ZRoleName } from '../roles/role.contract.js';

const TAGS = ['Groups'];

export const ZGroupName = name(100);
export const ZGroupRef = z.object({ name: z.string(), url: z.string() });
export const ZGroup = z.object({
  name: z.string(),
  description: z.string(),
  autoJoin: z.boolean(),
  url: z.string(),
});
export type GroupDto = z.infer<typeof ZGroup>;

/** `<userRole name><projects><projectRef id url/>…</projects></userRole>`; no projects: granted globally. */
export const ZUserRole = z.object({
  name: z.string(),
  projects: z.array(z.object({ id: z.string(), url: z.string() })),
});
export type UserRoleDto = z.infer<typeof ZUserRole>;

const groupXml = element('userGroup');
const groupRefsXml = list('userGroupRefs', groupXml);
const userRolesXml = list(
  'userRoles',
  element('userRole', { projects: list('projects', element('projectRef')) }),
);

export const listGroupsMeta = {
  openapi: { method: 'GET', path: '/admin/group', summary: 'Get all user groups', tags: TAGS },
  xml: groupRefsXml,
} satisfies RouteMeta;
export const ZListGroupsOutput = z.array(ZGroupRef);

export const getGroupMeta = {
  openapi: { method: 'GET', path: '/admin/group/{group}', summary: 'Get a user group', tags: TAGS },
  xml: groupXml,
} satisfies RouteMeta;
export const ZGroupInput = z.object({ group: ZGroupName });

const groupFields = { description: optionalText(1000), autoJoin: QueryBool.optional() };

export const createGroupMeta = {
  openapi: {
    method: 'PUT',
    path: '/admin/group/{group}',
    summary: 'Create a user group (`autoJoin`: new users join it)',
    tags: TAGS,
    errorResponses: [400, 401, 403, 409],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZCreateGroupInput = z.object({ group: ZGroupName, ...groupFields });

export const updateGroupMeta = {
  openapi: {
    method: 'POST',
    path: '/admin/group/{group}',
    summary: 'Update or rename a user group',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404, 409],
  },
  xml: groupXml,
} satisfies RouteMeta;
export const ZUpdateGroupInput = z.object({
  group: ZGroupName,
  newName: ZGroupName.optional(),
  ...groupFields,
});

export const deleteGroupMeta = {
  openapi: {
    method: 'DELETE',
    path: '/admin/group/{group}',
    summary: 'Delete a user group (its members lose its roles)',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;

export const listGroupRolesMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/group/{group}/role',
    summary: 'Get the roles of a user group, with the projects each is granted in',
    tags: TAGS,
  },
  xml: userRolesXml,
} satisfies RouteMeta;
export const ZUserRolesOutput = z.array(ZUserRole);

const ZProjectRef = z.object({ id: ZProjectShortName });
/**
 * The projects of a role grant: a `projects` element of the XML body (`<projectRef id/>`
 * children, or empty), a JSON array of short names, or a comma-separated query value.
 */
export const ZGrantProjects = z.codec(
  z.union([
    z.string().max(5000, 'must be at most 5000 characters'),
    z.array(ZProjectShortName).max(500, 'must name at most 500 projects'),
    z.object({
      projectRef: z.union([ZProjectRef, z.array(ZProjectRef).max(500, 'must name at most 500 projects')]),
    }),
  ]),
  z.array(z.string()),
  {
    decode: (value) => {
      if (typeof value === 'string')
        return value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
      if (Array.isArray(value)) return value;
      const refs = value.projectRef;
      return (Array.isArray(refs) ? refs : [refs]).map((r) => r.id);
    },
    encode: (value) => value,
  },
);

export const grantGroupRoleMeta = {
  openapi: {
    method: 'PUT',
    path: '/admin/group/{group}/role/{role}',
    summary:
      'Grant a role to a group: in the projects of the `<userRole><projects><projectRef id/></projects></userRole>` body (or `project`), globally when none',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZGrantGroupRoleInput = z.object({
  group: ZGroupName,
  role: ZRoleName,
  project: ZProjectShortName.optional(),
  projects: ZGrantProjects.optional(),
});

export const revokeGroupRoleMeta = {
  openapi: {
    method: 'DELETE',
    path: '/admin/group/{group}/role/{role}',
    summary: 'Take a role from a group: in `project`, or everywhere it is granted',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZRevokeGroupRoleInput = z.object({
  group: ZGroupName,
  role: ZRoleName,
  project: ZProjectShortName.optional(),
});

export const listUserGroupsMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/user/{login}/group',
    summary: 'Get the groups a user belongs to',
    tags: ['Users'],
  },
  xml: groupRefsXml,
} satisfies RouteMeta;
export const ZUserInput = z.object({ login: ZLogin });

export const addUserToGroupMeta = {
  openapi: {
    method: 'POST',
    path: '/admin/user/{login}/group/{group}',
    summary: 'Add a user to a group',
    tags: ['Users'],
    errorResponses: [400, 401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZUserGroupInput = z.object({ login: ZLogin, group: ZGroupName });

export const removeUserFromGroupMeta = {
  openapi: {
    method: 'DELETE',
    path: '/admin/user/{login}/group/{group}',
    summary: 'Remove a user from a group',
    tags: ['Users'],
    errorResponses: [400, 401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;

export const listUserRolesMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/user/{login}/role',
    summary: 'Get the roles granted to the user themselves (not through groups)',
    tags: ['Users'],
  },
  xml: userRolesXml,
} satisfies RouteMeta;
