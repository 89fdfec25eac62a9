import { DomainError } from '../errors.js';
import { type IPermanentToken, PermanentToken } from '../model/token.entity.js';
import type { Em } from '../orm/em.js';
import { onUniqueViolation, rejectWith } from '../orm/unique.js';
import type { Actor } from './actor.js';
import { formatPermanentToken, randomSecret, sha256Hex } from './secrets.js';
import { emitSecurityEvent } from './security-events.js';

export async function createPermanentToken(
  em: Em,
  actor: Actor,
  name: string,
): Promise<{ token: string; row: IPermanentToken }> {
  const secret = randomSecret(24);
  return onUniqueViolation(
    async () => {
      const row = em.create(PermanentToken, { user: actor.userId, name, secretHash: sha256Hex(secret) });
      await em.flush();
      emitSecurityEvent(em, actor, { event: 'token.created', target: actor.login, tokenName: name });
      return { token: formatPermanentToken(actor.login, name, secret), row };
    },
    rejectWith(() => DomainError.alreadyExists('Token', name)),
  );
}

export async function revokePermanentToken(em: Em, actor: Actor, name: string): Promise<void> {
  const removed = await em.nativeDelete(PermanentToken, { user: actor.userId, name });
  if (removed === 0) throw DomainError.notFound('Token', name);
  emitSecurityEvent(em, actor, { event: 'token.revoked', target: actor.login, tokenName: name });
}

export function listPermanentTokens(em: Em, actor: Actor): Promise<IPermanentToken[]> {
  return em.find(PermanentToken, { user: actor.userId }, { orderBy: { name: 'asc' } });
}
