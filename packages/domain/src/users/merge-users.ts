import { type Actor, can, requirePermission } from '../auth/actor.js';
import { emitSecurityEvent } from '../auth/security-events.js';
import { DomainError } from '../errors.js';
import { tables } from '../model/database.js';
import { BUILT_IN_LOGINS } from '../model/seed-data.js';
import { type IUser, User } from '../model/user.entity.js';
import type { Em } from '../orm/em.js';
import { runStatement } from '../orm/statements.js';
import { inTransaction } from '../orm/transaction.js';
import { readQuery } from '../orm/typed-query.js';
import { nameKey as ownedNameKey } from '../text/user-text.js';
import { findUser, moveUserRows, reassignAuthorship, requireRemovable } from './user-rows.js';

/** What a merge did beside moving rows: the tags merged into the kept user's, the searches renamed. */
export type MergeReport = {
  /** The kept user's tags that took the merged user's tag of the same name (the union of their issues). */
  mergedTags: string[];
  /** The merged user's saved searches whose names the kept user had: kept under a new name. */
  renamedSearches: { name: string; newName: string }[];
};

/**
 * `POST /admin/user/{login}/merge/{loginToMerge}`: everything of the second account moves to the
 * first (authorship, grants, group memberships, user bundles (assignees), stars, votes, tags and
 * saved searches), then the second is deleted. A tag whose name the kept user has too becomes
 * one tag on the union of their issues; a saved search whose name the kept user has too is kept
 * under the name with the merged login after it (`Mine (bob)`, `Mine (bob) 2`...).
 *
 * The caller must be allowed what the merge hands over: everything the merged account holds
 * (`requireRemovable`), and UPDATE_USERGROUP for every group the kept account gains, through a
 * membership or through content that the merged account reported or wrote restricted to that
 * group (its author and reporter read it): a merge is no way into a visibility group.
 */
export async function mergeUsers(
  em: Em,
  actor: Actor,
  login: string,
  loginToMerge: string,
): Promise<MergeReport> {
  requirePermission(actor, 'UPDATE_USER');
  requirePermission(actor, 'DELETE_USER');
  const keep = await findUser(em, login);
  const merged = await findUser(em, loginToMerge);
  if (keep.id === merged.id) throw DomainError.invalid('loginToMerge', 'is the same account as login');
  // The kept account receives the merged one's grants and memberships: never a built-in
  // account (guest, deleted_user, workflow, service, import placeholders), which would then
  // lend them to everyone it stands for.
  const ordinary = keep.type === 'root' || (keep.type === 'user' && !BUILT_IN_LOGINS.has(keep.loginKey));
  if (!ordinary) throw DomainError.forbidden(`merge into the ${keep.type} account [ ${keep.login} ]`);
  await requireRemovable(em, actor, merged);
  await requireGroupsGained(em, actor, keep, merged);
  const report = await inTransaction(em, async (tx) => {
    await reassignAuthorship(tx, merged, keep);
    await moveUserRows(tx, 'role_grants', 'user_id', merged.id, keep.id, ['role_id', 'scope_key']);
    await moveUserRows(tx, 'group_members', 'user_id', merged.id, keep.id, ['group_id']);
    await moveUserRows(tx, 'bundle_users', 'user_id', merged.id, keep.id, ['bundle_id']);
    await moveUserRows(tx, 'issue_stars', 'user_id', merged.id, keep.id, ['issue_id']);
    await moveUserRows(tx, 'issue_votes', 'user_id', merged.id, keep.id, ['issue_id']);
    const mergedTags = await mergeClashingTags(tx, keep, merged);
    await moveUserRows(tx, 'tags', 'owner_id', merged.id, keep.id, ['name_key']);
    const renamedSearches = await renameClashingSearches(tx, keep, merged);
    await moveUserRows(tx, 'saved_searches', 'owner_id', merged.id, keep.id, ['name_key']);
    // E-mails the merged account set stay as trusted as before: the kept one now holds its grants.
    await tx.nativeUpdate(User, { emailSetBy: merged.id }, { emailSetBy: keep.id });
    await tx.nativeDelete(User, { id: merged.id });
    return { mergedTags, renamedSearches };
  });
  emitSecurityEvent(em, actor, { event: 'user.merged', target: keep.login, merged: merged.login });
  return report;
}

/**
 * The groups whose restricted content the kept account would read after the merge and does not
 * read now by membership: the merged account's groups, and the groups of the issues it reported
 * and of the comments it wrote that are visible to a group only. Each needs UPDATE_USERGROUP, as
 * adding the kept account to it would (its roles are covered already: the caller holds everything
 * the merged account holds, group roles included).
 */
