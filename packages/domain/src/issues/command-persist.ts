import { IssueLink } from '../model/issue.entity.js';
import type { Em } from '../orm/em.js';
import { dialectOfEm } from '../orm/open-orm.js';
import { toBool } from '../orm/row-values.js';
import { runStatement, storedTime } from '../orm/statements.js';
import { deleteIssueRows } from '../projects/issue-dependents.js';
import {
  type CommandState,
  type FieldSlots,
  type IssueState,
  type LinkKey,
  linkKey,
  type SlotValue,
} from './command-state.js';
import { recordLinkEvents, recordTagEvents } from './history/activity-events.js';
import { commandFieldChanges, loginsOf } from './history/field-changes.js';
import { recordIssueChange } from './history/history.js';
import { type IssueEventPart, recordIssueEvent } from './history/issue-events.js';
import { changeIssueVisibility } from './issue-visibility.js';
import { insertWorkItem } from './work-items/work-items.js';

const sameSlot = (a: SlotValue, b: SlotValue) =>
  a.value === b.value && a.user === b.user && a.text === b.text && a.number === b.number;

const placeholderList = (count: number) => Array.from({ length: count }, () => '?').join(', ');
const rowsOf = (rows: number, columns: number) =>
  Array.from({ length: rows }, () => `(${placeholderList(columns)})`).join(', ');

/** Writes the field changes of one issue (statements prepared once); whether there were any. */
async function persistFields(em: Em, state: IssueState): Promise<boolean> {
  const issue = state.ref.id;
  const fieldIds = new Set([...state.initial.keys(), ...state.current.keys()]);
  const inserts: (number | string | null)[][] = [];
  let changed = false;
  for (const field of fieldIds) {
    const before: FieldSlots = state.initial.get(field) ?? new Map();
    const after: FieldSlots = state.current.get(field) ?? new Map();
    const removed = [...before.keys()].filter((slot) => !after.has(slot));
    if (removed.length) {
      await runStatement(
        em,
        `delete from issue_field_values where issue_id = ? and field_id = ? and slot in (${placeholderList(removed.length)})`,
        [issue, field, ...removed],
      );
      changed = true;
    }
    for (const [slot, target] of after) {
      const old = before.get(slot);
      if (!old) inserts.push([issue, field, slot, target.value, target.user, target.text, target.number]);
      else if (!sameSlot(old, target)) {
        await runStatement(
          em,
          'update issue_field_values set value_id = ?, user_id = ?, text = ?, number = ? ' +
            'where issue_id = ? and field_id = ? and slot = ?',
          [target.value, target.user, target.text, target.number, issue, field, slot],
        );
        changed = true;
      }
    }
  }
  if (inserts.length) {
    await runStatement(
      em,
      `insert into issue_field_values (issue_id, field_id, slot, value_id, user_id, text, number) values ${rowsOf(inserts.length, 7)}`,
      inserts.flat(),
    );
  }
  return changed || inserts.length > 0;
}

/** Removes and adds the (issue, ref) rows of a relation table: tags, stars, votes. */
async function persistSet(
  em: Em,
  table: 'issue_tags' | 'issue_stars' | 'issue_votes',
  column: 'tag_id' | 'user_id',
  issue: number,
  change: { added: number[]; removed: number[] },
): Promise<boolean> {
  const { added, removed } = change;
  if (removed.length)
    await runStatement(
      em,
      `delete from ${table} where issue_id = ? and ${column} in (${placeholderList(removed.length)})`,
      [issue, ...removed],
    );
  if (added.length)
    await runStatement(
      em,
      `insert into ${table} (issue_id, ${column}) values ${rowsOf(added.length, 2)}`,
      added.flatMap((ref) => [issue, ref]),
    );
  return added.length + removed.length > 0;
}

const diff = (set: { initial: Set<number>; current: Set<number> }) => ({
  added: [...set.current].filter((x) => !set.initial.has(x)),
  removed: [...set.initial].filter((x) => !set.current.has(x)),
});

const issuesOf = (key: LinkKey) => key.split(':').slice(1).map(Number);

