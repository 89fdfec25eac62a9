import { PERMISSION_KEYS } from '@trackline/contracts';
import type { Actor } from '../auth/actor.js';
import { resolveRunAs } from '../auth/run-as.js';
import type { CommandOp } from '../commands/ops.js';
import { parseCommand } from '../commands/parser.js';
import type { CommandVocabulary } from '../commands/vocabulary.js';
import { DomainError } from '../errors.js';
import type { ResourceLimits } from '../folders/resource-limits.js';
import type { Em } from '../orm/em.js';
import { type ApplyCommandResult, applyCommand, type CommentOptions } from './apply-command.js';
import { buildVocabulary } from './build-vocabulary.js';
import { fieldDefinitions } from './command-state.js';
import { findReadableIssues, type IssueRef } from './find-issues.js';
import { rememberedVocabulary } from './vocabulary-cache.js';

/**
 * The vocabulary a command is parsed against: every permission, so that a part the actor
 * may not apply is refused by the per-part check (403 naming it), not reported as an
 * unknown word.
 */
export async function executionVocabulary(
  em: Em,
  actor: Actor,
  issueIds: readonly string[],
  /** The context issues when the caller has resolved them already. */
  resolved?: readonly IssueRef[],
) {
  const refs = resolved ?? (await findReadableIssues(em, actor, issueIds));
  // What it is built from: the actor (own tags, `me`, guest or not) and the context projects.
  const projects = [...new Set(refs.map((i) => i.projectId))].sort((a, b) => a - b);
  // The context issues' groups are words of it too (`remove visible to` names them).
  const key = `execute|${actor.userId}|${actor.login}|${actor.type}|${projects.join(',')}|${contextGroupsKey(refs)}`;
  // Parsing never uses the vocabulary's issue sample, so its age does not matter here.
  return rememberedVocabulary(em, key, Number.POSITIVE_INFINITY, () =>
    buildVocabulary(em, { ...actor, global: new Set(PERMISSION_KEYS) }, issueIds, { readsPrivateAs: actor }),
  );
}

/** The groups the issues are visible to, as a part of a vocabulary's cache key. */
export const contextGroupsKey = (refs: readonly IssueRef[]): string =>
  [...new Set(refs.flatMap((r) => (r.permittedGroupId === null ? [] : [r.permittedGroupId])))]
    .sort((a, b) => a - b)
    .join(',');

/** The command's operations, or a 400 listing every diagnostic with its position. */
export function parseCommandOrThrow(command: string, vocabulary: CommandVocabulary): CommandOp[] {
  const parsed = parseCommand(command, vocabulary);
  if (parsed.diagnostics.length > 0) {
    const detail = parsed.diagnostics.map((x) => `${x.message} (at ${x.start}-${x.end})`).join('; ');
    throw DomainError.invalid('command', detail);
  }
  return parsed.ops;
}

/**
 * Parses and applies a command (and comment) as the actor, atomically. An issue the actor
 * cannot read is NOT_FOUND before anything else: parsing runs with every permission (see
 * `executionVocabulary`), and its errors must not tell hidden issues from missing ones.
 */
export async function executeCommand(
  em: Em,
  actor: Actor,
  issueIds: string[],
  command: string | undefined,
  comment?: string,
  limits?: ResourceLimits,
  options: CommentOptions = {},
): Promise<ApplyCommandResult> {
  const refs = await findReadableIssues(em, actor, issueIds);
  const text = command?.trim() ?? '';
  if (!text && !comment) throw DomainError.invalid('command', 'is required (or a comment)');
  const ops = text ? parseCommandOrThrow(text, await executionVocabulary(em, actor, issueIds, refs)) : [];
  // Outside the command's transaction: the field definitions it loads are then remembered.
  await fieldDefinitions(em, refs);
  return applyCommand(em, actor, issueIds, ops, comment, limits, options);
}

/** `POST /issue/{issue}/execute`: a command on one issue, as the caller or as `runAs`. */
export async function executeIssueCommand(
  em: Em,
  caller: Actor,
  input: {
    issue: string;
    command?: string | undefined;
    comment?: string | undefined;
    runAs?: string | undefined;
    /** The comment is visible to this group only. */
    group?: string | undefined;
    /** The original's `disableNotifications`: no person is told of this change. */
    disableNotifications?: boolean | undefined;
  },
  limits?: ResourceLimits,
): Promise<ApplyCommandResult> {
  const actor = await resolveRunAs(em, caller, input.runAs);
  return executeCommand(em, actor, [input.issue], input.command, input.comment, limits, {
    commentGroup: input.group,
    quiet: input.disableNotifications,
  });
}
