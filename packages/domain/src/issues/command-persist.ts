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
import { commandFieldChanges, loginsOf } from './history/field-changes.js';
import { recordIssueChange } from './history/history.js';
import { recordLinkEvents, recordTagEvents } from './history/issue-events.js';
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

/** Writes the links added and removed; the ids of the issues on either end of a change, and the links. */
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

/**
 * Writes the difference between what was loaded and what the command left, plus the
 * comments; `updatedAt` moves on every context issue whose fields, links or comments changed (not
 * for tags, stars or votes), and `resolvedAt` as given.
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
  // A deleted issue gets no new links; its own go with it.
  const deleted = new Set(state.issues.filter((i) => i.deleted).map((i) => i.ref.id));
  for (const key of state.links.current)
    if (issuesOf(key).some((id) => deleted.has(id))) state.links.current.delete(key);
  const links = await persistLinks(em, state, now);
  const linked = links.touched;
  const at = await storedTime(em, now);
  await recordLinkEvents(em, { actorId, at, added: links.added, removed: links.removed, deleted });
  if (deleted.size > 0) await deleteIssueRows(em, [...deleted]);
  for (const issue of state.issues) {
    const id = issue.ref.id;
    if (issue.deleted) continue;
    let changed = await persistFields(em, issue);
    const fields = commandFieldChanges(state, issue, logins);
    const { initial, current } = issue.visibility;
    if (current !== initial) {
      fields.push(await changeIssueVisibility(em, id, initial, current));
      changed = true;
    }
    await recordIssueChange(em, { issueId: id, updaterId: actorId, at: now, fields });
    // Tags, stars and votes are the users' marks on an issue, not changes of it: `updated` stays
    // (so a migration that tags imported issues, as youtrack2youtrack does, keeps their times).
    const tags = diff(issue.tags);
    await persistSet(em, 'issue_tags', 'tag_id', id, tags);
    await recordTagEvents(em, { actorId, at, issueId: id, ...tags });
    await persistSet(em, 'issue_stars', 'user_id', id, diff(issue.stars));
    await persistSet(em, 'issue_votes', 'user_id', id, diff(issue.votes));
    for (const item of issue.workItems) {
      await insertWorkItem(em, actorId, id, item);
      changed = true;
    }
    if (issue.comment !== null) {
      await runStatement(
        em,
        'insert into issue_comments (issue_id, author_id, text, created_at, updated_at, deleted, permitted_group_id) ' +
          'values (?, ?, ?, ?, ?, ?, ?)',
        [id, actorId, issue.comment, at, at, false, commentGroupId],
      );
      changed = true;
    }
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
}
