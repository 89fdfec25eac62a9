import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import { z } from 'zod';
import type { Context } from '../../trpc/context.js';
import { authedProcedure, router } from '../../trpc/procedures.js';
import { created, restUrl } from '../respond.js';

const toUser = (ctx: Context, u: d.IUser): c.UserDto => ({
  login: u.login,
  fullName: u.fullName,
  email: u.email ?? '',
  type: u.type,
  url: restUrl(ctx, 'admin', 'user', u.login),
});
const toToken = (t: d.IPermanentToken) => ({
  name: t.name,
  createdAt: t.createdAt.toISOString(),
  lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
});

export const usersRouter = router({
  systemUsers: authedProcedure
    .meta(c.listSystemUsersMeta)
    .input(z.object({}))
    .output(c.ZListUsersOutput)
    .query(async ({ ctx }) => (await d.listSystemUsers(ctx.em, ctx.actor)).map((u) => toUser(ctx, u))),

  get: authedProcedure
    .meta(c.getUserMeta)
    .input(c.ZGetUserInput)
    .output(c.ZUser)
    .query(async ({ ctx, input }) => toUser(ctx, await d.getUser(ctx.em, ctx.actor, input.login))),

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
