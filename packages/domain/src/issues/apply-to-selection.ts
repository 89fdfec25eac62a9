import type { Actor } from '../auth/actor.js';
import { resolveRunAs } from '../auth/run-as.js';
import { DomainError } from '../errors.js';
import type { ResourceLimits } from '../folders/resource-limits.js';
import type { Em } from '../orm/em.js';
import { executeCommand } from './execute-command.js';
import { findReadableIssues, findRemainingReadableIssues } from './find-issues.js';
import { type IssueView, loadIssueViews } from './issue-view.js';
import { countIssues, SEARCH_MAX_RESULTS, searchIssueIds } from './search/search-issues.js';

/** The most issues one command may change at once (a selection, or what a query matches). */
export const APPLY_TO_MANY_LIMIT = SEARCH_MAX_RESULTS;

export type SelectionCommand = {
  /** Readable ids (`PRJ-12`); wins over `query`. */
  issues?: readonly string[] | undefined;
  /** A search query: the command goes to every issue it matches (at most `APPLY_TO_MANY_LIMIT`). */
  query?: string | undefined;
  command?: string | undefined;
  comment?: string | undefined;
  /** The comment is visible to this group only. */
  group?: string | undefined;
  runAs?: string | undefined;
  /** "Apply silently": the change tells no person (webhooks are still told). */
  disableNotifications?: boolean | undefined;
};

/**
 * The command dialog's apply: one command (and comment) on a selection of issues, or on every
 * issue a query matches, atomically (all parts on all issues, or nothing), as the caller or as
 * `runAs`. Answers the changed issues as the caller now sees them, in the order named (a query's:
 * newest first), and the ids of those the command deleted (`delete`): the page showing one of them
 * goes back to its list instead of reading a missing issue. A query matching more than the limit
 * is refused rather than cut: the person would not know which issues were left out.
 */
export async function applyCommandToSelection(
  em: Em,
  caller: Actor,
  input: SelectionCommand,
  limits?: ResourceLimits,
): Promise<{ issues: IssueView[]; deleted: string[] }> {
  const actor = await resolveRunAs(em, caller, input.runAs);
  const ids = await selectedIssueIds(em, actor, input);
  const before = await findReadableIssues(em, actor, ids);
  await executeCommand(em, actor, ids, input.command, input.comment, limits, {
    commentGroup: input.group,
    quiet: input.disableNotifications,
  });
  const after = await findRemainingReadableIssues(em, caller, ids);
  const remaining = new Set(after.map((r) => r.id));
  return {
    issues: await loadIssueViews(
      em,
      caller,
      after.map((r) => r.id),
    ),
    deleted: before.filter((r) => !remaining.has(r.id)).map((r) => r.readableId),
  };
}

async function selectedIssueIds(em: Em, actor: Actor, input: SelectionCommand): Promise<string[]> {
  if (input.issues && input.issues.length > 0) {
    if (input.issues.length > APPLY_TO_MANY_LIMIT)
      throw DomainError.invalid('issues', `must name at most ${APPLY_TO_MANY_LIMIT} issues`);
    return [...new Set(input.issues.map((id) => id.toUpperCase()))];
  }
  if (input.query === undefined) throw DomainError.invalid('issues', 'name the issues, or give a query');
  const matching = await countIssues(em, actor, input.query);
  if (matching > APPLY_TO_MANY_LIMIT)
    throw DomainError.invalid(
      'query',
      `matches ${matching} issues, more than ${APPLY_TO_MANY_LIMIT}; narrow it`,
    );
  const ids = await searchIssueIds(em, actor, input.query, { max: APPLY_TO_MANY_LIMIT });
  if (ids.length === 0) throw DomainError.invalid('query', 'matches no issue');
  return ids;
}
