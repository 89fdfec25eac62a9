import { z } from 'zod';
import { QueryBool } from '../common/query-bool.js';
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
  /** A banned account is told nothing (docs/notifications.md); UPDATE_USER, not one's own. */
  banned: QueryBool.optional(),
});

export const saveUserMeta = {
  openapi: {
    method: 'POST',
    path: '/admin/user',
    summary:
      'Create or update the user named by `login` (the original\'s "POST User"): fullName, email, jabber; password in the body only',
    description:
      'Updates an existing account as `POST /admin/user/{login}` does (200), or creates it as `PUT /admin/user/{login}` ' +
      'does (CREATE_USER; 201 with `Location`). Both answer the user.',
    tags: TAGS,
    errorResponses: [400, 401, 403, 409],
  },
  xml: element('user'),
} satisfies RouteMeta;
export const ZSaveUserInput = ZUpdateUserInput.extend({
  login: ZLogin.regex(/^[A-Za-z0-9_.@+-]+$/, 'may contain only letters, digits and _ . @ + -'),
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
/**
 * What a merge did beside moving rows (JSON and /trpc; the legacy XML answer stays empty): the
 * kept user's tags that took the merged user's tag of the same name, and the merged user's saved
 * searches kept under a new name because the kept user had one of the same name.
 */
export const ZMergeUsersOutput = z.object({
  mergedTags: z.array(z.string()),
  renamedSearches: z.array(z.object({ name: z.string(), newName: z.string() })),
});

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
