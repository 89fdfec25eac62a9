import type { Em } from '../orm/em.js';
import type { CommandState, FieldSlots, IssueState, LinkKey, SlotValue } from './command-state.js';
import { IssueComment } from './comments/comment.entity.js';
import { IssueFieldValue } from './fields/field.entity.js';
import { commandFieldChanges, loginsOf } from './history/field-changes.js';
import { recordIssueChange } from './history/history.js';
import { Issue, IssueLink } from './issue.entity.js';
import { IssueStar, IssueVote } from './stars-votes.entity.js';
import { IssueTag } from './tags/tag.entity.js';

const sameSlot = (a: SlotValue, b: SlotValue) =>
  a.value === b.value && a.user === b.user && a.text === b.text && a.number === b.number;

/** Writes the field changes of one issue; whether there were any. */
async function persistFields(em: Em, state: IssueState): Promise<boolean> {
  const issue = state.ref.id;
  const fieldIds = new Set([...state.initial.keys(), ...state.current.keys()]);
  const inserts: ({ issue: number; field: number; slot: number } & SlotValue)[] = [];
  let changed = false;
  for (const field of fieldIds) {
    const before: FieldSlots = state.initial.get(field) ?? new Map();
    const after: FieldSlots = state.current.get(field) ?? new Map();
    const removed = [...before.keys()].filter((slot) => !after.has(slot));
    if (removed.length) {
      await em.nativeDelete(IssueFieldValue, { issue, field, slot: { $in: removed } });
      changed = true;
    }
    for (const [slot, target] of after) {
      const old = before.get(slot);
      if (!old) inserts.push({ issue, field, slot, ...target });
      else if (!sameSlot(old, target)) {
        await em.nativeUpdate(IssueFieldValue, { issue, field, slot }, target);
        changed = true;
      }
    }
  }
  if (inserts.length) await em.insertMany(IssueFieldValue, inserts);
  return changed || inserts.length > 0;
}

const diff = (set: { initial: Set<number>; current: Set<number> }) => ({
  added: [...set.current].filter((x) => !set.initial.has(x)),
  removed: [...set.initial].filter((x) => !set.current.has(x)),
});

const issuesOf = (key: LinkKey) => key.split(':').slice(1).map(Number);

/** Writes the links added and removed; the ids of the issues on either end of a change. */
async function persistLinks(em: Em, state: CommandState, now: Date): Promise<Set<number>> {
  const touched = new Set<number>();
  const removed = [...state.links.initial].filter(([key]) => !state.links.current.has(key));
  if (removed.length) await em.nativeDelete(IssueLink, { id: { $in: removed.map(([, id]) => id) } });
  const added = [...state.links.current].filter((key) => !state.links.initial.has(key));
  if (added.length) {
    await em.insertMany(
      IssueLink,
      added.map((key) => {
        const [type, source, target] = key.split(':').map(Number) as [number, number, number];
        return { type, source, target, createdAt: now };
      }),
    );
  }
  for (const key of [...removed.map(([key]) => key), ...added])
    for (const id of issuesOf(key)) touched.add(id);
  return touched;
}

/**
 * Writes the difference between what was loaded and what the command left, plus the
 * comments; `updatedAt` moves on every context issue that changed (and `resolvedAt` as given).
 * Each issue's field changes are recorded in its history (`recordIssueChange`).
 */
export async function persistCommandState(
  em: Em,
  actorId: number,
  state: CommandState,
  resolvedAt: Map<number, Date | null>,
  commentGroupId: number | null = null,
): Promise<void> {
  const now = new Date();
  const logins = await loginsOf(em, state);
  const linked = await persistLinks(em, state, now);
  for (const issue of state.issues) {
    const id = issue.ref.id;
    let changed = await persistFields(em, issue);
    const fields = commandFieldChanges(state, issue, logins);
    await recordIssueChange(em, { issueId: id, updaterId: actorId, at: now, fields });
    const tags = diff(issue.tags);
    if (tags.removed.length) await em.nativeDelete(IssueTag, { issue: id, tag: { $in: tags.removed } });
    if (tags.added.length)
      await em.insertMany(
        IssueTag,
        tags.added.map((tag) => ({ issue: id, tag })),
      );
    changed ||= tags.added.length + tags.removed.length > 0;
    for (const [entity, set] of [
      [IssueStar, issue.stars],
      [IssueVote, issue.votes],
    ] as const) {
      const { added, removed } = diff(set);
      if (removed.length) await em.nativeDelete(entity, { issue: id, user: { $in: removed } });
      if (added.length)
        await em.insertMany(
          entity,
          added.map((user) => ({ issue: id, user })),
        );
      changed ||= added.length + removed.length > 0;
    }
    if (issue.comment !== null) {
      await em.insert(IssueComment, {
        issue: id,
        author: actorId,
        text: issue.comment,
        createdAt: now,
        updatedAt: now,
        deleted: false,
        permittedGroup: commentGroupId,
      });
      changed = true;
    }
    const resolved = resolvedAt.get(id);
    if (resolved !== undefined)
      await em.nativeUpdate(Issue, { id }, { updatedAt: now, resolvedAt: resolved });
    else if (changed || linked.has(id)) await em.nativeUpdate(Issue, { id }, { updatedAt: now });
  }
}
