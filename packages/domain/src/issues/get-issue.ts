import type { Actor } from '../auth/actor.js';
import type { Em } from '../orm/em.js';
import { issueNotFound } from './find-issues.js';
import { type IssueView, loadReadableIssueView } from './issue-view.js';

/** One issue's read model (READ_ISSUE); a missing or unreadable issue is NOT_FOUND alike. */
export async function getIssue(em: Em, actor: Actor, readableId: string): Promise<IssueView> {
  const view = await loadReadableIssueView(em, actor, readableId);
  if (!view) throw issueNotFound(readableId);
  return view;
}
