import type { UserType } from '@trackline/contracts';
import { DomainError } from '../errors.js';
import type { Em } from '../orm/em.js';
import { type Actor, covers } from './actor.js';
import { loadActor } from './load-actor.js';

/**
 * The caller holds everything `user` holds (else 403 `action user [ login ]: …`). For what lets
 * one act as or through another account: removing or merging it, setting its password or e-mail.
 */
export async function requireCovers(
  em: Em,
  actor: Actor,
  user: { id: number; login: string; type: UserType },
  action: string,
): Promise<void> {
  if (!covers(actor, await loadActor(em, user)))
    throw DomainError.forbidden(`${action} user [ ${user.login} ]: they hold permissions you do not`);
}
