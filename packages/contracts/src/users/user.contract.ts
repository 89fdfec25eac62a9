import { z } from 'zod';
import { element, list, type RouteMeta } from '../common/route-meta.js';
import { name } from '../common/text-fields.js';
import { ZLogin, ZProjectShortName } from '../projects/project.contract.js';
import { ZRoleName } from '../roles/role.contract.js';

export const USER_TYPES = ['user', 'root', 'guest', 'system', 'workflow', 'service'] as const;
export const ZUserType = z.enum(USER_TYPES);
export type UserType = z.infer<typeof ZUserType>;

export const ZUser = z.object({
  login: z.string(),
  fullName: z.string(),
  email: z.string(),
  type: ZUserType,
  url: z.string(),
});
export type UserDto = z.infer<typeof ZUser>;
const userXml = element('user');

export const listSystemUsersMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/systemuser',
    summary: 'Returns system and service users',
    tags: ['Users'],
    errorResponses: [401, 403],
  },
  xml: list('userRefs', userXml),
} satisfies RouteMeta;
export const ZListUsersOutput = z.array(ZUser);

export const getUserMeta = {
  openapi: { method: 'GET', path: '/admin/user/{login}', summary: 'Get a user', tags: ['Users'] },
  xml: userXml,
} satisfies RouteMeta;
export const ZGetUserInput = z.object({ login: ZLogin });

export const ZPassword = z
  .string()
  .min(8, 'must be at least 8 characters')
  .max(200, 'must be at most 200 characters');
export const ZEmail = z
  .string()
  .trim()
  .max(200, 'must be at most 200 characters')
  .email('must be an e-mail address');

export const createUserMeta = {
  openapi: {
    method: 'PUT',
    path: '/admin/user/{login}',
    summary: 'Create a user',
    tags: ['Users'],
    errorResponses: [400, 401, 403, 409],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZCreateUserInput = z.object({
  login: ZLogin.regex(/^[A-Za-z0-9_.@+-]+$/, 'may contain only letters, digits and _ . @ + -'),
  fullName: name(200).optional(),
  email: ZEmail.optional(),
  password: ZPassword.optional(),
});

export const grantRoleMeta = {
  openapi: {
    method: 'POST',
    path: '/admin/user/{login}/role/{role}',
    summary: 'Grant a role to a user, globally or in one project',
    tags: ['Users'],
    errorResponses: [400, 401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZGrantRoleInput = z.object({
  login: ZLogin,
  role: ZRoleName,
  project: ZProjectShortName.optional(),
});

export const revokeRoleMeta = {
  openapi: {
    method: 'DELETE',
    path: '/admin/user/{login}/role/{role}',
    summary: 'Revoke a role from a user',
    tags: ['Users'],
    errorResponses: [400, 401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;

export const ZTokenName = name(100);
export const ZToken = z.object({
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export const ZCreatedToken = ZToken.extend({ token: z.string() });

export const createTokenMeta = {
  openapi: {
    method: 'PUT',
    path: '/user/token/{name}',
    summary: 'Create a permanent token for the caller; the secret is shown once',
    tags: ['Auth'],
    errorResponses: [400, 401, 409],
  },
  xml: element('token'),
} satisfies RouteMeta;
export const ZCreateTokenInput = z.object({ name: ZTokenName });

export const revokeTokenMeta = {
  openapi: {
    method: 'DELETE',
    path: '/user/token/{name}',
    summary: 'Revoke one of the caller’s permanent tokens',
    tags: ['Auth'],
    errorResponses: [401, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;

export const listTokensMeta = {
  openapi: {
    method: 'GET',
    path: '/user/token',
    summary: 'List the caller’s permanent tokens',
    tags: ['Auth'],
  },
  xml: list('tokens', element('token')),
} satisfies RouteMeta;

export const logoutMeta = {
  openapi: {
    method: 'POST',
    path: '/user/logout',
    summary: 'End the current session and clear its cookie (other credentials: nothing to end)',
    tags: ['Auth'],
    errorResponses: [401],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZEndedSessions = z.object({ ended: z.number().int() });

export const revokeOwnSessionsMeta = {
  openapi: {
    method: 'DELETE',
    path: '/user/sessions',
    summary: 'End every session of the caller (tokens stay valid)',
    tags: ['Auth'],
    errorResponses: [401],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;

export const revokeUserSessionsMeta = {
  openapi: {
    method: 'DELETE',
    path: '/admin/user/{login}/sessions',
    summary: 'End every session of a user (UPDATE_USER for another user)',
    tags: ['Users'],
    errorResponses: [400, 401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZRevokeUserSessionsInput = z.object({ login: ZLogin });

export const changePasswordMeta = {
  openapi: {
    method: 'POST',
    path: '/admin/user/{login}/password',
    summary:
      'Set a user’s password (own: with the current `password`; another user’s: LOW_LEVEL_ADMIN); ends all of that user’s sessions. Passwords only in the body.',
    tags: ['Users'],
    errorResponses: [400, 401, 403, 404, 429],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZChangePasswordInput = z.object({
  login: ZLogin,
  /** The caller's current password, required to change their own. */
  password: z.string().max(1000, 'must be at most 1000 characters').optional(),
  newPassword: ZPassword,
});
