import type { VcsDeliveryReportDto, VcsDeliverySummaryDto, VcsEffectResultDto } from '@trackline/contracts';
import type { Actor } from '../auth/actor.js';
import { canReadIssue } from '../auth/issue-access.js';
import { sha256Hex } from '../auth/secrets.js';
import { type IVcsDelivery, type IVcsIntegration, VcsIntegrationProject } from '../model/vcs.entity.js';
import type { Em } from '../orm/em.js';
import { placeholders } from '../orm/sql-fragments.js';
import { type CommitPlan, commitResult, planCommit } from './commit-plan.js';
import { findIssuesByKey, issueKey, type ReferencedIssue } from './issue-lookup.js';
import type { PushEvent } from './push-event.js';

type ChangeRow = {
  commit_sha: string;
  issue_id: number;
  delivery_id: number | null;
  note: string | null;
  author: string | null;
};
type EffectRow = ChangeRow & {
  command_key: string;
  status: 'applied' | 'skipped' | 'failed';
  reason: string | null;
};

const CHUNK = 300;
export const NOT_IN_PROJECTS = "no such issue in the integration's projects";
const iso = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? undefined : new Date(Number(ms)).toISOString();

type SummaryFields = Pick<
  IVcsDelivery,
  | 'id'
  | 'deliveryKey'
  | 'event'
  | 'receivedAt'
  | 'status'
  | 'attempts'
  | 'commitCount'
  | 'finishedAt'
  | 'error'
>;

export function deliverySummary(delivery: SummaryFields): VcsDeliverySummaryDto {
  const finishedAt = iso(delivery.finishedAt);
  return {
    id: delivery.id,
    deliveryKey: delivery.deliveryKey,
    event: delivery.event,
    receivedAt: iso(delivery.receivedAt) ?? '',
    status: delivery.status,
    attempts: delivery.attempts,
    commitCount: delivery.commitCount,
    ...(finishedAt ? { finishedAt } : {}),
    ...(delivery.error ? { error: delivery.error } : {}),
  };
}

/** The rows recorded for these commits by any delivery of the integration. */
async function loadRows(em: Em, integrationId: number, shas: string[]) {
  const changes = new Map<string, ChangeRow>();
  const effects = new Map<string, EffectRow>();
  for (let i = 0; i < shas.length; i += CHUNK) {
    const chunk = shas.slice(i, i + CHUNK);
    const where = `where x.integration_id = ? and x.commit_sha in (${placeholders(chunk)})`;
    const changeRows = await em.execute<ChangeRow[]>(
      'select x.commit_sha, x.issue_id, x.delivery_id, x.note, u.login as author from vcs_changes x ' +
        `left join users u on u.id = x.comment_author_id ${where}`,
      [integrationId, ...chunk],
    );
    for (const r of changeRows) changes.set(`${r.commit_sha}|${Number(r.issue_id)}`, r);
    const effectRows = await em.execute<EffectRow[]>(
      'select x.commit_sha, x.issue_id, x.delivery_id, x.command_key, x.status, x.reason, u.login as author ' +
        `from vcs_effects x left join users u on u.id = x.actor_id ${where}`,
      [integrationId, ...chunk],
    );
    for (const r of effectRows) effects.set(`${r.commit_sha}|${Number(r.issue_id)}|${r.command_key}`, r);
  }
  return { changes, effects };
}

type Lookup = {
  /** Who reads the report (an administrator of the integration; null: the hook's caller). */
  viewer: Actor | null;
  deliveryId: number;
  finished: boolean;
  issues: Map<string, ReferencedIssue>;
  linked: Set<number>;
  /** Linked projects now in the trash: their commits are not applied. */
  trashed: Set<number>;
  changes: Map<string, ChangeRow>;
  effects: Map<string, EffectRow>;
};

