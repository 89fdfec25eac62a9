import { DomainError } from '../errors.js';
import { User } from '../model/user.entity.js';
import type { Em } from '../orm/em.js';
import { type Actor, covers, requirePermission } from './actor.js';
import { loadActor } from './load-actor.js';

/**
 * The actor a request acts as: the caller, or with `runAs=<login>` another user. Only
 * LOW_LEVEL_ADMIN may do that, and only as a user whose permissions the caller holds too,
 * scope by scope (`covers`): running as someone must never act with more rights than the
 * caller has (root, who holds everything, can be run as only by a caller holding every
 * permission globally).
 */
export async function resolveRunAs(em: Em, caller: Actor, runAs: string | undefined): Promise<Actor> {
  if (!runAs || runAs.toLowerCase() === caller.login.toLowerCase()) return caller;
  requirePermission(caller, 'LOW_LEVEL_ADMIN', undefined, 'run commands as another user (LOW_LEVEL_ADMIN)');
  const user = await em.findOne(User, { loginKey: runAs.toLowerCase() });
  if (!user) throw DomainError.invalid('runAs', `user [ ${runAs} ] not found`);
  const other = await loadActor(em, user);
  if (!covers(caller, other)) {
    throw DomainError.forbidden(`run commands as [ ${user.login} ]: they hold permissions you do not`);
  }
  return other;
}
