import { MAX_COMMAND_LENGTH, MAX_COMMENT_LENGTH } from '@trackline/contracts';
import type { Actor } from '../auth/actor.js';
import { canReadIssue } from '../auth/issue-access.js';
import { sha256Hex } from '../auth/secrets.js';
import type { CommandOp } from '../commands/ops.js';
import { DomainError } from '../errors.js';
import { applyCommand } from '../issues/apply-command.js';
import { parseCommandOrThrow } from '../issues/execute-command.js';
import { IssueComment } from '../model/comment.entity.js';
import { Issue } from '../model/issue.entity.js';
import type { Em } from '../orm/em.js';
import { storableText } from '../text/user-text.js';
import type { Committer } from './committers.js';
import type { DeliveryContext } from './delivery-context.js';
import type { ReferencedIssue } from './issue-lookup.js';
import type { CommitReference } from './parse-commit-message.js';
import type { PushCommit } from './push-event.js';
import { truncateText } from './truncate.js';

/**
 * The legacy YouTrack comment (wiki markup), quoting the whole message (trailing newlines
 * dropped), cut with a visible marker at the length a REST comment may have.
 */
export function commitComment(commit: PushCommit): string {
  const message = commit.message.replace(/\s+$/, '');
  const text = `Commit made by '''${commit.authorName}''' on ''${commit.timestamp}''\n${commit.url}\n\n{quote}${message}{quote}`;
  return truncateText(storableText(text), MAX_COMMENT_LENGTH);
}

type Unit = {
  tx: Em;
  ctx: DeliveryContext;
  commit: PushCommit;
  issue: ReferencedIssue;
  committer: Committer;
  actor: Actor | null;
};

/** The committer when allowed to comment on the issue, else the integration's service account. */
export function commentAuthor(unit: Pick<Unit, 'actor' | 'issue' | 'ctx'>): Actor {
  const { actor, issue, ctx } = unit;
  const allowed = actor && canReadIssue(actor, issue, 'CREATE_COMMENT');
  return allowed ? actor : ctx.serviceActor;
}

/** Records a commit on an issue once: the change row is the dedupe key (nothing on conflict). */
export const CHANGE_SQL =
  'insert into vcs_changes (integration_id, issue_id, commit_sha, url, author_name, author_email, message, ' +
  'committed_at, branch, delivery_id, committer_id, comment_author_id, note, created_at) ' +
  'values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ' +
  'on conflict (integration_id, commit_sha, issue_id) do nothing returning id';

/** The parameters of `CHANGE_SQL` for a commit on an issue, commented by `authorId`. */
export function changeRowParams(
  unit: Pick<Unit, 'ctx' | 'commit' | 'issue' | 'committer'>,
  authorId: number,
): (string | number | null)[] {
  const { ctx, commit, issue, committer } = unit;
  return [
    ctx.integrationId,
    issue.id,
    commit.sha,
    storableText(commit.url),
    storableText(commit.authorName),
    commit.authorEmail ? storableText(commit.authorEmail) : null,
    truncateText(storableText(commit.message), MAX_COMMENT_LENGTH),
    storableText(commit.timestamp).slice(0, 100),
    storableText(commit.branch),
    ctx.deliveryId,
    committer.kind === 'matched' ? committer.user.id : null,
    authorId,
    committer.kind === 'unmatched' ? committer.reason : null,
    Date.now(),
  ];
}

/**
 * Records the commit on the issue and writes its comment, once: the change row is the
 * dedupe key and is inserted (on conflict, nothing) in the comment's transaction. The
 * comment is written directly, as the command path would persist it: it needs none of the
 * command machinery, and a push may carry thousands.
 */
async function recordChange(unit: Unit): Promise<void> {
  const { tx, commit, issue } = unit;
  const author = commentAuthor(unit);
  const inserted = await tx.execute<{ id: number }[]>(CHANGE_SQL, changeRowParams(unit, author.userId));
  if (inserted.length === 0) return;
  const now = new Date();
  const text = commitComment(commit);
  await tx.insert(IssueComment, {
    issue: issue.id,
    author: author.userId,
    text,
    createdAt: now,
    updatedAt: now,
  });
  await tx.nativeUpdate(Issue, { id: issue.id }, { updatedAt: now });
}

