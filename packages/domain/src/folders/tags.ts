import type { Actor } from '../auth/actor.js';
import { readableIssuesSql } from '../auth/issue-access.js';
import { DomainError } from '../errors.js';
import { IssueEvent } from '../model/issue-event.entity.js';
import { IssueTag, type ITag, Tag } from '../model/tag.entity.js';
import type { Em } from '../orm/em.js';
import { inTransaction } from '../orm/transaction.js';
import { onUniqueViolation, rejectWith } from '../orm/unique.js';
import { findOwned, findVisible, folderName, listVisible, type OwnedNameRef } from './owned-names.js';
import { DEFAULT_RESOURCE_LIMITS, limitReached, type Page, type ResourceLimits } from './resource-limits.js';
import { requireOwnerAccount, requireOwnerOr, requireShare } from './watch-folder-rules.js';

export type TagView = { id: number; folderId: string; name: string; shared: boolean; owner: string };

/** A tag: by id (number), or by name (string; the actor's own first, then a shared one). */
export type TagRef = OwnedNameRef;

export const tagFolderId = (id: number) => `t-${id}`;

export const toTagView = (t: ITag): TagView => ({
  id: t.id,
  folderId: tagFolderId(t.id),
  name: t.name,
  shared: t.shared,
  owner: t.owner.login,
});

const notFound = (ref: TagRef) => DomainError.notFound('Tag', String(ref));
const duplicate = (name: string) => DomainError.alreadyExists('Tag', name);

/** The actor's tags and the tags others share: own first, each group by name; a page of them when given. */
export async function listTags(em: Em, actor: Actor, page?: Page): Promise<TagView[]> {
  return (await listVisible(em, Tag, actor, page)).map(toTagView);
}

/** Refuses a new tag of the owner's beyond the cap (counted before inserting). */
export async function requireTagRoom(em: Em, ownerId: number, limits: ResourceLimits): Promise<void> {
  if ((await em.count(Tag, { owner: ownerId })) >= limits.maxTagsPerUser)
    throw limitReached('tags', limits.maxTagsPerUser);
}

/** A tag the actor can see (own or shared; any by id with a global UPDATE_WATCH_FOLDER); else NOT_FOUND. */
export async function findTag(em: Em, actor: Actor, ref: TagRef): Promise<ITag> {
  const found = await findVisible(em, Tag, actor, ref);
  if (!found) throw notFound(ref);
  return found;
}

export async function getTag(em: Em, actor: Actor, ref: TagRef): Promise<TagView> {
  return toTagView(await findTag(em, actor, ref));
}

export async function createTag(
  em: Em,
  actor: Actor,
  input: { name: string; shared?: boolean | undefined },
  limits: ResourceLimits = DEFAULT_RESOURCE_LIMITS,
): Promise<TagView> {
  requireOwnerAccount(actor, 'create tags');
  const name = folderName(input.name);
  if (input.shared) requireShare(actor);
  if (await findOwned(em, Tag, actor.userId, name)) throw duplicate(name);
  await requireTagRoom(em, actor.userId, limits);
  return onUniqueViolation(
    async () => {
      const tag = em.create(Tag, {
        owner: actor.userId,
        name,
        nameKey: name.toLowerCase(),
        shared: input.shared ?? false,
      });
      await em.flush();
      await em.populate(tag, ['owner']);
      return toTagView(tag);
    },
    rejectWith(() => duplicate(name)),
  );
}

/** Renames or (un)shares a tag: the owner, or another user with a global UPDATE_WATCH_FOLDER. */
export async function updateTag(
  em: Em,
  actor: Actor,
  ref: TagRef,
  changes: { name?: string | undefined; shared?: boolean | undefined },
): Promise<TagView> {
  const tag = await findTag(em, actor, ref);
  requireOwnerOr(actor, tag.owner.id, 'UPDATE_WATCH_FOLDER', 'change tags');
  if (changes.shared && !tag.shared) requireShare(actor);
  if (changes.name !== undefined) {
    const name = folderName(changes.name);
    if (name.toLowerCase() !== tag.nameKey) {
      if (await findOwned(em, Tag, tag.owner.id, name)) throw duplicate(name);
    }
    Object.assign(tag, { name, nameKey: name.toLowerCase() });
  }
  if (changes.shared !== undefined) tag.shared = changes.shared;
  await onUniqueViolation(
    () => em.flush(),
    rejectWith(() => duplicate(changes.name ?? tag.name)),
  );
  return toTagView(tag);
}

export function renameTag(em: Em, actor: Actor, ref: TagRef, newName: string): Promise<TagView> {
  return updateTag(em, actor, ref, { name: newName });
}

/**
 * Deletes a tag and removes it from every issue, atomically: the owner, or a global
 * DELETE_WATCH_FOLDER. A shared tag may carry others' work on issues the deleter cannot
 * read (or that are in the trash): then the deletion is refused (403) rather than silently
 * untagging what the deleter cannot see; someone who reads every such issue may delete it.
 */
export async function deleteTag(em: Em, actor: Actor, ref: TagRef): Promise<void> {
  await inTransaction(em, async (tx) => {
    const tag = await findTag(tx, actor, ref);
    requireOwnerOr(actor, tag.owner.id, 'DELETE_WATCH_FOLDER', 'delete tags');
    if (await taggedOutOfSight(tx, actor, tag.id))
      throw DomainError.forbidden(`delete tag [ ${tag.name} ]: it is on issues you cannot read`);
    await tx.nativeDelete(IssueTag, { tag: tag.id });
    await tx.nativeDelete(IssueEvent, { tag: tag.id });
    await tx.nativeDelete(Tag, { id: tag.id });
  });
}

/** Whether the tag is on an issue the actor cannot read. */
async function taggedOutOfSight(em: Em, actor: Actor, tagId: number): Promise<boolean> {
  const scope = readableIssuesSql(actor);
  if (scope !== 'none' && scope.sql === '1 = 1') return false;
  const readable = scope === 'none' ? { sql: '1 = 0', params: [] } : scope;
  const rows = await em.execute<{ n: number }[]>(
    'select count(*) as n from issue_tags it join issues i on i.id = it.issue_id ' +
      `where it.tag_id = ? and not (${readable.sql})`,
    [tagId, ...readable.params],
  );
  return Number(rows[0]?.n ?? 0) > 0;
}
