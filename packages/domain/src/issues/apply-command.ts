import { MAX_COMMENT_LENGTH } from '@trackline/contracts';
import type { Actor } from '../auth/actor.js';
import type { CommandOp } from '../commands/ops.js';
import { DomainError } from '../errors.js';
import type { ResourceLimits } from '../folders/resource-limits.js';
import type { Em } from '../orm/em.js';
import { inTransaction } from '../orm/transaction.js';
import { isUniqueViolation } from '../orm/unique.js';
import { storableText } from '../text/user-text.js';
import { CommandLookups } from './command-lookups.js';
import { applyCommentArgument, applyOp, resolutionChanges } from './command-ops.js';
import { persistCommandState } from './command-persist.js';
import { loadCommandState } from './command-state.js';
import { findVisibilityGroup } from './comments/comments.js';
import { findReadableIssues } from './find-issues.js';

export type ApplyCommandResult = { issues: string[] };
/** `commentGroup`: the comment is visible only to this group's members (and its author). */
export type CommentOptions = {
  commentGroup?: string | undefined;
  /** `disableNotifications`: the change tells no person (webhooks are still told). */
  quiet?: boolean | undefined;
};

const ATTEMPTS = 3;

/**
 * Applies every op, and the comment, to every issue in one transaction: any failure
 * (an unreadable issue, a missing permission for one part, an unknown value...) rolls
 * everything back and throws a DomainError naming the issue and the part. What each part
 * needs is commands/requirements.ts (links also need READ_ISSUE on the target). A concurrent writer that
 * trips a unique index (two `tag X` creating one tag) makes the whole command run again.
 */
export async function applyCommand(
  em: Em,
  actor: Actor,
  issueIds: string[],
  ops: CommandOp[],
  comment?: string,
  limits?: ResourceLimits,
  options: CommentOptions = {},
): Promise<ApplyCommandResult> {
  const text = storableText(comment ?? '').trim();
  if (text.length > MAX_COMMENT_LENGTH)
    throw DomainError.invalid('comment', `must be at most ${MAX_COMMENT_LENGTH} characters`);
  if (issueIds.length === 0) throw DomainError.invalid('issues', 'no issue to apply the command to');
  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(em, async (tx) => {
        const refs = await findReadableIssues(tx, actor, issueIds);
        const commentGroupId = text
          ? await findVisibilityGroup(
              tx,
              actor,
              options.commentGroup,
              refs.map((r) => r.projectId),
            )
          : null;
        const state = await loadCommandState(tx, refs);
        const ctx = { actor, state, lookups: new CommandLookups(tx, actor, limits), comment: text };
        for (const issue of state.issues) {
          for (const op of ops) await applyOp(ctx, issue, op);
          applyCommentArgument(ctx, issue);
        }
        await persistCommandState(tx, actor.userId, state, resolutionChanges(state, new Date()), {
          commentGroupId,
          quiet: options.quiet,
        });
        return { issues: refs.map((r) => r.readableId) };
      });
    } catch (error) {
      if (attempt >= ATTEMPTS || !isUniqueViolation(error)) throw error;
    }
  }
}

/** Adds a comment to an issue (CREATE_COMMENT): the `comment` command with its text. */
export async function addComment(em: Em, actor: Actor, issueId: string, text: string): Promise<void> {
  if (!text.trim()) throw DomainError.invalid('comment', 'must not be empty');
  await applyCommand(
    em,
    actor,
    [issueId],
    [{ kind: 'comment', range: { start: 0, end: 0 }, description: 'comment' }],
    text,
  );
}
