import type { ErrorCode, PermissionKey } from '@trackline/contracts';
import { type Actor, can } from '../auth/actor.js';
import type { CommandOp } from '../commands/ops.js';
import { COMMAND_OP_REQUIREMENTS, NO_TIME_TRACKING } from '../commands/requirements.js';
import { DomainError } from '../errors.js';
import { isBundleKind } from '../model/field.entity.js';
import { nameKey } from '../text/user-text.js';
import type { CommandLookups } from './command-lookups.js';
import {
  type CommandState,
  type FieldDef,
  type IssueState,
  linkKey,
  type SlotValue,
} from './command-state.js';
import { resolveValueText } from './fields/resolve-value-text.js';
import { isStarTag } from './tags/tag-lookup.js';

type Ctx = { actor: Actor; state: CommandState; lookups: CommandLookups; comment: string };

const label = (op: CommandOp) => op.description || op.kind;

/** A failure naming the issue and the command part. */
export function opError(
  code: ErrorCode,
  issue: IssueState,
  op: CommandOp | 'comment',
  reason: string,
): DomainError {
  const what = op === 'comment' ? 'comment' : label(op);
  const message = `Cannot apply [ ${what} ] to issue [ ${issue.ref.readableId} ]: ${reason}.`;
  // A bad command (400) names its parameter, like the parser's refusals.
  const issues = code === 'VALIDATION_FAILED' ? [{ field: 'command', message }] : undefined;
  return new DomainError(code, message, issues);
}

function requireFor(ctx: Ctx, issue: IssueState, op: CommandOp | 'comment', permission: PermissionKey) {
  if (!can(ctx.actor, permission, issue.ref.projectId)) {
    throw opError(
      'PERMISSION_DENIED',
      issue,
      op,
      `no rights in project [ ${issue.ref.shortName} ] (${permission})`,
    );
  }
}

function fieldOf(ctx: Ctx, issue: IssueState, op: CommandOp, name: string): FieldDef {
  const field = ctx.state.fields.get(issue.ref.projectId)?.get(nameKey(name));
  if (!field) {
    throw opError(
      'INVALID_COMMAND',
      issue,
      op,
      `field [ ${name} ] does not exist in project [ ${issue.ref.shortName} ]`,
    );
  }
  return field;
}

/** The slot and content a value name takes in a field; null for the field's empty value. */
async function resolveValue(
  ctx: Ctx,
  issue: IssueState,
  op: CommandOp,
  field: FieldDef,
  name: string | null,
): Promise<{ slot: number; content: SlotValue } | null> {
  if (name === null || (field.emptyText && nameKey(name) === field.emptyText.toLowerCase())) return null;
  if (!isBundleKind(field.kind)) {
    try {
      return await resolveValueText(field, name, { userId: async () => null, allowed: undefined });
    } catch (error) {
      if (error instanceof DomainError) throw opError('INVALID_COMMAND', issue, op, error.message);
      throw error;
    }
  }
  if (field.kind === 'user') {
    const userId = await ctx.lookups.userId(name);
    if (userId === null) throw opError('NOT_FOUND', issue, op, `user [ ${name} ] not found`);
    if (!ctx.state.fieldUsers.get(field.id)?.has(userId)) {
      throw opError(
        'INVALID_COMMAND',
        issue,
        op,
        `user [ ${name} ] is not an assignee of project [ ${issue.ref.shortName} ]`,
      );
    }
    return {
      slot: field.multi ? userId : 0,
      content: { value: null, user: userId, text: null, number: null },
    };
  }
  const value = field.values.get(nameKey(name));
  if (!value) {
    throw opError(
      'INVALID_COMMAND',
      issue,
      op,
      `[ ${name} ] is not a value of field [ ${field.name} ] in project [ ${issue.ref.shortName} ]`,
    );
  }
  return {
    slot: field.multi ? value.id : 0,
    content: { value: value.id, user: null, text: null, number: null },
  };
}

function clearField(issue: IssueState, op: CommandOp, field: FieldDef) {
  if (!field.canBeEmpty)
    throw opError('INVALID_COMMAND', issue, op, `field [ ${field.name} ] cannot be empty`);
  issue.current.delete(field.id);
}

