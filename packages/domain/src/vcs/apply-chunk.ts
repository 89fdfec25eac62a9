import type { Actor } from '../auth/actor.js';
import { canReadIssue } from '../auth/issue-access.js';
import { CommandLookups } from '../issues/command-lookups.js';
import { applyCommentArgument, applyOp, resolutionChanges } from '../issues/command-ops.js';
import { persistCommandState } from '../issues/command-persist.js';
import {
  type CommandState,
  copySlots,
  type IssueState,
  loadCommandState,
  loadLinks,
} from '../issues/command-state.js';
import { issueNotFound, loadIssueRefs } from '../issues/find-issues.js';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { runStatement, storedTime } from '../orm/statements.js';
import { inTransaction } from '../orm/transaction.js';
import { asStoredTime, type Param, prepareWrite } from '../orm/typed-query.js';
import { isUniqueViolation } from '../orm/unique.js';
import {
  changeInsert,
  changeRow,
  commentAuthor,
  commitApplies,
  commitComment,
  effectDone,
  effectInsert,
  effectRow,
  runCommitCommand,
} from './apply-reference.js';
import type { Committer } from './committers.js';
import type { DeliveryContext } from './delivery-context.js';
import type { ReferencedIssue } from './issue-lookup.js';
import type { CommitReference } from './parse-commit-message.js';
import type { PushCommit } from './push-event.js';

/** One (commit, issue) reference of a delivery's push: the unit that is recorded and applied once. */
export type ChunkUnit = { ctx: DeliveryContext; commit: PushCommit; ref: CommitReference };

/** A unit with what it needs looked up (outside the transaction, as `applyReference` does). */
type Resolved = {
  ctx: DeliveryContext;
  commit: PushCommit;
  ref: CommitReference;
  issue: ReferencedIssue;
  committer: Committer;
  actor: Actor | null;
};

/** How long one chunk's transaction may keep taking more units (it always takes one). */
export type ChunkLimits = { budgetMs: number };

/** `at`: the time as stored (`storedTime`). */
const commentInsert = prepareWrite(
  (param: Param<{ issueId: number; authorId: number; text: string; at: Date | number }>) =>
    tables.insertInto('issue_comments').values({
      issue_id: param('issueId'),
      author_id: param('authorId'),
      text: param('text'),
      created_at: asStoredTime(param('at')),
      updated_at: asStoredTime(param('at')),
    }),
);
const issueTouch = prepareWrite((param: Param<{ id: number; at: Date | number }>) =>
  tables
    .updateTable('issues')
    .set({ updated_at: asStoredTime(param('at')) })
    .where('id', '=', param('id')),
);

const ATTEMPTS = 3;

/**
 * The command state of a chunk's issues, loaded once (lazily, at the first command) and kept
 * as each command leaves it: every command still runs in its own savepoint, with the same
 * permission checks, ops and persistence as `applyCommand`, and records its own history.
 * A refused command's in-memory changes are dropped with its savepoint.
 */
class ChunkCommands {
  private state: CommandState | null = null;
  private readonly byIssue = new Map<number, IssueState>();

  constructor(
    private readonly tx: Em,
    private readonly issueIds: readonly number[],
  ) {}

  private async load(): Promise<CommandState> {
    if (!this.state) {
      this.state = await loadCommandState(this.tx, await loadIssueRefs(this.tx, this.issueIds));
      for (const issue of this.state.issues) this.byIssue.set(issue.ref.id, issue);
    }
    return this.state;
  }

  /** Rereads one issue's relations (after a concurrent writer tripped a unique index). */
  private async reload(issueId: number): Promise<void> {
    const state = await this.load();
    const [fresh] = (await loadCommandState(this.tx, await loadIssueRefs(this.tx, [issueId]))).issues;
    const index = state.issues.findIndex((s) => s.ref.id === issueId);
    if (fresh && index >= 0) {
      state.issues[index] = fresh;
      this.byIssue.set(issueId, fresh);
    }
    state.links = await loadLinks(this.tx, this.issueIds);
  }

  /** The command's changes become the state the next command starts from. */
  private settle(issue: IssueState, resolved: Map<number, Date | null>) {
    issue.initial = copySlots(issue.current);
    for (const set of [issue.tags, issue.stars, issue.votes]) set.initial = new Set(set.current);
    issue.comment = null;
    const resolvedAt = resolved.get(issue.ref.id);
    if (resolvedAt !== undefined) issue.ref = { ...issue.ref, resolvedAt: resolvedAt?.getTime() ?? null };
  }

  /** Back to what was loaded or last settled. */
  private reset(state: CommandState, issue: IssueState) {
    issue.current = copySlots(issue.initial);
    for (const set of [issue.tags, issue.stars, issue.votes]) set.current = new Set(set.initial);
    issue.comment = null;
    state.links.current = new Set(state.links.initial.keys());
  }

