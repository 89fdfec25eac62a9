import { isPermissionKey } from '@trackline/contracts';
import { type Actor, covers, requirePermission } from '../auth/actor.js';
import { loadActor } from '../auth/load-actor.js';
import { requireCovers } from '../auth/require-covers.js';
import { emitSecurityEvent } from '../auth/security-events.js';
import { setPassword } from '../auth/sessions.js';
import { DomainError } from '../errors.js';
import { findGroupByName } from '../groups/group-names.js';
import { IssueComment } from '../model/comment.entity.js';
import { Issue } from '../model/issue.entity.js';
import { IssueChange } from '../model/issue-change.entity.js';
import { IssueEvent } from '../model/issue-event.entity.js';
import { Project } from '../model/project.entity.js';
import { Role } from '../model/role.entity.js';
import { DELETED_USER } from '../model/seed-data.js';
import { type IUser, User } from '../model/user.entity.js';
import type { Em } from '../orm/em.js';
import { EFFECTIVE_GRANTS_SQL } from '../roles/effective-grants.js';
import { findReadableProject } from '../roles/grant-rules.js';
import { insertUser } from './users.js';

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
};

async function findUser(em: Em, login: string): Promise<IUser> {
  const user = await em.findOne(User, { loginKey: login.toLowerCase() });
  if (!user) throw DomainError.notFound('User', login);
  return user;
}

/**
 * `POST /admin/user/{login}`: full name, e-mail and jabber of oneself, or of anyone with
 * UPDATE_USER. A password here sets another user's (LOW_LEVEL_ADMIN, their sessions end);
 * one's own is changed with the current one at `/admin/user/{login}/password`.
 */
