import type { Actor } from '../auth/actor.js';
import type { Em } from '../orm/em.js';
import { findReadableIssue, issueNotFound } from './find-issues.js';
import { type IssueView, loadIssueViews } from './issue-view.js';

/** One issue's read model (READ_ISSUE); a missing or unreadable issue is NOT_FOUND alike. */
export async function getIssue(em: Em, actor: Actor, readableId: string): Promise<IssueView> {
  const ref = await findReadableIssue(em, actor, readableId);
  const [view] = await loadIssueViews(em, actor, [ref.id]);
  if (!view) throw issueNotFound(readableId);
  return view;
}
