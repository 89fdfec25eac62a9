import { MAX_COMMENT_LENGTH } from '@trackline/contracts';
import { type Actor, can, requirePermission } from '../../auth/actor.js';
import { DomainError } from '../../errors.js';
import { canUseGroup, findGroupByName } from '../../groups/group-names.js';
import { type IIssueComment, IssueComment } from '../../model/comment.entity.js';
import { Issue } from '../../model/issue.entity.js';
import type { Em } from '../../orm/em.js';
import { toMs } from '../../orm/row-values.js';
import { inTransaction } from '../../orm/transaction.js';
import { storableText } from '../../text/user-text.js';
import { findReadableIssue, type IssueRef } from '../find-issues.js';
import { recordIssueEvent } from '../history/issue-events.js';

/**
 * Who sees a comment restricted to a group (`permittedGroup`): its author and the group's
 * members. The one place this rule lives: the issue view's SQL uses `visibleCommentsSql`.
 */
export function canSeeComment(actor: Actor, comment: { authorId: number; groupId: number | null }): boolean {
  if (comment.groupId === null || comment.authorId === actor.userId) return true;
  return actor.groups?.has(comment.groupId) ?? false;
}

/** The SQL condition (on alias `c`) for the comments the actor may see, with its parameters. */
export function visibleCommentsSql(actor: Actor): { sql: string; params: number[] } {
  const groups = [...(actor.groups ?? [])];
  const inGroups = groups.length ? ` or c.permitted_group_id in (${groups.map(() => '?').join(', ')})` : '';
  return {
    sql: `(c.permitted_group_id is null or c.author_id = ?${inGroups})`,
    params: [actor.userId, ...groups],
  };
}

/**
 * The group a comment or a new issue is restricted to (`group` of execute, `permittedGroup`), or
 * null for none given: NOT_FOUND for an unknown group and, alike, for one the actor may not use
 * (`canUseGroup`: its own groups, or all with READ_USERGROUP there), so names cannot be probed.
 */
export async function findVisibilityGroup(
  em: Em,
  actor: Actor,
  name: string | undefined,
  projectIds: readonly number[],
): Promise<number | null> {
  const trimmed = name?.trim();
  if (!trimmed) return null;
  const group = await findGroupByName(em, trimmed);
  if (!group || !canUseGroup(actor, group.id, projectIds)) throw DomainError.notFound('Group', trimmed);
  return group.id;
}

export type CommentView = {
  id: number;
  issueId: string;
  author: { login: string; fullName: string };
  text: string;
  deleted: boolean;
  created: number;
  /** Null until the text is edited. */
  updated: number | null;
  permittedGroup: string | null;
};

const toView = (issue: IssueRef, c: IIssueComment): CommentView => {
  const created = toMs(c.createdAt);
  const updated = toMs(c.updatedAt);
  return {
    id: c.id,
    issueId: issue.readableId,
    author: { login: c.author.login, fullName: c.author.fullName },
    text: c.text,
    deleted: c.deleted,
    created,
    updated: updated > created ? updated : null,
    permittedGroup: c.permittedGroup?.name ?? null,
  };
};

/** Soft-deleted comments are listed to their author and to those who may delete others' comments. */
const seesDeleted = (actor: Actor, issue: IssueRef, c: IIssueComment) =>
  c.author.id === actor.userId || can(actor, 'DELETE_NOT_OWN_COMMENT', issue.projectId);

const visible = (actor: Actor, c: IIssueComment) =>
  canSeeComment(actor, { authorId: c.author.id, groupId: c.permittedGroup?.id ?? null });

/** `GET /issue/{issue}/comment`: READ_COMMENT in the issue's project; oldest first. */
export async function listComments(em: Em, actor: Actor, readableId: string): Promise<CommentView[]> {
  const issue = await findReadableIssue(em, actor, readableId);
  requirePermission(actor, 'READ_COMMENT', issue.projectId, `read comments of issue [ ${issue.readableId} ]`);
  const rows = await em.find(
    IssueComment,
    { issue: issue.id },
    { populate: ['author', 'permittedGroup'], orderBy: { id: 'asc' } },
  );
  return rows
    .filter((c) => visible(actor, c) && (!c.deleted || seesDeleted(actor, issue, c)))
    .map((c) => toView(issue, c));
}