/** One effect's result as this delivery saw it; another delivery's work counts as skipped. */
function effectResult(
  issue: string,
  command: string,
  row: ChangeRow | EffectRow | undefined,
  lookup: Lookup,
): VcsEffectResultDto {
  const base = { issue, command };
  if (!row) {
    return lookup.finished
      ? { ...base, status: 'skipped' as const, reason: 'not recorded' }
      : { ...base, status: 'pending' as const };
  }
  if (row.delivery_id === null || Number(row.delivery_id) !== lookup.deliveryId) {
    const by = row.delivery_id === null ? 'an earlier delivery' : `delivery ${Number(row.delivery_id)}`;
    return { ...base, status: 'skipped' as const, reason: `already processed by ${by}` };
  }
  const status = 'status' in row ? row.status : 'applied';
  const reason = row.note ?? ('reason' in row ? row.reason : null);
  return {
    ...base,
    status,
    ...(reason ? { reason } : {}),
    ...(row.author ? { actor: row.author } : {}),
  };
}

function resultsOf(plan: CommitPlan, lookup: Lookup): VcsEffectResultDto[] {
  return plan.references.flatMap((ref): VcsEffectResultDto[] => {
    const issue = lookup.issues.get(issueKey(ref.issue) ?? '');
    const all = ['comment', ...ref.commands];
    const skipped = (reason: string) =>
      all.map((command) => ({ issue: ref.issue, command, status: 'skipped' as const, reason }));
    // One reason whether the issue is missing or lives in another project: the hook's caller
    // must not learn which issues exist outside the integration's projects. A trashed linked
    // project is named: whoever pushed to it knew it.
    if (issue && lookup.trashed.has(issue.projectId)) return skipped('project deleted');
    if (!issue || !lookup.linked.has(issue.projectId)) return skipped(NOT_IN_PROJECTS);
    // An issue the reader may not read answers like a missing one (the hook's caller, unknown,
    // reads only issues restricted to no group), whatever became of the commit on it.
    const reads = lookup.viewer ? canReadIssue(lookup.viewer, issue) : issue.permittedGroupId === null;
    if (!reads) return skipped(NOT_IN_PROJECTS);
    const changeKey = `${plan.commit.sha}|${issue.id}`;
    return [
      effectResult(issue.readableId, 'comment', lookup.changes.get(changeKey), lookup),
      ...ref.commands.map((command) =>
        effectResult(
          issue.readableId,
          command,
          lookup.effects.get(`${changeKey}|${sha256Hex(command)}`),
          lookup,
        ),
      ),
    ];
  });
}

/**
 * Per-commit results of a delivery: applied, skipped and why, failed and why, or pending, as
 * `viewer` may know them (null: the hook's caller, who holds the integration's apiKey only).
 */
export async function deliveryReport(
  em: Em,
  integration: Pick<IVcsIntegration, 'id' | 'name' | 'branches'>,
  delivery: IVcsDelivery,
  viewer: Actor | null,
): Promise<VcsDeliveryReportDto> {
  const push = JSON.parse(delivery.payload) as PushEvent;
  const plans = push.commits.map((commit) => planCommit(commit, integration.branches));
  const refs = plans.flatMap((p) => p.references.map((r) => r.issue));
  const shas = [...new Set(plans.filter((p) => p.references.length > 0).map((p) => p.commit.sha))];
  const links = await em.find(
    VcsIntegrationProject,
    { integration: integration.id },
    { populate: ['project'] },
  );
  const lookup: Lookup = {
    viewer,
    deliveryId: delivery.id,
    finished: delivery.status === 'done' || delivery.status === 'failed',
    issues: await findIssuesByKey(em, refs),
    linked: new Set(links.filter((l) => !l.project.deletedAt).map((l) => l.project.id)),
    trashed: new Set(links.filter((l) => l.project.deletedAt).map((l) => l.project.id)),
    ...(await loadRows(em, integration.id, shas)),
  };
  return {
    ...deliverySummary(delivery),
    integration: integration.name,
    commits: plans.map((plan) => commitResult(plan, resultsOf(plan, lookup))),
  };
}
