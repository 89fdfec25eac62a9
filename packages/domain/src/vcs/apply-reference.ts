import { MAX_COMMAND_LENGTH, MAX_COMMENT_LENGTH } from '@trackline/contracts';
import { sql } from 'kysely';
import type { Actor } from '../auth/actor.js';
import { canReadIssue } from '../auth/issue-access.js';
import { sha256Hex } from '../auth/secrets.js';
import type { CommandOp } from '../commands/ops.js';
import { DomainError } from '../errors.js';
import { applyCommand } from '../issues/apply-command.js';
import { parseCommandOrThrow } from '../issues/execute-command.js';
import { IssueComment } from '../model/comment.entity.js';
import { tables } from '../model/database.js';
import { Issue } from '../model/issue.entity.js';
import type { Em } from '../orm/em.js';
import { inTransaction } from '../orm/transaction.js';
import { type Param, prepareWrite } from '../orm/typed-query.js';
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

/**
 * Whether a commit applies to the issue at all: a matched committer must read it (an issue it may
 * not read is, for its commits, an issue that does not exist); a commit of no known committer
 * (commented by the service account) applies only to an issue every reader of its project reads,
 * never to one restricted to a group. Otherwise nothing is recorded or written.
 */
export function commitApplies(issue: ReferencedIssue, actor: Actor | null): boolean {
  return actor ? canReadIssue(actor, issue) : issue.permittedGroupId === null;
}

/** The committer when allowed to comment on the issue, else the integration's service account. */
export function commentAuthor(unit: Pick<Unit, 'actor' | 'issue' | 'ctx'>): Actor {
  const { actor, issue, ctx } = unit;
  const allowed = actor && canReadIssue(actor, issue, 'CREATE_COMMENT');
  return allowed ? actor : ctx.serviceActor;
}

type ChangeRow = {
  integrationId: number;
  issueId: number;
  commitSha: string;
  url: string;
  authorName: string;
  authorEmail: string | null;
  message: string;
  committedAt: string;
  branch: string;
  deliveryId: number;
  committerId: number | null;
  commentAuthorId: number;
  note: string | null;
  createdAt: number;
};

/** Records a commit on an issue once: the change row is the dedupe key (nothing on conflict). */
export const changeInsert = prepareWrite((param: Param<ChangeRow>) =>
  tables
    .insertInto('vcs_changes')
    .values({
      integration_id: param('integrationId'),
      issue_id: param('issueId'),
      commit_sha: param('commitSha'),
      url: param('url'),
      author_name: param('authorName'),
      author_email: param('authorEmail'),
      message: param('message'),
      committed_at: param('committedAt'),
      branch: param('branch'),
      delivery_id: param('deliveryId'),
      committer_id: param('committerId'),
      comment_author_id: param('commentAuthorId'),
      note: param('note'),
      created_at: param('createdAt'),
    })
    .onConflict((oc) => oc.columns(['integration_id', 'commit_sha', 'issue_id']).doNothing())
    .returning('id'),
);

/** The row of `changeInsert` for a commit on an issue, commented by `authorId`. */
export function changeRow(
  unit: Pick<Unit, 'ctx' | 'commit' | 'issue' | 'committer'>,
  authorId: number,
): ChangeRow {
  const { ctx, commit, issue, committer } = unit;
  return {
    integrationId: ctx.integrationId,
    issueId: issue.id,
    commitSha: commit.sha,
    url: storableText(commit.url),
    authorName: storableText(commit.authorName),
    authorEmail: commit.authorEmail ? storableText(commit.authorEmail) : null,
    message: truncateText(storableText(commit.message), MAX_COMMENT_LENGTH),
    committedAt: storableText(commit.timestamp).slice(0, 100),
    branch: storableText(commit.branch),
    deliveryId: ctx.deliveryId,
    committerId: committer.kind === 'matched' ? committer.user.id : null,
    commentAuthorId: authorId,
    note: committer.kind === 'unmatched' ? committer.reason : null,
    createdAt: Date.now(),
  };
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
  const inserted = await changeInsert.returning(tx, changeRow(unit, author.userId));
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

type EffectRow = {
  integrationId: number;
  commitSha: string;
  issueId: number;
  commandKey: string;
  command: string;
  deliveryId: number;
  createdAt: number;
};

/** A command's effect row: inserted once per (integration, commit, issue, command), nothing on conflict. */
export const effectInsert = prepareWrite((param: Param<EffectRow>) =>
  tables
    .insertInto('vcs_effects')
    .values({
      integration_id: param('integrationId'),
      commit_sha: param('commitSha'),
      issue_id: param('issueId'),
      command_key: param('commandKey'),
      command: param('command'),
      status: sql.lit('skipped'),
      delivery_id: param('deliveryId'),
      created_at: param('createdAt'),
    })
    .onConflict((oc) => oc.columns(['integration_id', 'commit_sha', 'issue_id', 'command_key']).doNothing())
    .returning('id'),
);

/** Completes an effect row with its outcome. */
export const effectDone = prepareWrite((param: Param<Outcome & { id: number }>) =>
  tables
    .updateTable('vcs_effects')
    .set({ status: param('status'), reason: param('reason'), actor_id: param('actorId') })
    .where('id', '=', param('id')),
);

/** The row of `effectInsert`. */
export function effectRow(unit: Pick<Unit, 'ctx' | 'commit' | 'issue'>, command: string): EffectRow {
  const { ctx, commit, issue } = unit;
  return {
    integrationId: ctx.integrationId,
    commitSha: commit.sha,
    issueId: issue.id,
    commandKey: sha256Hex(command),
    command: truncateText(storableText(command), MAX_COMMAND_LENGTH),
    deliveryId: ctx.deliveryId,
    createdAt: Date.now(),
  };
}

/**
 * Applies one command once per (integration, commit, issue, command): the effect row is
 * inserted first (on conflict, nothing: someone already did it) and completed in the same
 * transaction as the command's changes.
 */
async function applyEffect(unit: Unit, command: string): Promise<void> {
  const { tx } = unit;
  const inserted = await effectInsert.returning(tx, effectRow(unit, command));
  const effectId = inserted[0]?.id;
  if (effectId === undefined) return;
  // applyCommand runs in a savepoint: a refused command leaves nothing behind.
  const outcome = await runCommitCommand(tx, unit, command, async (actor, ops) => {
    await applyCommand(tx, actor, [unit.issue.readableId], ops);
    return ops.some((op) => op.kind === 'tag');
  });
  await effectDone.run(tx, { ...outcome, id: Number(effectId) });
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
  if (!commitApplies(issue, actor)) return;
  await inTransaction(em, async (tx) => {
    const unit: Unit = { tx, ctx, commit, issue, committer, actor };
    await recordChange(unit);
    for (const command of ref.commands) await applyEffect(unit, command);
  });
}