  /**
   * `applyCommand(tx, actor, [issue], ops)` on the kept state; throws its DomainErrors. How
   * many tags it created (the actor's command vocabularies are stale only then).
   */
  async apply(
    actor: Actor,
    readableId: string,
    issueId: number,
    ops: Parameters<typeof applyOp>[2][],
  ): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      const state = await this.load();
      const issue = this.byIssue.get(issueId);
      // Deleted meanwhile (by a command of this chunk, say): missing, as a fresh lookup would say.
      if (!issue) throw issueNotFound(readableId);
      // A savepoint of our own (prepared, not the ORM's nested transaction): a refused command
      // leaves nothing behind (a tag it created, say). Raw: savepoints are no query of the builder.
      await runStatement(this.tx, 'savepoint vcs_command');
      let done: { resolved: Map<number, Date | null>; linksChanged: boolean; createdTags: number };
      try {
        if (!canReadIssue(actor, issue.ref)) throw issueNotFound(readableId);
        const sub: CommandState = { ...state, issues: [issue] };
        const lookups = new CommandLookups(this.tx, actor);
        const ctx = { actor, state: sub, lookups, comment: '' };
        for (const op of ops) await applyOp(ctx, issue, op);
        applyCommentArgument(ctx, issue);
        const { initial, current } = state.links;
        const linksChanged = initial.size !== current.size || [...current].some((key) => !initial.has(key));
        const resolved = resolutionChanges(sub, new Date());
        await persistCommandState(this.tx, actor.userId, sub, resolved);
        await runStatement(this.tx, 'release savepoint vcs_command');
        done = { resolved, linksChanged, createdTags: lookups.createdTags };
      } catch (error) {
        await runStatement(this.tx, 'rollback to savepoint vcs_command');
        await runStatement(this.tx, 'release savepoint vcs_command');
        this.reset(state, issue);
        if (attempt >= ATTEMPTS || !isUniqueViolation(error)) throw error;
        await this.reload(issueId);
        continue;
      }
      this.settle(issue, done.resolved);
      if (done.linksChanged) state.links = await loadLinks(this.tx, this.issueIds);
      return done.createdTags;
    }
  }
}

/**
 * Applies a chunk of a delivery's units in ONE transaction, with the same rules as
 * `applyReference` unit by unit: the change row (insert or nothing) dedupes the commit's
 * comment, each effect row (insert or nothing) dedupes its command, a command runs in a
 * savepoint as its committer with the same checks, and its failure is recorded on its effect
 * without touching the other units. Writes go through statements prepared once. Units are
 * taken in order while the transaction is younger than `budgetMs` (at least one): how many
 * were applied. An unexpected error rolls the whole chunk back; the worker retries it.
 */
export async function applyChunk(em: Em, units: readonly ChunkUnit[], limits: ChunkLimits): Promise<number> {
  const resolved: (Resolved | null)[] = [];
  for (const { ctx, commit, ref } of units) {
    const issue = await ctx.issue(em, ref.issue);
    if (!issue || !ctx.projectIds.has(issue.projectId)) {
      resolved.push(null);
      continue;
    }
    const committer = await ctx.committerOf(em, commit, issue.projectId);
    const actor = committer.kind === 'matched' ? await ctx.actor(em, committer.user) : null;
    // A commit applies only to an issue its committer may read (`commitApplies`).
    resolved.push(commitApplies(issue, actor) ? { ctx, commit, ref, issue, committer, actor } : null);
  }
  const commandIssues = resolved.flatMap((u) =>
    u && u.ref.commands.length > 0 && u.actor ? [u.issue.id] : [],
  );
  return inTransaction(em, async (tx) => {
    const started = performance.now();
    const commands = new ChunkCommands(tx, [...new Set(commandIssues)]);
    const now = new Date();
    const at = await storedTime(tx, now);
    let taken = 0;
    for (const unit of resolved) {
      if (taken > 0 && performance.now() - started > limits.budgetMs) break;
      taken++;
      if (!unit) continue;
      await recordChange(tx, unit, at);
      for (const command of unit.ref.commands) await applyEffect(tx, unit, command, commands);
    }
    return taken;
  });
}

async function recordChange(tx: Em, unit: Resolved, at: Date | number) {
  const { commit, issue } = unit;
  const author = commentAuthor(unit);
  const inserted = await changeInsert.returning(tx, changeRow(unit, author.userId));
  if (inserted.length === 0) return;
  await commentInsert.run(tx, {
    issueId: issue.id,
    authorId: author.userId,
    text: commitComment(commit),
    at,
  });
  await issueTouch.run(tx, { id: issue.id, at });
}

async function applyEffect(tx: Em, unit: Resolved, command: string, commands: ChunkCommands): Promise<void> {
  const inserted = await effectInsert.returning(tx, effectRow(unit, command));
  const effectId = inserted[0]?.id;
  if (effectId === undefined) return;
  // Only a created tag changes what the actor's vocabularies hold.
  const outcome = await runCommitCommand(
    tx,
    unit,
    command,
    async (actor, ops) => (await commands.apply(actor, unit.issue.readableId, unit.issue.id, ops)) > 0,
  );
  await effectDone.run(tx, { ...outcome, id: Number(effectId) });
}