export type Outcome = {
  status: 'applied' | 'skipped' | 'failed';
  reason: string | null;
  actorId: number | null;
};

/**
 * Runs a commit's command as its committer: skipped without a matched committer, failed
 * (with the refusal's message) when too long or refused; `apply` applies the parsed ops and
 * says whether a tag was created (the committer's vocabularies then change). Shared by the
 * one-by-one and the chunked paths.
 */
export async function runCommitCommand(
  tx: Em,
  unit: Pick<Unit, 'ctx' | 'issue' | 'committer' | 'actor'>,
  command: string,
  apply: (actor: Actor, ops: CommandOp[]) => Promise<boolean>,
): Promise<Outcome> {
  const { ctx, issue, committer, actor } = unit;
  if (committer.kind === 'unmatched' || !actor) {
    return {
      status: 'skipped',
      reason: committer.kind === 'unmatched' ? committer.reason : null,
      actorId: null,
    };
  }
  if (command.length > MAX_COMMAND_LENGTH) {
    const reason = `command: must be at most ${MAX_COMMAND_LENGTH} characters`;
    return { status: 'failed', reason, actorId: actor.userId };
  }
  try {
    const ops = parseCommandOrThrow(command, await ctx.vocabulary(tx, actor, issue));
    if (await apply(actor, ops)) ctx.forgetVocabularies(actor.userId);
    return { status: 'applied', reason: null, actorId: actor.userId };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { status: 'failed', reason: error.message, actorId: actor.userId };
  }
}

/** A command's effect row: inserted once per (integration, commit, issue, command), nothing on conflict. */
export const EFFECT_SQL =
  'insert into vcs_effects (integration_id, commit_sha, issue_id, command_key, command, status, delivery_id, created_at) ' +
  "values (?, ?, ?, ?, ?, 'skipped', ?, ?) " +
  'on conflict (integration_id, commit_sha, issue_id, command_key) do nothing returning id';
export const EFFECT_DONE_SQL = 'update vcs_effects set status = ?, reason = ?, actor_id = ? where id = ?';

/** The parameters of `EFFECT_SQL`. */
export function effectRowParams(
  unit: Pick<Unit, 'ctx' | 'commit' | 'issue'>,
  command: string,
): (string | number | null)[] {
  const { ctx, commit, issue } = unit;
  return [
    ctx.integrationId,
    commit.sha,
    issue.id,
    sha256Hex(command),
    truncateText(storableText(command), MAX_COMMAND_LENGTH),
    ctx.deliveryId,
    Date.now(),
  ];
}

/**
 * Applies one command once per (integration, commit, issue, command): the effect row is
 * inserted first (on conflict, nothing: someone already did it) and completed in the same
 * transaction as the command's changes.
 */
async function applyEffect(unit: Unit, command: string): Promise<void> {
  const { tx } = unit;
  const inserted = await tx.execute<{ id: number }[]>(EFFECT_SQL, effectRowParams(unit, command));
  const effectId = inserted[0]?.id;
  if (effectId === undefined) return;
  // applyCommand runs in a savepoint: a refused command leaves nothing behind.
  const outcome = await runCommitCommand(tx, unit, command, async (actor, ops) => {
    await applyCommand(tx, actor, [unit.issue.readableId], ops);
    return ops.some((op) => op.kind === 'tag');
  });
  await tx.execute(EFFECT_DONE_SQL, [outcome.status, outcome.reason, outcome.actorId, Number(effectId)]);
}

/** One (commit, issue) unit in one transaction: nothing of it is applied twice or half. */
export async function applyReference(
  em: Em,
  ctx: DeliveryContext,
  commit: PushCommit,
  ref: CommitReference,
): Promise<void> {
  // Lookups first, outside the transaction: they only read, and the actor loader queries
  // the connection directly (inside a SQLite transaction it would wait for itself).
  const issue = await ctx.issue(em, ref.issue);
  if (!issue || !ctx.projectIds.has(issue.projectId)) return;
  const committer = await ctx.committerOf(em, commit, issue.projectId);
  const actor = committer.kind === 'matched' ? await ctx.actor(em, committer.user) : null;
  await em.transactional(async (tx) => {
    const unit: Unit = { tx, ctx, commit, issue, committer, actor };
    await recordChange(unit);
    for (const command of ref.commands) await applyEffect(unit, command);
  });
}
