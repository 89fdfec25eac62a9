import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import { z } from 'zod';
import { clearedSessionCookie } from '../../auth/credentials.js';
import type { Context } from '../../trpc/context.js';
import { authedProcedure, router } from '../../trpc/procedures.js';
import { created, restUrl } from '../respond.js';
import { toUserRoles } from './groups.router.js';

export const toUser = (ctx: Context, u: d.IUser): c.UserDto => ({
  login: u.login,
  fullName: u.fullName,
  email: u.email ?? '',
  type: u.type,
  url: restUrl(ctx, 'admin', 'user', u.login),
});
const toUserDetails = (ctx: Context, u: d.IUser): c.UserDetailsDto => ({
  ...toUser(ctx, u),
  jabber: u.jabber ?? '',
  groupsUrl: `${restUrl(ctx, 'admin', 'user', u.login)}/group`,
  rolesUrl: `${restUrl(ctx, 'admin', 'user', u.login)}/role`,
});
const toToken = (t: d.IPermanentToken) => ({
  name: t.name,
  createdAt: t.createdAt.toISOString(),
  lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
});

/** The caller's own session ended: the answer clears its cookie too. */
function clearOwnCookie(ctx: Context) {
  if (ctx.request.session !== null)
    ctx.response.headers['Set-Cookie'] = clearedSessionCookie(ctx.request.secure);
}

/** Passwords are never taken from the query string (logs, browser history, proxies). */
function refuseSecretsInQuery(ctx: Context, fields: string[]) {
  for (const field of fields) {
    if (ctx.request.queryKeys.has(field))
      throw d.DomainError.invalid(field, 'must be sent in the request body, not in the query string');
  }
}

