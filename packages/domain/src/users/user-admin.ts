import { isPermissionKey } from '@trackline/contracts';
import { type Actor, covers, requirePermission } from '../auth/actor.js';
import { loadActor } from '../auth/load-actor.js';
import { requireCovers } from '../auth/require-covers.js';
import { emitSecurityEvent } from '../auth/security-events.js';
import { setPassword } from '../auth/sessions.js';
import { DomainError } from '../errors.js';
import { findGroupByName } from '../groups/group-names.js';
import { Role } from '../model/role.entity.js';
import { type IUser, User } from '../model/user.entity.js';
import type { Em } from '../orm/em.js';
import { inTransaction } from '../orm/transaction.js';
import { onUniqueViolation, rejectWith } from '../orm/unique.js';
import { EFFECTIVE_GRANTS_SQL } from '../roles/effective-grants.js';
import { findReadableProject } from '../roles/grant-rules.js';
import { emailKeyOf, emailTaken, requireEmailFree } from './email-keys.js';
import { setUserBanned } from './user-ban.js';
import { deletedUser, findUser, reassignAuthorship, requireRemovable } from './user-rows.js';
import { createUser } from './users.js';

export const USERS_PAGE = 10;

export type UserFilter = {
  /** Part of the login, full name or e-mail (case-insensitive). */
  q?: string | undefined;
  group?: string | undefined;
  role?: string | undefined;
  project?: string | undefined;
  permission?: string | undefined;
  start?: number | undefined;
};

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * `GET /admin/user?q&group&role&project&permission&start`: ten users a page, by login. Unknown
 * group, role, project or permission is NOT_FOUND (a filter that cannot match is a mistake).
 * `project` keeps users holding a role there or globally; `permission`, users whose role carries it.
 */
export async function listUsers(em: Em, actor: Actor, filter: UserFilter): Promise<IUser[]> {
  requirePermission(actor, 'READ_USER');
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.q) {
    where.push(
      "(login_key like ? escape '\\' or lower(full_name) like ? escape '\\' or email_key like ? escape '\\')",
    );
    const pattern = likePattern(filter.q);
    params.push(pattern, pattern, pattern);
  }
  if (filter.group) {
    const group = await findGroupByName(em, filter.group);
    if (!group) throw DomainError.notFound('Group', filter.group);
    where.push('id in (select user_id from group_members where group_id = ?)');
    params.push(group.id);
  }
  if (filter.role || filter.project || filter.permission) {
    const conditions: string[] = [];
    if (filter.role) {
      const role = await em.findOne(Role, { nameKey: filter.role.toLowerCase() });
      if (!role) throw DomainError.notFound('Role', filter.role);
      conditions.push('e.role_id = ?');
      params.push(role.id);
    }
    if (filter.project) {
      const project = await findReadableProject(em, actor, filter.project);
      conditions.push('(e.project_id = ? or e.project_id is null)');
      params.push(project.id);
    }
    if (filter.permission) {
      if (!isPermissionKey(filter.permission)) throw DomainError.notFound('Permission', filter.permission);
      conditions.push('e.role_id in (select role_id from role_permissions where permission_key = ?)');
      params.push(filter.permission);
    }
    where.push(`id in (select e.user_id from ${EFFECTIVE_GRANTS_SQL} e where ${conditions.join(' and ')})`);
  }
  const sql =
    `select id from users${where.length ? ` where ${where.join(' and ')}` : ''} ` +
    `order by login_key limit ${USERS_PAGE} offset ${Math.max(0, Math.trunc(filter.start ?? 0))}`;
  const ids = (await em.getConnection().execute<{ id: number }[]>(sql, params)).map((r) => Number(r.id));
  if (ids.length === 0) return [];
  return em.find(User, { id: { $in: ids } }, { orderBy: { loginKey: 'asc' } });
}

export type UserChanges = {
  fullName?: string | undefined;
  email?: string | undefined;
  jabber?: string | undefined;
  password?: string | undefined;
  /** Told nothing by notifications; another user's only (UPDATE_USER). */
  banned?: boolean | undefined;
};

