import { type Actor, can } from '../../auth/actor.js';
import { IssueChange } from '../../model/issue-change.entity.js';
import type { Em } from '../../orm/em.js';
import { toMs } from '../../orm/row-values.js';
import { readRows, runStatement, storedTime } from '../../orm/statements.js';
import { findReadableIssue } from '../find-issues.js';

/** A field's values before and after one change (several for multi-value fields, none when empty). */
export type FieldChange = { name: string; oldValues: string[]; newValues: string[] };

export type IssueChangeView = {
  updater: { login: string; fullName: string };
  /** Milliseconds since the epoch. */
  updated: number;
  fields: FieldChange[];
};

const sameValues = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * The one place issue history is written: every field change (summary, description, custom
 * fields) goes through here, from command execution and from issue updates. Fields whose
 * values did not change are dropped; nothing is written when none changed.
 */
export async function recordIssueChange(
  em: Em,
  change: { issueId: number; updaterId: number; at: Date; fields: FieldChange[] },
): Promise<void> {
  const fields = change.fields.filter((f) => !sameValues(f.oldValues, f.newValues));
  if (fields.length === 0) return;
  await runStatement(
    em,
    'insert into issue_changes (issue_id, updater_id, updated_at, fields) values (?, ?, ?, ?)',
    [change.issueId, change.updaterId, await storedTime(em, change.at), JSON.stringify(fields)],
  );
}

/**
 * `GET /issue/{issue}/changes`: the recorded changes of a readable issue, oldest first. Changes
 * of the project's private fields are left out without PRIVATE_READ_ISSUE there (a change left
 * with no field is left out whole).
 */
export async function listIssueChanges(em: Em, actor: Actor, readableId: string): Promise<IssueChangeView[]> {
  const issue = await findReadableIssue(em, actor, readableId);
  const rows = await em.find(
    IssueChange,
    { issue: issue.id },
    { populate: ['updater'], orderBy: { id: 'asc' } },
  );
  const hidden = can(actor, 'PRIVATE_READ_ISSUE', issue.projectId)
    ? new Set<string>()
    : await privateFieldNames(em, issue.projectId);
  return rows.flatMap((r) => {
    const fields = (JSON.parse(r.fields) as FieldChange[]).filter((f) => !hidden.has(f.name.toLowerCase()));
    if (fields.length === 0) return [];
    return [
      {
        updater: { login: r.updater.login, fullName: r.updater.fullName },
        updated: toMs(r.updatedAt),
        fields,
      },
    ];
  });
}

/** Lower-cased names of the project's private fields. */
async function privateFieldNames(em: Em, projectId: number): Promise<Set<string>> {
  const rows = await readRows<{ name_key: string }>(
    em,
    'select pf.name_key from project_fields pf join custom_fields cf on cf.id = pf.custom_field_id ' +
      'where pf.project_id = ? and cf.is_private = ?',
    [projectId, true],
  );
  return new Set(rows.map((r) => r.name_key));
}
