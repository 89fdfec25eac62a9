import { DomainError } from '../errors.js';
import { Session } from '../model/token.entity.js';
import { User } from '../model/user.entity.js';
import type { Em } from '../orm/em.js';
import { inTransaction } from '../orm/transaction.js';
import { type Actor, requirePermission } from './actor.js';
import { hashPassword } from './password.js';
import { requireCovers } from './require-covers.js';
import { sha256Hex } from './secrets.js';
import { emitSecurityEvent } from './security-events.js';

/**
 * Session lifecycle beyond login (`createSession`): logout, revocation of every session of a
 * user, and password changes, which end every session of the user. Sessions are rows (only the
 * cookie's hash is stored), so an ended session is refused by every process at once.
 */

/** Ends the session whose cookie value is `value`; true when there was one. */
export async function endSession(em: Em, value: string): Promise<boolean> {
  return (await em.nativeDelete(Session, { idHash: sha256Hex(value) })) > 0;
}

/**
 * Ends every session of `login` (the caller's own by default); returns how many ended.
 * Another user's sessions need `UPDATE_USER` (checked before the user is looked up).
 */
export async function revokeSessions(em: Em, actor: Actor, login?: string): Promise<number> {
  const own = login === undefined || login.toLowerCase() === actor.login.toLowerCase();
  let target = { id: actor.userId, login: actor.login };
  if (!own) {
    requirePermission(actor, 'UPDATE_USER', undefined, "end other users' sessions (UPDATE_USER)");
    const user = await em.findOne(User, { loginKey: login.toLowerCase() });
    if (!user) throw DomainError.notFound('User', login);
    target = user;
  }
  const count = await em.nativeDelete(Session, { user: target.id });
  emitSecurityEvent(em, actor, { event: 'sessions.ended', target: target.login, count });
  return count;
}

/**
 * Sets the password of `login` and ends all of that user's sessions (a remembered HTTP Basic
 * pair ends too: it is only used while the stored hash is unchanged). The caller's own password
 * needs the current one, verified by the API beforehand (it is throttled there); another user's
 * needs `LOW_LEVEL_ADMIN` (as the legacy service: taking over an account is as strong as `runAs`).
 */
export async function setPassword(
  em: Em,
  actor: Actor,
  login: string,
  newPassword: string,
  ownPasswordVerified: boolean,
): Promise<void> {
  const own = login.toLowerCase() === actor.login.toLowerCase();
  if (own && !ownPasswordVerified)
    throw DomainError.forbidden('change your password without the current one');
  if (!own)
    requirePermission(actor, 'LOW_LEVEL_ADMIN', undefined, "set other users' passwords (LOW_LEVEL_ADMIN)");
  const user = await em.findOne(User, { loginKey: login.toLowerCase() });
  if (!user) throw DomainError.notFound('User', login);
  // Whoever sets a password can sign in as that account: as for runAs, only over an account
  // holding nothing the caller lacks (LOW_LEVEL_ADMIN alone must not become root).
  if (!own) await requireCovers(em, actor, user, 'set the password of');
  const passwordHash = await hashPassword(newPassword);
  await inTransaction(em, async (tx) => {
    await tx.nativeUpdate(User, { id: user.id }, { passwordHash });
    await tx.nativeDelete(Session, { user: user.id });
  });
  emitSecurityEvent(em, actor, { event: 'password.changed', target: user.login });
}

/**
 * `POST /admin/user/{login}/password`: one's own password needs the current one (checked by
 * `verifyCurrent`, which the API throttles like a login); another user's needs LOW_LEVEL_ADMIN.
 * Either way every session of that user ends.
 */
export async function changePassword(
  em: Em,
  actor: Actor,
  input: { login: string; password?: string | undefined; newPassword: string },
  verifyCurrent: (password: string) => Promise<boolean>,
): Promise<{ own: boolean }> {
  const own = input.login.toLowerCase() === actor.login.toLowerCase();
  if (own) {
    if (!input.password) throw DomainError.invalid('password', 'is required (your current password)');
    if (!(await verifyCurrent(input.password)))
      throw DomainError.invalid('password', 'is not your current password');
  }
  await setPassword(em, actor, input.login, input.newPassword, own);
  return { own };
}
