import * as d from '@trackline/domain';
import type { Context } from '../../trpc/context.js';

/**
 * `runAs=<login>` executes as another user. Only LOW_LEVEL_ADMIN may do that, and only as a
 * user whose permissions the caller holds too, scope by scope (`covers`): running as someone
 * must never act with more rights than the caller has (root, who holds everything, can be run
 * as only by a caller holding every permission globally).
 */
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
  const other = await d.loadActor(ctx.em, user);
  if (!d.covers(ctx.actor, other)) {
    throw d.DomainError.forbidden(`run commands as [ ${user.login} ]: they hold permissions you do not`);
  }
  return other;
}