async function requireGroupsGained(em: Em, actor: Actor, keep: IUser, merged: IUser): Promise<void> {
  if (can(actor, 'UPDATE_USERGROUP')) return;
  const memberships = tables
    .selectFrom('group_members')
    .select('group_id as id')
    .where('user_id', '=', merged.id);
  const reported = tables
    .selectFrom('issues')
    .select('permitted_group_id as id')
    .where('reporter_id', '=', merged.id)
    .where('permitted_group_id', 'is not', null)
    .$narrowType<{ id: number }>();
  const written = tables
    .selectFrom('issue_comments')
    .select('permitted_group_id as id')
    .where('author_id', '=', merged.id)
    .where('permitted_group_id', 'is not', null)
    .$narrowType<{ id: number }>();
  const kept = tables.selectFrom('group_members').select('group_id').where('user_id', '=', keep.id);
  const gained = await readQuery(
    em,
    tables
      .selectFrom('user_groups as g')
      .select('g.name')
      .where('g.id', 'in', memberships.union(reported).union(written))
      .where('g.id', 'not in', kept)
      .orderBy('g.name_key'),
  );
  if (gained.length === 0) return;
  throw DomainError.forbidden(
    `merge [ ${merged.login} ] into [ ${keep.login} ]: [ ${keep.login} ] would join or read what is visible to group ` +
      `${gained.map((g) => `[ ${g.name} ]`).join(', ')} only, which needs UPDATE_USERGROUP`,
  );
}

/**
 * Tags of the merged account whose name the kept one has too: their issues join the kept tag
 * (no issue twice); the merged tag goes with its account. Answers the kept tags' names.
 */
async function mergeClashingTags(tx: Em, keep: IUser, merged: IUser): Promise<string[]> {
  const clashing = await readQuery(
    tx,
    tables
      .selectFrom('tags as m')
      .innerJoin('tags as k', (join) =>
        join.onRef('k.name_key', '=', 'm.name_key').on('k.owner_id', '=', keep.id),
      )
      .select(['m.id as merged_id', 'k.id as kept_id', 'k.name'])
      .where('m.owner_id', '=', merged.id)
      .orderBy('k.name_key'),
  );
  for (const tag of clashing) {
    await runStatement(
      tx,
      'insert into issue_tags (issue_id, tag_id) select t.issue_id, ? from issue_tags t where t.tag_id = ? ' +
        'and not exists (select 1 from issue_tags o where o.tag_id = ? and o.issue_id = t.issue_id)',
      [Number(tag.kept_id), Number(tag.merged_id), Number(tag.kept_id)],
    );
  }
  return clashing.map((t) => t.name);
}

/** Saved search names are at most this long (the column). */
const MAX_NAME = 100;

/**
 * Saved searches of the merged account whose name the kept one has too: renamed `Name (login)`
 * (then `Name (login) 2`, ...) to a name neither account uses, the base cut to fit 100 characters.
 */
async function renameClashingSearches(
  tx: Em,
  keep: IUser,
  merged: IUser,
): Promise<{ name: string; newName: string }[]> {
  const all = await readQuery(
    tx,
    tables
      .selectFrom('saved_searches')
      .select(['id', 'owner_id', 'name', 'name_key'])
      .where('owner_id', 'in', [keep.id, merged.id])
      .orderBy('id'),
  );
  const keptKeys = new Set(all.filter((s) => Number(s.owner_id) === keep.id).map((s) => s.name_key));
  const taken = new Set(all.map((s) => s.name_key));
  const renamed: { name: string; newName: string }[] = [];
  for (const search of all) {
    if (Number(search.owner_id) !== merged.id || !keptKeys.has(search.name_key)) continue;
    const newName = freeName(search.name, merged.login, taken);
    taken.add(ownedNameKey(newName));
    await runStatement(tx, 'update saved_searches set name = ?, name_key = ? where id = ?', [
      newName,
      ownedNameKey(newName),
      Number(search.id),
    ]);
    renamed.push({ name: search.name, newName });
  }
  return renamed;
}

/** Code points, not UTF-16 units: what the column's length counts. */
const cut = (text: string, length: number) => [...text].slice(0, length).join('');

function freeName(name: string, login: string, taken: ReadonlySet<string>): string {
  // A login is at most 100 characters: at most 40 of it in the suffix leaves room for the name.
  const who = cut(login, 40);
  for (let n = 1; ; n++) {
    const suffix = ` (${who})${n > 1 ? ` ${n}` : ''}`;
    const candidate = `${cut(name, MAX_NAME - [...suffix].length).trimEnd()}${suffix}`;
    if (!taken.has(ownedNameKey(candidate))) return candidate;
  }
}