/**
 * `POST /admin/user/{login}`: full name, e-mail and jabber of oneself, or of anyone with
 * UPDATE_USER. A password here sets another user's (LOW_LEVEL_ADMIN, their sessions end);
 * one's own is changed with the current one at `/admin/user/{login}/password`.
 */
export async function updateUser(em: Em, actor: Actor, login: string, changes: UserChanges): Promise<IUser> {
  const own = login.toLowerCase() === actor.login.toLowerCase();
  if (!own) requirePermission(actor, 'UPDATE_USER');
  if (own && changes.banned !== undefined) throw DomainError.forbidden('ban or unban your own account');
  if (own && changes.password !== undefined)
    throw DomainError.invalid('password', 'of your own account is changed at /admin/user/{login}/password');
  const user = await findUser(em, login);
  const email = changes.email === undefined ? undefined : changes.email || null;
  const setter = email === undefined ? undefined : await emailSetter(em, actor, user, email, own);
  // Another account's address (any case) is refused before anything changes: 409.
  const newKey = email ? emailKeyOf(email) : null;
  if (email && setter !== undefined && newKey !== user.emailKey) await requireEmailFree(em, email, user.id);
  if (changes.password !== undefined) await setPassword(em, actor, user.login, changes.password, false);
  if (changes.fullName !== undefined) user.fullName = changes.fullName;
  if (email !== undefined && setter !== undefined) {
    user.email = email;
    user.emailKey = newKey;
    user.emailSetBy = email ? setter : null;
  }
  if (changes.jabber !== undefined) user.jabber = changes.jabber || null;
  // A concurrent change took the address after the check: the unique index refuses it.
  await onUniqueViolation(
    () => em.flush(),
    rejectWith(() => emailTaken(email ?? '')),
  );
  if (setter !== undefined) emitSecurityEvent(em, actor, { event: 'user.email.changed', target: user.login });
  // The legacy `banned` parameter bans as the console does: sessions end, the ban is logged.
  if (changes.banned !== undefined)
    user.banned = (await setUserBanned(em, actor, user.login, changes.banned)).banned;
  return user;
}

/**
 * Who is recorded as setting `user`'s e-mail to `email` (null: the owner), or undefined to leave
 * it as it is. Commits are matched to accounts by e-mail, so whoever sets another account's
 * e-mail could act as it: changing it needs everything that account holds (403 otherwise, as
 * delete and merge). The same e-mail sent again by an administrator who holds all that confirms
 * it (the VCS match trusts it again); by one who does not, it changes nothing.
 */
async function emailSetter(em: Em, actor: Actor, user: IUser, email: string | null, own: boolean) {
  if (own) return null;
  if (email !== user.email) {
    await requireCovers(em, actor, user, 'change the e-mail of');
    return actor.userId;
  }
  return covers(actor, await loadActor(em, user)) ? actor.userId : undefined;
}

export async function deleteUser(em: Em, actor: Actor, login: string): Promise<void> {
  requirePermission(actor, 'DELETE_USER');
  const user = await findUser(em, login);
  await requireRemovable(em, actor, user);
  await inTransaction(em, async (tx) => {
    const replacement = await deletedUser(tx);
    await reassignAuthorship(tx, user, replacement);
    await tx.nativeDelete(User, { id: user.id });
  });
  emitSecurityEvent(em, actor, { event: 'user.deleted', target: user.login });
}

/**
 * `POST /admin/user?login&fullName&email&jabber&password` (the original's "POST User"): updates the
 * account with that login as `updateUser` does, or creates it as `createUser` does (CREATE_USER)
 * when there is none. `created` tells which.
 */
export async function saveUser(
  em: Em,
  actor: Actor,
  input: UserChanges & { login: string },
): Promise<{ user: IUser; created: boolean }> {
  const existing = await em.findOne(User, { loginKey: input.login.toLowerCase() });
  if (existing) return { user: await updateUser(em, actor, existing.login, input), created: false };
  const user = await createUser(em, actor, {
    login: input.login,
    fullName: input.fullName,
    email: input.email || undefined,
    jabber: input.jabber || undefined,
    password: input.password,
  });
  return { user, created: true };
}
