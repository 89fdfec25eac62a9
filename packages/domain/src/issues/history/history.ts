import { type Actor, can } from '../../auth/actor.js';
import { tables } from '../../model/database.js';
import { IssueChange } from '../../model/issue-change.entity.js';
import type { Em } from '../../orm/em.js';
import { toMs } from '../../orm/row-values.js';
import { storedTime } from '../../orm/statements.js';
import { asStoredTime, type Param, prepareRead, prepareWrite } from '../../orm/typed-query.js';
import { findReadableIssue } from '../find-issues.js';

/** A field's values before and after one change (several for multi-value fields, none when empty). */
export type FieldChange = { name: string; oldValues: string[]; newValues: string[] };

export type IssueChangeView = {
  updater: { login: string; fullName: string };
  /** Milliseconds since the epoch. */
  updated: number;
  fields: FieldChange[];
};

export const sameValues = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/** `at`: the time as stored (`storedTime`); `fields`: the changes as JSON. */
const changeInsert = prepareWrite(
  (param: Param<{ issueId: number; updaterId: number; at: Date | number; fields: string }>) =>
    tables.insertInto('issue_changes').values({
      issue_id: param('issueId'),
      updater_id: param('updaterId'),
      updated_at: asStoredTime(param('at')),
      fields: param('fields'),
    }),
);
const privateFieldsQuery = prepareRead((param: Param<{ projectId: number; isPrivate: boolean }>) =>
  tables
    .selectFrom('project_fields as pf')
    .innerJoin('custom_fields as cf', 'cf.id', 'pf.custom_field_id')
    .select('pf.name_key')
    .where('pf.project_id', '=', param('projectId'))
    .where('cf.is_private', '=', param('isPrivate')),
);

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
  await changeInsert.run(em, {
    issueId: change.issueId,
    updaterId: change.updaterId,
    at: await storedTime(em, change.at),
    fields: JSON.stringify(fields),
  });
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
export async function privateFieldNames(em: Em, projectId: number): Promise<Set<string>> {
  const rows = await privateFieldsQuery.all(em, { projectId, isPrivate: true });
  return new Set(rows.map((r) => r.name_key));
}
