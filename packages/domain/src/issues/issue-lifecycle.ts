import { type Actor, requirePermission } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import { Issue } from '../model/issue.entity.js';
import type { Em } from '../orm/em.js';
import { inTransaction } from '../orm/transaction.js';
import { deleteIssueRows } from '../projects/issue-dependents.js';
import { readableProjectId } from '../projects/projects.js';
import { oneLine, storableText } from '../text/user-text.js';
import { findReadableIssue, issueNotFound } from './find-issues.js';
import { type FieldChange, recordIssueChange } from './history/history.js';
import { recordIssueEvent } from './history/issue-events.js';
import type { IssueView } from './issue-view.js';
import { type SearchOptions, searchIssues } from './search/search-issues.js';

const MAX_SUMMARY = 1000;

/** Succeeds when the issue exists and the actor can read it; NOT_FOUND otherwise (alike). */
export async function assertIssueExists(em: Em, actor: Actor, readableId: string): Promise<void> {
  await findReadableIssue(em, actor, readableId);
}

export type ProjectIssuesOptions = Pick<SearchOptions, 'skip' | 'max' | 'updatedAfter'>;

/**
 * The readable issues of one project matching `filter`, newest first, one page (10 by default,
 * capped like every search). A project the actor cannot read is NOT_FOUND like a missing one.
 */
export async function listProjectIssues(
  em: Em,
  actor: Actor,
  shortName: string,
  filter: string,
  options: ProjectIssuesOptions = {},
): Promise<IssueView[]> {
  const projectId = await readableProjectId(em, actor, shortName);
  return searchIssues(em, actor, filter, { ...options, projectId });
}

export type IssueTextChange = { summary?: string | undefined; description?: string | undefined };

/**
 * Changes an issue's summary and/or description (UPDATE_ISSUE in its project). An unreadable
 * issue is NOT_FOUND; a readable one the actor may not update is PERMISSION_DENIED. Nothing given
 * changes nothing.
 */
export async function updateIssueText(
  em: Em,
  actor: Actor,
  readableId: string,
  change: IssueTextChange,
  now = new Date(),
): Promise<void> {
  const ref = await findReadableIssue(em, actor, readableId);
  requirePermission(actor, 'UPDATE_ISSUE', ref.projectId, `update issue [ ${ref.readableId} ]`);
  const update: { summary?: string; description?: string; updatedAt?: Date } = {};
  if (change.summary !== undefined) {
    const summary = oneLine(change.summary).trim();
    if (!summary) throw DomainError.invalid('summary', 'must not be empty');
    if (summary.length > MAX_SUMMARY)
      throw DomainError.invalid('summary', `must be at most ${MAX_SUMMARY} characters`);
    update.summary = summary;
  }
  if (change.description !== undefined) update.description = storableText(change.description);
  if (Object.keys(update).length === 0) return;
  update.updatedAt = now;
  await inTransaction(em, async (tx) => {
    const before = await tx.findOne(Issue, { id: ref.id }, { fields: ['summary', 'description'] });
    if (!before || (await tx.nativeUpdate(Issue, { id: ref.id }, update)) === 0)
      throw issueNotFound(readableId);
    const fields: FieldChange[] = [];
    if (update.summary !== undefined)
      fields.push({
        name: 'summary',
        oldValues: textValues(before.summary),
        newValues: textValues(update.summary),
      });
    if (update.description !== undefined)
      fields.push({
        name: 'description',
        oldValues: textValues(before.description),
        newValues: textValues(update.description),
      });
    await recordIssueChange(tx as Em, { issueId: ref.id, updaterId: actor.userId, at: now, fields });
    await recordIssueEvent(tx as Em, {
      issueId: ref.id,
      projectId: ref.projectId,
      authorId: actor.userId,
      parts: [{ kind: 'issue.changed', fields }],
      at: now,
    });
  });
}

/** A text field's value in the history: none when empty. */
const textValues = (text: string) => (text ? [text] : []);

/**
 * Deletes an issue for good (DELETE_ISSUE in its project) with everything hanging off it: field
 * values, comments, tags on it, stars, votes, links in both directions and recorded commits,
 * in one transaction. Unreadable is NOT_FOUND; readable without the permission is PERMISSION_DENIED.
 */
export async function deleteIssue(em: Em, actor: Actor, readableId: string): Promise<void> {
  const ref = await findReadableIssue(em, actor, readableId);
  requirePermission(actor, 'DELETE_ISSUE', ref.projectId, `delete issue [ ${ref.readableId} ]`);
  const deleted = await inTransaction(em, (tx) => deleteIssueRows(tx as Em, [ref.id]));
  // A concurrent delete removed it first: answer like a missing issue.
  if (deleted === 0) throw issueNotFound(readableId);
}
