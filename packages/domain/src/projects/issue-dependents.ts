import { IssueAttachment } from '../model/attachment.entity.js';
import { IssueComment } from '../model/comment.entity.js';
import { IssueFieldValue } from '../model/field.entity.js';
import { Issue, IssueLink } from '../model/issue.entity.js';
import { IssueChange } from '../model/issue-change.entity.js';
import { IssueEvent } from '../model/issue-event.entity.js';
import { IssueStar, IssueVote } from '../model/stars-votes.entity.js';
import { IssueTag } from '../model/tag.entity.js';
import { VcsChange, VcsEffect } from '../model/vcs.entity.js';
import { WorkItem } from '../model/work-item.entity.js';
import type { Em } from '../orm/em.js';

/** A sub-query selecting the ids of a project's issues (run inside the statements using it). */
export const issueIdsOfProject = (tx: Em, projectId: number) =>
  tx.createQueryBuilder(Issue).select('id').where({ project: projectId });

/** Issues named by their ids, or by a sub-query selecting their ids. */
export type IssueIds = readonly number[] | ReturnType<typeof issueIdsOfProject>;

/**
 * Deletes every row hanging off the given issues (field values, recorded commits, comments, history
 * and link and tag events (theirs, and those of other issues naming them), tags on them, stars, votes, links in both directions, attachments, work items), inside the caller's
 * transaction, before the caller deletes the issues themselves. The one list of what belongs to an issue: deleting one
 * issue and purging a project both go through it. Explicit deletes: the schema cascades too,
 * but this does not depend on SQLite's foreign_keys pragma.
 */
/** Deletes the issues with everything hanging off them (inside the caller's transaction); how many went. */
export async function deleteIssueRows(tx: Em, ids: readonly number[]): Promise<number> {
  await deleteIssueDependents(tx, ids);
  return tx.nativeDelete(Issue, { id: { $in: ids as number[] } });
}

export async function deleteIssueDependents(tx: Em, ids: IssueIds): Promise<void> {
  const issues = { $in: ids as number[] };
  const onIssues = { issue: issues };
  await tx.nativeDelete(IssueFieldValue, onIssues);
  await tx.nativeDelete(VcsChange, onIssues);
  await tx.nativeDelete(VcsEffect, onIssues);
  await tx.nativeDelete(IssueComment, onIssues);
  await tx.nativeDelete(IssueChange, onIssues);
  await tx.nativeDelete(IssueEvent, { $or: [{ issue: issues }, { otherIssue: issues }] });
  await tx.nativeDelete(IssueTag, onIssues);
  await tx.nativeDelete(IssueStar, onIssues);
  await tx.nativeDelete(IssueVote, onIssues);
  await tx.nativeDelete(IssueLink, { $or: [{ source: issues }, { target: issues }] });
  // The attachment files themselves go with the store's sweep (`sweepAttachmentFiles`): the
  // same content may belong to other attachments, and no file is touched inside a transaction.
  await tx.nativeDelete(IssueAttachment, onIssues);
  await tx.nativeDelete(WorkItem, onIssues);
}
