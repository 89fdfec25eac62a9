import { findGroupByName } from '../groups/group-names.js';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { runStatement } from '../orm/statements.js';
import { readQuery } from '../orm/typed-query.js';
import type { FieldChange } from './history/history.js';

/**
 * An issue's own visibility (`permittedGroup`, the original's "Visible to"; docs/visibility.md):
 * set at creation (`PUT /rest/issue?permittedGroup=`) and changed by the `visible to <group>` and
 * `remove visible to <group>` commands, both through these functions. Who may then read it is
 * auth/issue-access.ts.
 */

/**
 * The group's id by name (any case) for the `visible to` commands, null when there is none. The
 * command's vocabulary already holds only the groups the actor may name (`buildVocabulary`), so
 * a name reaching here was offered to it.
 */
export async function visibilityGroupId(em: Em, name: string): Promise<number | null> {
  return (await findGroupByName(em, name.trim()))?.id ?? null;
}

/** The names of groups by id (for the history of a change). */
export async function groupNames(em: Em, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await readQuery(
    em,
    tables.selectFrom('user_groups').select(['id', 'name']).where('id', 'in', ids),
  );
  return new Map(rows.map((r) => [Number(r.id), r.name]));
}

/**
 * Writes an issue's new visibility group (null: every reader of its project) and gives the change
 * its history records, under the issue representation's name for it (`permittedGroup`).
 */
export async function changeIssueVisibility(
  em: Em,
  issueId: number,
  from: number | null,
  to: number | null,
): Promise<FieldChange> {
  await runStatement(em, 'update issues set permitted_group_id = ? where id = ?', [to, issueId]);
  const names = await groupNames(
    em,
    [from, to].filter((id): id is number => id !== null),
  );
  const named = (id: number | null) => (id === null ? [] : [names.get(id) ?? String(id)]);
  return { name: 'permittedGroup', oldValues: named(from), newValues: named(to) };
}
