import { z } from 'zod';
import { element, list, type RouteMeta } from '../common/route-meta.js';
import { name, optionalText } from '../common/text-fields.js';
import { ZLogin, ZProjectShortName } from '../projects/project.contract.js';
import { ZRoleName } from '../roles/role.contract.js';
import { ZGroupName } from './group.contract.js';
import { ZEmail, ZPassword, ZUser, ZUserType } from './user.contract.js';

const TAGS = ['Users'];

/** `GET /admin/user/{login}`: the original's attributes (`jabber`, `groupsUrl`, `rolesUrl`) too. */
export const ZUserDetails = ZUser.extend({ jabber: z.string(), groupsUrl: z.string(), rolesUrl: z.string() });
export type UserDetailsDto = z.infer<typeof ZUserDetails>;

export const ZUserListItem = z.object({ login: z.string(), url: z.string(), fullName: z.string() });

export const listUsersMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/user',
    summary:
      'Find users, ten a page from `start`: `q` (part of login, full name or e-mail), `group`, `role`, `project`, `permission`',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404],
  },
  xml: list('userRefs', element('user')),
} satisfies RouteMeta;
export const ZListUsersInput = z.object({
  q: z.string().max(200, 'must be at most 200 characters').optional(),
  group: ZGroupName.optional(),
  role: ZRoleName.optional(),
  project: ZProjectShortName.optional(),
  permission: z.string().trim().max(100, 'must be at most 100 characters').optional(),
  start: z.number().int().min(0, 'must not be negative').max(2_147_483_647).optional(),
});
export const ZUserListOutput = z.array(ZUserListItem);

export const updateUserMeta = {
  openapi: {
    method: 'POST',
    path: '/admin/user/{login}',
    summary:
      'Update a user: fullName, email, jabber (own, or UPDATE_USER); password sets another user’s (LOW_LEVEL_ADMIN, body only)',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404],
  },
  xml: element('user'),
} satisfies RouteMeta;
export const ZUpdateUserInput = z.object({
  login: ZLogin,
  fullName: name(200).optional(),
  /** Empty clears it. */
  email: z.union([z.literal(''), ZEmail]).optional(),
  jabber: optionalText(200),
  password: ZPassword.optional(),
});

export const deleteUserMeta = {
  openapi: {
    method: 'DELETE',
    path: '/admin/user/{login}',
    summary: 'Delete a user; their issues, comments and changes point at the system account deleted_user',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;

export const mergeUsersMeta = {
  openapi: {
    method: 'POST',
    path: '/admin/user/{login}/merge/{loginToMerge}',
    summary: 'Merge the second account into the first, then delete the second',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZMergeUsersInput = z.object({ login: ZLogin, loginToMerge: ZLogin });

/** tRPC only (the console's user page): an account, with whether it is banned. */
export const ZUserAccountInput = z.object({ login: ZLogin });
export const ZUserAccount = z.object({
  login: z.string(),
  fullName: z.string(),
  email: z.string().nullable(),
  type: ZUserType,
  banned: z.boolean(),
});
/** tRPC only: bans an ordinary account (it cannot authenticate; its sessions end) or lifts the ban. */
export const ZSetUserBannedInput = z.object({ login: ZLogin, banned: z.boolean() });
