import { type Actor, projectsWith } from '../../auth/actor.js';
import { placeholders } from '../../orm/sql-fragments.js';

export type Sql = { sql: string; params: unknown[] };

/**
 * THE read-permission filter of search: which issues (the `issues` row aliased `alias`) the
 * actor may read, as a condition of the same SQL statement that finds them, so a page is full
 * whenever there are enough readable matches and a count never includes an unreadable issue.
 * Every statement search runs over issues (pages, counts, linked-issue sub-queries, the command
 * assist's context) takes its condition from here, and nothing else filters after the query.
 *
 * `null`: the actor reads nothing (the caller answers empty without a statement).
 * Issue visibility groups (`issues.permitted_group_id`) are to be added here.
 */
export function readableIssuesCondition(actor: Actor, alias: string): Sql | null {
  const projects = projectsWith(actor, 'READ_ISSUE');
  if (projects === 'all') return { sql: '1 = 1', params: [] };
  if (projects.length === 0) return null;
  // `+` keeps SQLite from choosing the project index for this check: the query's own driver
  // (an index range in issue order, or the issues in id order) is the cheaper plan.
  return { sql: `+${alias}.project_id in (${placeholders(projects)})`, params: projects };
}

/** The projects the actor reads issues in (vocabulary, suggestions): the same rule's project part. */
export function readableProjectIds(actor: Actor): 'all' | number[] {
  return projectsWith(actor, 'READ_ISSUE');
}