export const usersRouter = router({
  logout: authedProcedure
    .meta(c.logoutMeta)
    .input(z.object({}))
    .output(c.ZEndedSessions)
    .mutation(async ({ ctx }) => {
      const ended = ctx.request.session !== null && (await d.endSession(ctx.em, ctx.request.session));
      clearOwnCookie(ctx);
      return { ended: ended ? 1 : 0 };
    }),

  revokeOwnSessions: authedProcedure
    .meta(c.revokeOwnSessionsMeta)
    .input(z.object({}))
    .output(c.ZEndedSessions)
    .mutation(async ({ ctx }) => {
      const ended = await d.revokeSessions(ctx.em, ctx.actor);
      clearOwnCookie(ctx);
      return { ended };
    }),

  revokeSessions: authedProcedure
    .meta(c.revokeUserSessionsMeta)
    .input(c.ZRevokeUserSessionsInput)
    .output(c.ZEndedSessions)
    .mutation(async ({ ctx, input }) => {
      const ended = await d.revokeSessions(ctx.em, ctx.actor, input.login);
      if (input.login.toLowerCase() === ctx.actor.login.toLowerCase()) clearOwnCookie(ctx);
      return { ended };
    }),

  changePassword: authedProcedure
    .meta(c.changePasswordMeta)
    .input(c.ZChangePasswordInput)
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      refuseSecretsInQuery(ctx, ['password', 'newPassword']);
      // The current password is checked under the login throttle: a stolen session cannot guess it freely.
      const { own } = await d.changePassword(ctx.em, ctx.actor, input, (password) =>
        ctx.request.checkPassword(ctx.actor.login, password),
      );
      if (own) clearOwnCookie(ctx);
      return {};
    }),

  systemUsers: authedProcedure
    .meta(c.listSystemUsersMeta)
    .input(z.object({}))
    .output(c.ZListUsersOutput)
    .query(async ({ ctx }) => (await d.listSystemUsers(ctx.em, ctx.actor)).map((u) => toUser(ctx, u))),

  get: authedProcedure
    .meta(c.getUserMeta)
    .input(c.ZGetUserInput)
    .output(c.ZUserDetails)
    .query(async ({ ctx, input }) => toUserDetails(ctx, await d.getUser(ctx.em, ctx.actor, input.login))),

  list: authedProcedure
    .meta(c.listUsersMeta)
    .input(c.ZListUsersInput)
    .output(c.ZUserListOutput)
    .query(async ({ ctx, input }) =>
      (await d.listUsers(ctx.em, ctx.actor, input)).map((u) => ({
        login: u.login,
        url: restUrl(ctx, 'admin', 'user', u.login),
        fullName: u.fullName,
      })),
    ),

  update: authedProcedure
    .meta(c.updateUserMeta)
    .input(c.ZUpdateUserInput)
    .output(c.ZUserDetails)
    .mutation(async ({ ctx, input }) => {
      refuseSecretsInQuery(ctx, ['password']);
      return toUserDetails(ctx, await d.updateUser(ctx.em, ctx.actor, input.login, input));
    }),

  save: authedProcedure
    .meta(c.saveUserMeta)
    .input(c.ZSaveUserInput)
    .output(c.ZUserDetails)
    .mutation(async ({ ctx, input }) => {
      refuseSecretsInQuery(ctx, ['password']);
      const saved = await d.saveUser(ctx.em, ctx.actor, input);
      const details = toUserDetails(ctx, saved.user);
      return saved.created ? created(ctx, `/admin/user/${saved.user.login}`, details) : details;
    }),

  /** tRPC only (the console's user page): the account and whether it is banned. */
  account: authedProcedure
    .input(c.ZUserAccountInput)
    .output(c.ZUserAccount)
    .query(({ ctx, input }) => d.getUserAccount(ctx.em, ctx.actor, input.login)),

  /** tRPC only: bans an account or lifts the ban. */
  setBanned: authedProcedure
    .input(c.ZSetUserBannedInput)
    .output(c.ZUserAccount)
    .mutation(({ ctx, input }) => d.setUserBanned(ctx.em, ctx.actor, input.login, input.banned)),

  delete: authedProcedure
    .meta(c.deleteUserMeta)
    .input(c.ZGetUserInput)
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await d.deleteUser(ctx.em, ctx.actor, input.login);
      return {};
    }),

  merge: authedProcedure
    .meta(c.mergeUsersMeta)
    .input(c.ZMergeUsersInput)
    .output(c.ZMergeUsersOutput)
    .mutation(({ ctx, input }) => d.mergeUsers(ctx.em, ctx.actor, input.login, input.loginToMerge)),

  create: authedProcedure
    .meta(c.createUserMeta)
    .input(c.ZCreateUserInput)
    .output(c.ZUser)
    .mutation(async ({ ctx, input }) => {
      const user = await d.createUser(ctx.em, ctx.actor, input);
      return created(ctx, `/admin/user/${user.login}`, toUser(ctx, user));
    }),

  grantRole: authedProcedure
    .meta(c.grantRoleMeta)
    .input(c.ZGrantRoleInput)
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await d.grantRole(ctx.em, ctx.actor, input.login, input.role, input.project);
      return {};
    }),

  revokeRole: authedProcedure
    .meta(c.revokeRoleMeta)
    .input(c.ZGrantRoleInput)
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await d.revokeRole(ctx.em, ctx.actor, input.login, input.role, input.project);
      return {};
    }),

  roles: authedProcedure
    .meta(c.listUserRolesMeta)
    .input(c.ZUserInput)
    .output(c.ZUserRolesOutput)
    .query(async ({ ctx, input }) => toUserRoles(ctx, await d.listUserRoles(ctx.em, ctx.actor, input.login))),

  createToken: authedProcedure
    .meta(c.createTokenMeta)
    .input(c.ZCreateTokenInput)
    .output(c.ZCreatedToken)
    .mutation(async ({ ctx, input }) => {
      const { token, row } = await d.createPermanentToken(ctx.em, ctx.actor, input.name);
      return created(ctx, `/user/token/${row.name}`, { ...toToken(row), token });
    }),

  revokeToken: authedProcedure
    .meta(c.revokeTokenMeta)
    .input(c.ZCreateTokenInput)
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await d.revokePermanentToken(ctx.em, ctx.actor, input.name);
      return {};
    }),

  tokens: authedProcedure
    .meta(c.listTokensMeta)
    .input(z.object({}))
    .output(z.array(c.ZToken))
    .query(async ({ ctx }) => (await d.listPermanentTokens(ctx.em, ctx.actor)).map(toToken)),
});