/**
 * The links to add that no concurrent command added meanwhile. An undirected link (Relates) is
 * stored in the direction its command gave, so two commands adding it from either end would both
 * pass the unique index; on PostgreSQL the issues at both ends are locked first (in id order; `no
 * key update` leaves foreign-key checks alone) and the links read again, so the second command
 * sees the first's. SQLite runs one writer at a time: what the command loaded is current.
 */
async function withoutConcurrentDuplicates(em: Em, added: LinkKey[]): Promise<LinkKey[]> {
  if (added.length === 0 || dialectOfEm(em) !== 'postgresql') return added;
  const ids = [...new Set(added.flatMap(issuesOf))].sort((a, b) => a - b);
  const list = placeholderList(ids.length);
  await em.execute(`select id from issues where id in (${list}) order by id for no key update`, ids);
  const rows = await em.execute<
    { type_id: number; source_id: number; target_id: number; directed: unknown }[]
  >(
    'select l.type_id, l.source_id, l.target_id, t.directed from issue_links l ' +
      `join issue_link_types t on t.id = l.type_id where l.source_id in (${list}) and l.target_id in (${list})`,
    [...ids, ...ids],
  );
  const present = new Set<LinkKey>();
  for (const r of rows) {
    const [type, source, target] = [Number(r.type_id), Number(r.source_id), Number(r.target_id)];
    present.add(linkKey(type, source, target));
    if (!toBool(r.directed)) present.add(linkKey(type, target, source));
  }
  return added.filter((key) => !present.has(key));
}

/** The new comment's id (`returning`: SQLite ≥ 3.35 and PostgreSQL). */
async function insertComment(em: Em, values: unknown[]): Promise<number> {
  const rows = await em.execute<{ id: unknown }[]>(
    'insert into issue_comments (issue_id, author_id, text, created_at, updated_at, deleted, permitted_group_id) ' +
      'values (?, ?, ?, ?, ?, ?, ?) returning id',
    values,
  );
  return Number(rows[0]?.id);
}

/**
 * Writes the links added and removed; the ids of the issues on either end of a change, and the
 * keys added and removed.
 */
async function persistLinks(
  em: Em,
  state: CommandState,
  now: Date,
): Promise<{ touched: Set<number>; added: LinkKey[]; removed: LinkKey[] }> {
  const touched = new Set<number>();
  const removed = [...state.links.initial].filter(([key]) => !state.links.current.has(key));
  if (removed.length) await em.nativeDelete(IssueLink, { id: { $in: removed.map(([, id]) => id) } });
  const added = await withoutConcurrentDuplicates(
    em,
    [...state.links.current].filter((key) => !state.links.initial.has(key)),
  );
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
  return { touched, added, removed: removed.map(([key]) => key) };
}

/** The notification events of the links a command added and removed that touch `issueId`. */
function linkParts(issueId: number, added: LinkKey[], removed: LinkKey[]): IssueEventPart[] {
  const parts: IssueEventPart[] = [];
  for (const [kind, keys] of [
    ['link.added', added],
    ['link.removed', removed],
  ] as const) {
    for (const key of keys) {
      const [typeId, sourceId, targetId] = key.split(':').map(Number) as [number, number, number];
      if (sourceId === issueId || targetId === issueId) parts.push({ kind, typeId, sourceId, targetId });
    }
  }
  return parts;
}

export type PersistOptions = {
  /** The group a new comment is visible to. */
  commentGroupId?: number | null;
  /** `disableNotifications`: the events tell no person (webhooks are still told). */
  quiet?: boolean | undefined;
};

/**
 * Writes the difference between what was loaded and what the command left, plus the
 * comments; `updatedAt` moves on every context issue whose fields, links or comments changed (not
 * for tags, stars or votes), and `resolvedAt` as given.
 * Each issue's field changes are recorded in its history (`recordIssueChange`), and each issue's
 * changes (fields, visibility, comment, links, tags) in the notification outbox (`recordIssueEvent`),
 * in the caller's transaction. Stars, votes and work items tell no one.
 */
