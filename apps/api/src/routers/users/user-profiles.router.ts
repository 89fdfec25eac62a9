import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import { z } from 'zod';
import { authedProcedure, router } from '../../trpc/procedures.js';
import { toUser } from './users.router.js';

/**
 * `GET /user/current` and `GET /user/{login}`. Mounted last in the app router: `/user/{login}`
 * would otherwise shadow `/user/search`, `/user/tag`, `/user/token` and `/user/sessions`.
 */
export const userProfilesRouter = router({
  /** tRPC only: the caller and the permissions they hold (globally and per project). */
  me: authedProcedure
    .input(z.object({}))
    .output(c.ZMeOutput)
    .query(({ ctx }) => d.describeMe(ctx.em, ctx.actor)),

  current: authedProcedure
    .meta(c.getCurrentUserMeta)
    .input(c.ZGetCurrentUserInput)
    .output(c.ZUserProfile)
    .query(async ({ ctx }) => toUser(ctx, await d.getUser(ctx.em, ctx.actor, ctx.actor.login))),

  get: authedProcedure
    .meta(c.getUserProfileMeta)
    .input(c.ZGetUserProfileInput)
    .output(c.ZUserProfile)
    .query(async ({ ctx, input }) => toUser(ctx, await d.getUser(ctx.em, ctx.actor, input.login))),
});