const commentNotFound = (id: string) => DomainError.notFound('Comment', id);

/** A comment of the issue the actor can see (a deleted one only when `withDeleted`), or NOT_FOUND. */
async function findComment(em: Em, actor: Actor, issue: IssueRef, commentId: string, withDeleted: boolean) {
  requirePermission(actor, 'READ_COMMENT', issue.projectId, `read comments of issue [ ${issue.readableId} ]`);
  // Ids are 32-bit integers in the database (PostgreSQL refuses bigger ones in a comparison).
  const id = /^\d{1,10}$/.test(commentId) && Number(commentId) <= 2_147_483_647 ? Number(commentId) : null;
  const comment = id
    ? await em.findOne(IssueComment, { id, issue: issue.id }, { populate: ['author', 'permittedGroup'] })
    : null;
  if (!comment || !visible(actor, comment)) throw commentNotFound(commentId);
  if (comment.deleted && !(withDeleted && seesDeleted(actor, issue, comment)))
    throw commentNotFound(commentId);
  return comment;
}

/** Own comments need `own`, anyone else's `notOwn`, in the issue's project. */
function requireCommentRight(
  actor: Actor,
  issue: IssueRef,
  comment: IIssueComment,
  own: 'UPDATE_COMMENT' | 'DELETE_COMMENT',
  notOwn: 'UPDATE_NOT_OWN_COMMENT' | 'DELETE_NOT_OWN_COMMENT',
  verb: string,
) {
  const mine = comment.author.id === actor.userId;
  requirePermission(
    actor,
    mine ? own : notOwn,
    issue.projectId,
    `${verb} comment [ ${comment.id} ] of issue [ ${issue.readableId} ]`,
  );
}

/** `PUT /issue/{issue}/comment/{comment}`: own with UPDATE_COMMENT, others' with UPDATE_NOT_OWN_COMMENT. */
export async function updateComment(
  em: Em,
  actor: Actor,
  readableId: string,
  commentId: string,
  text: string,
  now = new Date(),
): Promise<CommentView> {
  const stored = storableText(text).trim();
  if (!stored) throw DomainError.invalid('text', 'must not be empty');
  if (stored.length > MAX_COMMENT_LENGTH)
    throw DomainError.invalid('text', `must be at most ${MAX_COMMENT_LENGTH} characters`);
  const issue = await findReadableIssue(em, actor, readableId);
  const comment = await findComment(em, actor, issue, commentId, false);
  requireCommentRight(actor, issue, comment, 'UPDATE_COMMENT', 'UPDATE_NOT_OWN_COMMENT', 'update');
  // The edit and its notification event commit together. Written as statements, not a flush of the
  // loaded comment: a transaction run again after contention writes them again.
  await inTransaction(em, async (tx) => {
    await tx.nativeUpdate(IssueComment, { id: comment.id }, { text: stored, updatedAt: now });
    await tx.nativeUpdate(Issue, { id: issue.id }, { updatedAt: now });
    await recordIssueEvent(tx as Em, {
      issueId: issue.id,
      projectId: issue.projectId,
      authorId: actor.userId,
      parts: [{ kind: 'comment.updated', commentId: comment.id, text: stored }],
      at: now,
    });
  });
  comment.text = stored;
  comment.updatedAt = now;
  return toView(issue, comment);
}

/**
 * `DELETE /issue/{issue}/comment/{comment}[?permanently=true]`: own with DELETE_COMMENT, others'
 * with DELETE_NOT_OWN_COMMENT. By default the comment is only marked deleted (listed as such to
 * those who may see deleted comments); `permanently` removes it, also one already marked.
 */
export async function deleteComment(
  em: Em,
  actor: Actor,
  readableId: string,
  commentId: string,
  permanently = false,
): Promise<void> {
  const issue = await findReadableIssue(em, actor, readableId);
  const comment = await findComment(em, actor, issue, commentId, permanently);
  requireCommentRight(actor, issue, comment, 'DELETE_COMMENT', 'DELETE_NOT_OWN_COMMENT', 'delete');
  if (permanently) await em.nativeDelete(IssueComment, { id: comment.id });
  else await em.nativeUpdate(IssueComment, { id: comment.id }, { deleted: true });
}