export async function updateUser(em: Em, actor: Actor, login: string, changes: UserChanges): Promise<IUser> {
  const own = login.toLowerCase() === actor.login.toLowerCase();
  if (!own) requirePermission(actor, 'UPDATE_USER');
  if (own && changes.password !== undefined)
    throw DomainError.invalid('password', 'of your own account is changed at /admin/user/{login}/password');
  const user = await findUser(em, login);
  const email = changes.email === undefined ? undefined : changes.email || null;
  const setter = email === undefined ? undefined : await emailSetter(em, actor, user, email, own);
  if (changes.password !== undefined) await setPassword(em, actor, user.login, changes.password, false);
  if (changes.fullName !== undefined) user.fullName = changes.fullName;
  if (email !== undefined && setter !== undefined) {
    user.email = email;
    user.emailKey = email?.toLowerCase() ?? null;
    user.emailSetBy = email ? setter : null;
  }
  if (changes.jabber !== undefined) user.jabber = changes.jabber || null;
  await em.flush();
  if (setter !== undefined) emitSecurityEvent(em, actor, { event: 'user.email.changed', target: user.login });
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

/**
 * Only ordinary accounts can be deleted or merged away, never one's own, and only by a caller
 * who holds everything that account holds (deleting must not be a way to strip someone of
 * more rights than one has; merging hands the merged account's rights to the kept one).
 */
async function requireRemovable(em: Em, actor: Actor, user: IUser) {
  if (user.type !== 'user') throw DomainError.forbidden(`remove the ${user.type} account [ ${user.login} ]`);
  if (user.id === actor.userId) throw DomainError.forbidden('remove your own account');
  await requireCovers(em, actor, user, 'remove');
}

/** The system account that stands in for deleted users (ensured by the seed at every start). */
async function deletedUser(em: Em): Promise<IUser> {
  return (await em.findOne(User, { loginKey: DELETED_USER.login })) ?? insertUser(em, DELETED_USER);
}

/**
 * What keeps pointing at a user after they go: issues they reported (or last updated, by import), comments they wrote,
 * changes they made, projects they lead, field values naming them. Moved to `to` (the kept user of a merge, or
 * the deleted-user account); everything else of theirs (grants, memberships, sessions,
 * tokens, stars, votes, own tags and searches) goes with the account.
 */
async function reassignAuthorship(em: Em, from: IUser, to: IUser) {
  await em.nativeUpdate(Issue, { reporter: from.id }, { reporter: to.id });
  await em.nativeUpdate(Issue, { updater: from.id }, { updater: to.id });
  await em.nativeUpdate(IssueComment, { author: from.id }, { author: to.id });
  await em.nativeUpdate(IssueChange, { updater: from.id }, { updater: to.id });
  await em.nativeUpdate(IssueEvent, { actor: from.id }, { actor: to.id });
  await em.nativeUpdate(Project, { lead: from.id }, { lead: to.id });
  await moveUserRows(em, 'issue_field_values', 'user_id', from.id, to.id, ['issue_id', 'field_id', 'slot']);
}

/**
 * Moves rows from one user to another unless the other already has an equal row (the
 * `sameWhen` columns); leftovers go when the user is deleted (their foreign keys cascade).
 */
async function moveUserRows(
  em: Em,
  table: string,
  column: string,
  from: number,
  to: number,
  sameWhen: string[],
) {
  const same = sameWhen.map((c) => `o.${c} = ${table}.${c}`).join(' and ');
  await em
    .getConnection()
    .execute(
      `update ${table} set ${column} = ? where ${column} = ? and not exists ` +
        `(select 1 from ${table} o where o.${column} = ? and ${same})`,
      [to, from, to],
      'run',
      em.getTransactionContext(),
    );
}

export async function deleteUser(em: Em, actor: Actor, login: string): Promise<void> {
  requirePermission(actor, 'DELETE_USER');
  const user = await findUser(em, login);
  await requireRemovable(em, actor, user);
  await em.transactional(async (tx) => {
    const replacement = await deletedUser(tx);
    await reassignAuthorship(tx, user, replacement);
    await tx.nativeDelete(User, { id: user.id });
  });
  emitSecurityEvent(em, actor, { event: 'user.deleted', target: user.login });
}

/**
 * `POST /admin/user/{login}/merge/{loginToMerge}`: everything of the second account moves to
 * the first (authorship, grants, group memberships, user bundles (assignees), stars, votes, tags and saved searches
 * whose names do not clash), then the second is deleted.
 */
export async function mergeUsers(em: Em, actor: Actor, login: string, loginToMerge: string): Promise<IUser> {
  requirePermission(actor, 'UPDATE_USER');
  requirePermission(actor, 'DELETE_USER');
  const keep = await findUser(em, login);
  const merged = await findUser(em, loginToMerge);
  if (keep.id === merged.id) throw DomainError.invalid('loginToMerge', 'is the same account as login');
  // The kept account receives the merged one's grants and memberships: never a built-in
  // account (guest, deleted_user, workflow, service, import placeholders), which would then
  // lend them to everyone it stands for.
  if (keep.type !== 'user' && keep.type !== 'root')
    throw DomainError.forbidden(`merge into the ${keep.type} account [ ${keep.login} ]`);
  await requireRemovable(em, actor, merged);
  await em.transactional(async (tx) => {
    await reassignAuthorship(tx, merged, keep);
    await moveUserRows(tx, 'role_grants', 'user_id', merged.id, keep.id, ['role_id', 'scope_key']);
    await moveUserRows(tx, 'group_members', 'user_id', merged.id, keep.id, ['group_id']);
    await moveUserRows(tx, 'bundle_users', 'user_id', merged.id, keep.id, ['bundle_id']);
    await moveUserRows(tx, 'issue_stars', 'user_id', merged.id, keep.id, ['issue_id']);
    await moveUserRows(tx, 'issue_votes', 'user_id', merged.id, keep.id, ['issue_id']);
    await moveUserRows(tx, 'tags', 'owner_id', merged.id, keep.id, ['name_key']);
    await moveUserRows(tx, 'saved_searches', 'owner_id', merged.id, keep.id, ['name_key']);
    // E-mails the merged account set stay as trusted as before: the kept one now holds its grants.
    await tx.nativeUpdate(User, { emailSetBy: merged.id }, { emailSetBy: keep.id });
    await tx.nativeDelete(User, { id: merged.id });
  });
  emitSecurityEvent(em, actor, { event: 'user.merged', target: keep.login, merged: merged.login });
  return keep;
}