async function applyFieldOp(ctx: Ctx, issue: IssueState, op: CommandOp & { kind: 'set' | 'add' | 'remove' }) {
  const field = fieldOf(ctx, issue, op, op.field);
  // Private fields: the vocabulary holds them only for readers (PRIVATE_READ_ISSUE); setting needs more.
  if (field.isPrivate) requireFor(ctx, issue, op, 'PRIVATE_UPDATE_ISSUE');
  const resolved = await resolveValue(ctx, issue, op, field, op.value);
  const slots = issue.current.get(field.id);
  if (op.kind === 'remove') {
    if (!resolved) return clearField(issue, op, field);
    const present = slots?.get(resolved.slot);
    if (
      !present ||
      present.value !== resolved.content.value ||
      present.user !== resolved.content.user ||
      present.text !== resolved.content.text ||
      present.number !== resolved.content.number
    )
      return;
    if (slots && slots.size === 1) return clearField(issue, op, field);
    slots?.delete(resolved.slot);
    return;
  }
  if (!resolved) return clearField(issue, op, field);
  // `set` replaces every value; `add` keeps the others of a multi-value field.
  const keep = op.kind === 'add' && field.multi && slots ? slots : new Map<number, SlotValue>();
  keep.set(resolved.slot, resolved.content);
  issue.current.set(field.id, keep);
}

async function applyLinkOp(ctx: Ctx, issue: IssueState, op: CommandOp & { kind: 'link' | 'unlink' }) {
  const type = await ctx.lookups.linkType(op.linkType);
  if (!type) throw opError('NOT_FOUND', issue, op, `issue link type [ ${op.linkType} ] not found`);
  let target: Awaited<ReturnType<CommandLookups['targetIssue']>>;
  try {
    target = await ctx.lookups.targetIssue(op.issueId);
  } catch {
    // A command error (400) naming it, as for any unknown value; a hidden issue answers alike.
    throw opError('VALIDATION_FAILED', issue, op, `issue [ ${op.issueId} ] not found`);
  }
  if (target.id === issue.ref.id)
    throw opError('INVALID_COMMAND', issue, op, 'an issue cannot be linked to itself');
  const self = issue.ref.id;
  const links = ctx.state.links;
  if (type.directed) {
    const key = op.outward ? linkKey(type.id, self, target.id) : linkKey(type.id, target.id, self);
    if (op.kind === 'link') links.current.add(key);
    else links.current.delete(key);
    return;
  }
  // Undirected: stored once, from the issue the command ran on (as the original recorded it: its
  // link lists show that source), so A→B and B→A can never both exist.
  if (op.kind === 'link') {
    if (!links.current.has(linkKey(type.id, target.id, self)))
      links.current.add(linkKey(type.id, self, target.id));
  } else {
    links.current.delete(linkKey(type.id, self, target.id));
    links.current.delete(linkKey(type.id, target.id, self));
  }
}

function requireNotGuest(ctx: Ctx, issue: IssueState, op: CommandOp) {
  if (ctx.actor.type === 'guest')
    throw opError('PERMISSION_DENIED', issue, op, 'the guest account cannot do this');
}

async function applyStarOp(ctx: Ctx, issue: IssueState, op: CommandOp & { kind: 'star' | 'unstar' }) {
  const userId = await ctx.lookups.userId(op.login || 'me');
  if (userId === null) throw opError('NOT_FOUND', issue, op, `user [ ${op.login} ] not found`);
  const forAnother = COMMAND_OP_REQUIREMENTS[op.kind].forAnotherUser;
  if (userId !== ctx.actor.userId && forAnother) requireFor(ctx, issue, op, forAnother);
  await setStar(ctx, issue, userId, op.kind === 'star');
}

/** Stars or unstars for a user: the watcher row and the user's own `Star` tag, together. */
async function setStar(ctx: Ctx, issue: IssueState, userId: number, on: boolean) {
  const tag = await ctx.lookups.starTag(userId, on);
  if (on) {
    issue.stars.current.add(userId);
    if (tag) issue.tags.current.add(tag.id);
  } else {
    issue.stars.current.delete(userId);
    if (tag) issue.tags.current.delete(tag.id);
  }
}