export async function persistCommandState(
  em: Em,
  actorId: number,
  state: CommandState,
  resolvedAt: Map<number, Date | null>,
  options: PersistOptions = {},
): Promise<void> {
  const commentGroupId = options.commentGroupId ?? null;
  const now = new Date();
  const logins = await loginsOf(em, state);
  // A deleted issue gets no new links; its own go with it.
  const deleted = new Set(state.issues.filter((i) => i.deleted).map((i) => i.ref.id));
  for (const key of state.links.current)
    if (issuesOf(key).some((id) => deleted.has(id))) state.links.current.delete(key);
  const { touched: linked, added: linksAdded, removed: linksRemoved } = await persistLinks(em, state, now);
  const at = await storedTime(em, now);
  // The console's activity (links and tags), beside the history of fields and the outbox.
  await recordLinkEvents(em, { actorId, at, added: linksAdded, removed: linksRemoved, deleted });
  if (deleted.size > 0) await deleteIssueRows(em, [...deleted]);
  for (const issue of state.issues) {
    const id = issue.ref.id;
    if (issue.deleted) continue;
    let changed = await persistFields(em, issue);
    const fields = commandFieldChanges(state, issue, logins);
    const parts: IssueEventPart[] = [{ kind: 'issue.changed', fields: [...fields] }];
    const { initial, current } = issue.visibility;
    if (current !== initial) {
      fields.push(await changeIssueVisibility(em, id, initial, current));
      parts.push({ kind: 'issue.visibility', fromGroupId: initial, toGroupId: current });
      changed = true;
    }
    await recordIssueChange(em, { issueId: id, updaterId: actorId, at: now, fields });
    const tags = diff(issue.tags);
    for (const tagId of tags.added) parts.push({ kind: 'tag.added', tagId });
    for (const tagId of tags.removed) parts.push({ kind: 'tag.removed', tagId });
    parts.push(...linkParts(id, linksAdded, linksRemoved));
    // Tags, stars and votes are the users' marks on an issue, not changes of it: `updated` stays
    // (so a migration that tags imported issues, as youtrack2youtrack does, keeps their times).
    await persistSet(em, 'issue_tags', 'tag_id', id, tags);
    await recordTagEvents(em, { actorId, at, issueId: id, ...tags });
    await persistSet(em, 'issue_stars', 'user_id', id, diff(issue.stars));
    await persistSet(em, 'issue_votes', 'user_id', id, diff(issue.votes));
    for (const item of issue.workItems) {
      await insertWorkItem(em, actorId, id, item);
      changed = true;
    }
    if (issue.comment !== null) {
      const commentId = await insertComment(em, [id, actorId, issue.comment, at, at, false, commentGroupId]);
      parts.push({ kind: 'comment.added', commentId, text: issue.comment });
      changed = true;
    }
    await recordIssueEvent(em, {
      issueId: id,
      projectId: issue.ref.projectId,
      authorId: actorId,
      parts,
      quiet: options.quiet,
      at: now,
    });
    const resolved = resolvedAt.get(id);
    if (resolved !== undefined) {
      await runStatement(em, 'update issues set updated_at = ?, resolved_at = ? where id = ?', [
        at,
        resolved === null ? null : await storedTime(em, resolved),
        id,
      ]);
    } else if (changed || linked.has(id)) {
      await runStatement(em, 'update issues set updated_at = ? where id = ?', [at, id]);
    }
  }
  await recordOtherEnds(em, actorId, state, linksAdded, linksRemoved, { ...options, at: now });
}

/** The issues at the other end of links a command added or removed are told of it too. */
async function recordOtherEnds(
  em: Em,
  actorId: number,
  state: CommandState,
  added: LinkKey[],
  removed: LinkKey[],
  options: PersistOptions & { at: Date },
) {
  const context = new Set(state.issues.map((i) => i.ref.id));
  const others = [...new Set([...added, ...removed].flatMap(issuesOf))].filter((id) => !context.has(id));
  if (others.length === 0) return;
  const rows = await em.execute<{ id: unknown; project_id: unknown }[]>(
    `select id, project_id from issues where id in (${placeholderList(others.length)})`,
    others,
  );
  for (const row of rows) {
    const issueId = Number(row.id);
    await recordIssueEvent(em, {
      issueId,
      projectId: Number(row.project_id),
      authorId: actorId,
      parts: linkParts(issueId, added, removed),
      quiet: options.quiet,
      at: options.at,
    });
  }
}
