import * as d from '@trackline/domain';
import type { Context } from '../../trpc/context.js';

/** `runAs=<login>` executes as another user; only LOW_LEVEL_ADMIN may do that. */
export async function effectiveActor(
  ctx: Context & { actor: d.Actor },
  runAs: string | undefined,
): Promise<d.Actor> {
  if (!runAs || runAs.toLowerCase() === ctx.actor.login.toLowerCase()) return ctx.actor;
  d.requirePermission(
    ctx.actor,
    'LOW_LEVEL_ADMIN',
    undefined,
    'run commands as another user (LOW_LEVEL_ADMIN)',
  );
  const user = await ctx.em.findOne(d.User, { loginKey: runAs.toLowerCase() });
  if (!user) throw d.DomainError.invalid('runAs', `user [ ${runAs} ] not found`);
  return d.loadActor(ctx.em, user);
}
