import { type Actor, requirePermission } from '../auth/actor.js';
import { requireCovers } from '../auth/require-covers.js';
import { emitSecurityEvent } from '../auth/security-events.js';
import { DomainError } from '../errors.js';
import { Session } from '../model/token.entity.js';
import { type IUser, User } from '../model/user.entity.js';
import type { Em } from '../orm/em.js';
import { inTransaction } from '../orm/transaction.js';
import { getUser } from './users.js';

/** What the console's user page shows of an account: the legacy user attributes and whether it is banned. */
export type UserAccount = {
  login: string;
  fullName: string;
  email: string | null;
  type: IUser['type'];
  banned: boolean;
};

const toAccount = (u: IUser): UserAccount => ({
  login: u.login,
  fullName: u.fullName,
  email: u.email ?? null,
  type: u.type,
  banned: u.banned,
});

/** One account as the console's administration shows it (oneself, or anyone with READ_USER). */
export async function getUserAccount(em: Em, actor: Actor, login: string): Promise<UserAccount> {
  return toAccount(await getUser(em, actor, login));
}

/**
 * Bans an ordinary account, or lifts its ban (UPDATE_USER, and everything the account holds, as
 * for deleting it; never one's own or a built-in account). A banned account keeps its issues,
 * comments, grants and memberships but cannot authenticate: its sessions end at once and its
 * password and tokens are refused while the ban lasts.
 */
export async function setUserBanned(
  em: Em,
  actor: Actor,
  login: string,
  banned: boolean,
): Promise<UserAccount> {
  requirePermission(actor, 'UPDATE_USER');
  const user = await em.findOne(User, { loginKey: login.toLowerCase() });
  if (!user) throw DomainError.notFound('User', login);
  if (user.type !== 'user') throw DomainError.forbidden(`ban the ${user.type} account [ ${user.login} ]`);
  if (user.id === actor.userId) throw DomainError.forbidden('ban your own account');
  await requireCovers(em, actor, user, banned ? 'ban' : 'lift the ban of');
  if (user.banned !== banned) {
    await inTransaction(em, async (tx) => {
      await tx.nativeUpdate(User, { id: user.id }, { banned });
      if (banned) await tx.nativeDelete(Session, { user: user.id });
    });
    emitSecurityEvent(em, actor, { event: banned ? 'user.banned' : 'user.unbanned', target: user.login });
  }
  return { ...toAccount(user), banned };
}
