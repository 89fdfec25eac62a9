import type { Actor } from '../auth/actor.js';
import { requireCovers } from '../auth/require-covers.js';
import { DomainError } from '../errors.js';
import { IssueComment } from '../model/comment.entity.js';
import { Issue } from '../model/issue.entity.js';
import { IssueChange } from '../model/issue-change.entity.js';
import { IssueEvent } from '../model/issue-event.entity.js';
import { Project } from '../model/project.entity.js';
import { BUILT_IN_LOGINS, DELETED_USER } from '../model/seed-data.js';
import { type IUser, User } from '../model/user.entity.js';
import type { Em } from '../orm/em.js';
import { insertUser } from './users.js';

/**
 * What deleting and merging accounts share: finding the account, the rule for which accounts may
 * go, and moving what points at them (not part of the package's API).
 */

export async function findUser(em: Em, login: string): Promise<IUser> {
  const user = await em.findOne(User, { loginKey: login.toLowerCase() });
  if (!user) throw DomainError.notFound('User', login);
  return user;
}

/**
 * Only ordinary accounts can be deleted or merged away, never one's own, and only by a caller
 * who holds everything that account holds (deleting must not be a way to strip someone of
 * more rights than one has; merging hands the merged account's rights to the kept one).
 */
export async function requireRemovable(em: Em, actor: Actor, user: IUser) {
  if (user.type !== 'user') throw DomainError.forbidden(`remove the ${user.type} account [ ${user.login} ]`);
  // By login too: a built-in account whose row an older import made ordinary is still built in.
  if (BUILT_IN_LOGINS.has(user.loginKey))
    throw DomainError.forbidden(`remove the built-in account [ ${user.login} ]`);
  if (user.id === actor.userId) throw DomainError.forbidden('remove your own account');
  await requireCovers(em, actor, user, 'remove');
}

/** The system account that stands in for deleted users (ensured by the seed at every start). */
export async function deletedUser(em: Em): Promise<IUser> {
  return (await em.findOne(User, { loginKey: DELETED_USER.login })) ?? insertUser(em, DELETED_USER);
}

/**
 * What keeps pointing at a user after they go: issues they reported (or last updated, by import), comments they wrote,
 * changes they made, projects they lead, field values naming them. Moved to `to` (the kept user of a merge, or
 * the deleted-user account); everything else of theirs (grants, memberships, sessions,
 * tokens, stars, votes, own tags and searches) goes with the account.
 */
export async function reassignAuthorship(em: Em, from: IUser, to: IUser) {
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
export async function moveUserRows(
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
