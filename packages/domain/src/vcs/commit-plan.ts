import type { VcsCommitResultDto, VcsEffectResultDto, VcsResultStatus } from '@trackline/contracts';
import { branchMatches } from './branch-filter.js';
import { type CommitReference, parseCommitMessage } from './parse-commit-message.js';
import type { PushCommit } from './push-event.js';

/** What a commit asks for, before anything is looked up: its references, or why it is skipped. */
export type CommitPlan = { commit: PushCommit; references: CommitReference[]; skipped?: string };

export function planCommit(commit: PushCommit, branches: string): CommitPlan {
  if (!branchMatches(branches, commit.branch)) {
    return { commit, references: [], skipped: `branch [ ${commit.branch} ] is not tracked` };
  }
  const references = parseCommitMessage(commit.message);
  if (references.length === 0) return { commit, references, skipped: 'no issue reference in the message' };
  return { commit, references };
}

/** The comment first, then each command: the entries a reference produces. */
export const effectsOf = (ref: CommitReference) => ['comment', ...ref.commands];

/** failed if any effect failed, else pending if any is, else applied if any was, else skipped. */
export function commitStatus(results: readonly VcsEffectResultDto[]): VcsResultStatus {
  for (const status of ['failed', 'pending', 'applied'] as const) {
    if (results.some((r) => r.status === status)) return status;
  }
  return 'skipped';
}

export function commitResult(plan: CommitPlan, results: VcsEffectResultDto[]): VcsCommitResultDto {
  const { commit } = plan;
  return {
    sha: commit.sha,
    branch: commit.branch,
    url: commit.url,
    author: commit.authorEmail ? `${commit.authorName} <${commit.authorEmail}>` : commit.authorName,
    status: plan.skipped ? 'skipped' : commitStatus(results),
    ...(plan.skipped ? { reason: plan.skipped } : {}),
    results,
  };
}

/** The receipt's view of a commit: every effect still pending. */
export function pendingResult(plan: CommitPlan): VcsCommitResultDto {
  return commitResult(
    plan,
    plan.references.flatMap((ref) =>
      effectsOf(ref).map((command) => ({ issue: ref.issue, command, status: 'pending' as const })),
    ),
  );
}
