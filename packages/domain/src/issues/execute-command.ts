import { PERMISSION_KEYS } from '@trackline/contracts';
import type { Actor } from '../auth/actor.js';
import type { CommandOp } from '../commands/ops.js';
import { parseCommand } from '../commands/parser.js';
import type { CommandVocabulary } from '../commands/vocabulary.js';
import { DomainError } from '../errors.js';
import type { ResourceLimits } from '../folders/resource-limits.js';
import type { Em } from '../orm/em.js';
import { type ApplyCommandResult, applyCommand } from './apply-command.js';
import { buildVocabulary } from './build-vocabulary.js';

/**
 * The vocabulary a command is parsed against: every permission, so that a part the actor
 * may not apply is refused by the per-part check (403 naming it), not reported as an
 * unknown word.
 */
export function executionVocabulary(em: Em, actor: Actor, issueIds: readonly string[]) {
  return buildVocabulary(em, { ...actor, global: new Set(PERMISSION_KEYS) }, issueIds);
}

/** The command's operations, or a 400 listing every diagnostic with its position. */
export function parseCommandOrThrow(command: string, vocabulary: CommandVocabulary): CommandOp[] {
  const parsed = parseCommand(command, vocabulary);
  if (parsed.diagnostics.length > 0) {
    const detail = parsed.diagnostics.map((x) => `${x.message} (at ${x.start}-${x.end})`).join('; ');
    throw DomainError.invalid('command', detail);
  }
  return parsed.ops;
}

/** Parses and applies a command (and comment) as the actor, atomically. */
export async function executeCommand(
  em: Em,
  actor: Actor,
  issueIds: string[],
  command: string,
  comment?: string,
  limits?: ResourceLimits,
): Promise<ApplyCommandResult> {
  const ops = command ? parseCommandOrThrow(command, await executionVocabulary(em, actor, issueIds)) : [];
  return applyCommand(em, actor, issueIds, ops, comment, limits);
}