async function applyTagOp(ctx: Ctx, issue: IssueState, op: CommandOp & { kind: 'tag' | 'untag' }) {
  if (op.kind === 'tag') {
    let tag: Awaited<ReturnType<CommandLookups['tagOrCreate']>>;
    try {
      tag = await ctx.lookups.tagOrCreate(op.tag);
    } catch (error) {
      if (error instanceof DomainError) throw opError(error.code, issue, op, `tag ${error.message}`);
      throw error;
    }
    // The actor's own `Star` tag is the star: tagging with it stars.
    if (tag.ownerId === ctx.actor.userId && isStarTag(tag))
      return setStar(ctx, issue, ctx.actor.userId, true);
    issue.tags.current.add(tag.id);
    return;
  }
  const tag = await ctx.lookups.tag(op.tag);
  if (!tag) throw opError('NOT_FOUND', issue, op, `tag [ ${op.tag} ] not found`);
  if (tag.ownerId === ctx.actor.userId && isStarTag(tag)) return setStar(ctx, issue, ctx.actor.userId, false);
  issue.tags.current.delete(tag.id);
}

/**
 * Applies one command part to one issue's in-memory state, after the checks the requirements
 * table (commands/requirements.ts) gives for its kind.
 */
export async function applyOp(ctx: Ctx, issue: IssueState, op: CommandOp): Promise<void> {
  const needs = COMMAND_OP_REQUIREMENTS[op.kind];
  requireFor(ctx, issue, op, needs.permission);
  if (needs.humansOnly) requireNotGuest(ctx, issue, op);
  switch (op.kind) {
    case 'set':
    case 'add':
    case 'remove':
      return applyFieldOp(ctx, issue, op);
    case 'link':
    case 'unlink':
      return applyLinkOp(ctx, issue, op);
    case 'tag':
    case 'untag':
      return applyTagOp(ctx, issue, op);
    case 'star':
    case 'unstar':
      return applyStarOp(ctx, issue, op);
    case 'vote':
    case 'unvote':
      if (op.kind === 'vote') issue.votes.current.add(ctx.actor.userId);
      else issue.votes.current.delete(ctx.actor.userId);
      return;
    case 'delete':
      issue.deleted = true;
      return;
    case 'work':
      if (!(await ctx.lookups.timeTracking(issue.ref.projectId)))
        throw opError('VALIDATION_FAILED', issue, op, NO_TIME_TRACKING);
      issue.workItems.push({
        duration: op.minutes,
        ...(op.date === null ? {} : { date: op.date }),
        ...(op.workType === null ? {} : { workType: op.workType }),
        description: op.text,
      });
      return;
    case 'visibleTo':
    case 'removeVisibleTo': {
      const group = await ctx.lookups.group(op.group);
      if (group === null) throw opError('VALIDATION_FAILED', issue, op, `group [ ${op.group} ] not found`);
      if (op.kind === 'visibleTo') issue.visibility.current = group;
      else if (issue.visibility.current === group) issue.visibility.current = null;
      return;
    }
    case 'comment':
      if (!ctx.comment) throw opError('INVALID_COMMAND', issue, op, 'the comment text is empty');
      issue.comment = ctx.comment;
      return;
  }
}

/** A comment given beside the command is added even without a `comment` part. */
export function applyCommentArgument(ctx: Ctx, issue: IssueState): void {
  if (!ctx.comment || issue.comment !== null) return;
  requireFor(ctx, issue, 'comment', COMMAND_OP_REQUIREMENTS.comment.permission);
  issue.comment = ctx.comment;
}

/**
 * The new `resolvedAt` of issues whose resolution changes: set when the issue enters a
 * resolved state, cleared when it enters an unresolved one.
 */
export function resolutionChanges(state: CommandState, now: Date): Map<number, Date | null> {
  const changes = new Map<number, Date | null>();
  for (const issue of state.issues) {
    const stateFields = [...(state.fields.get(issue.ref.projectId)?.values() ?? [])].filter(
      (f) => f.kind === 'state',
    );
    const resolved = stateFields.some((f) =>
      [...(issue.current.get(f.id)?.values() ?? [])].some(
        (s) => s.value !== null && f.valuesById.get(s.value)?.resolved,
      ),
    );
    if (resolved && issue.ref.resolvedAt === null) changes.set(issue.ref.id, now);
    else if (!resolved && issue.ref.resolvedAt !== null) changes.set(issue.ref.id, null);
  }
  return changes;
}
