import { type Actor, projectsWith } from '../../auth/actor.js';
import { readableIssuesSql } from '../../auth/issue-access.js';

export type Sql = { sql: string; params: unknown[] };

/**
 * The read-permission filter of search: which issues (the `issues` row aliased `alias`) the
 * actor may read, as a condition of the same SQL statement that finds them, so a page is full
 * whenever there are enough readable matches and a count never includes an unreadable issue.
 * Every statement search runs over issues (pages, counts, linked-issue sub-queries, the command
 * assist's context) takes its condition from here, and nothing else filters after the query.
 * The rule itself (projects, and the issue's own visibility group) is auth/issue-access.ts.
 *
 * `null`: the actor reads nothing (the caller answers empty without a statement).
 */
export function readableIssuesCondition(actor: Actor, alias: string): Sql | null {
  const readable = readableIssuesSql(actor, alias, 'READ_ISSUE', { projectCheckOnly: true });
  return readable === 'none' ? null : readable;
}

/** The projects the actor reads issues in (vocabulary, suggestions): the same rule's project part. */
export function readableProjectIds(actor: Actor): 'all' | number[] {
  return projectsWith(actor, 'READ_ISSUE');
}
