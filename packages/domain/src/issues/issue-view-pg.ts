import type { FieldKind } from '../model/field.entity.js';

/**
 * One issue's read on PostgreSQL in one statement: the issue row of `issue-view.ts` (same columns)
 * plus its project's fields joined with the issue's values, aggregated as `fields` (a JSON array
 * of arrays, in the order the two-statement path sorts them).
 *
 * Why: on PostgreSQL every statement is a round trip and a backend's parse-bind-execute, and the
 * fields were a second statement on every issue read (the bench's mix is 90% of them). Why the
 * shape: the joins that look up one row by key (the updater, a value's name, a user's login)
 * are `lateral … limit 1`, which the planner cannot flatten into a hash join over the whole
 * `users` table; without statistics (a new database, autovacuum off) it did exactly that, and a
 * third of the statement's time was a sequential scan of `users` for one row. Stars and votes
 * are one aggregate each (count and the viewer's own) instead of two sub-selects.
 * Parameters: the viewer's user id, the project's short-name key, the issue's number.
 * SQLite keeps two statements: there a statement is a function call, not a round trip.
 */
export const PG_ISSUE_WITH_FIELDS_SQL =
  'select i.id, i.project_id, i.number_in_project, i.summary, i.description, i.created_at, i.updated_at, ' +
  'i.resolved_at, p.short_name, p.name as project_name, u.login, u.full_name, ' +
  'uu.login as updater_login, uu.full_name as updater_full_name, i.reporter_id, i.permitted_group_id, ' +
  '(select g.name from user_groups g where g.id = i.permitted_group_id) as permitted_group, ' +
  'st.stars, st.my_stars, vo.votes, vo.my_votes, ' +
  'exists (select 1 from issue_attachments a where a.issue_id = i.id) as has_attachments, ' +
  'exists (select 1 from issue_tags it where it.issue_id = i.id) as has_tags, ' +
  'exists (select 1 from issue_comments c where c.issue_id = i.id and not c.deleted) as has_comments, ' +
  '(exists (select 1 from issue_links l where l.source_id = i.id) ' +
  'or exists (select 1 from issue_links l where l.target_id = i.id)) as has_links, ' +
  '(select json_agg(json_build_array(pf.id, pf.name, pf.kind, pf.multi, pf.empty_text, cf.is_private, ' +
  'ifv.issue_id, fv.name, fv.resolved, fv.color_index, fu.login, fu.full_name, ifv.text, ifv.number) ' +
  'order by pf.ordinal, pf.id, fv.ordinal, fv.id, fu.login, ifv.slot) ' +
  'from project_fields pf join custom_fields cf on cf.id = pf.custom_field_id ' +
  'left join issue_field_values ifv on ifv.field_id = pf.id and ifv.issue_id = i.id ' +
  'left join lateral (select fv.name, fv.resolved, fv.color_index, fv.ordinal, fv.id from field_values fv ' +
  'where fv.id = ifv.value_id limit 1) fv on true ' +
  'left join lateral (select fu.login, fu.full_name from users fu where fu.id = ifv.user_id limit 1) fu on true ' +
  'where pf.project_id = i.project_id) as fields ' +
  'from issues i join projects p on p.id = i.project_id join users u on u.id = i.reporter_id ' +
  'cross join lateral (select count(*) as stars, count(*) filter (where s.user_id = ?) as my_stars ' +
  'from issue_stars s where s.issue_id = i.id) st ' +
  'cross join lateral (select count(*) as votes, count(*) filter (where v.user_id = ?) as my_votes ' +
  'from issue_votes v where v.issue_id = i.id) vo ' +
  // The author of the issue's latest recorded change (the legacy `updaterName`), else the
  // updater an import named.
  'left join lateral (select uu.login, uu.full_name from users uu where uu.id = coalesce(' +
  '(select c.updater_id from issue_changes c where c.issue_id = i.id order by c.id desc limit 1), ' +
  'i.updater_id) limit 1) uu on true ' +
  'where p.short_name_key = ? and i.number_in_project = ?';

/** A field of the issue's project with one of its values (or none: the value columns are null). */
export type FieldWithValueRow = {
  id: number;
  project_id: number;
  name: string;
  kind: FieldKind;
  multi: unknown;
  empty_text: string | null;
  is_private: unknown;
  issue_id: number | null;
  field_id: number;
  value_name: string | null;
  resolved: unknown;
  color_index: unknown;
  login: string | null;
  full_name: string | null;
  text: string | null;
  number: unknown;
};

type FieldTuple = [
  number,
  string,
  FieldKind,
  boolean,
  string | null,
  boolean,
  number | null,
  string | null,
  boolean | null,
  number | null,
  string | null,
  string | null,
  string | null,
  number | string | null,
];

/** The `fields` column (the pg driver parses json; null when the project has no field) as rows. */
export function fieldRowsOf(fields: unknown, projectId: number): FieldWithValueRow[] {
  const tuples = (typeof fields === 'string' ? JSON.parse(fields) : (fields ?? [])) as FieldTuple[];
  return tuples.map((t) => ({
    id: t[0],
    project_id: projectId,
    name: t[1],
    kind: t[2],
    multi: t[3],
    empty_text: t[4],
    is_private: t[5],
    issue_id: t[6],
    field_id: t[0],
    value_name: t[7],
    resolved: t[8],
    color_index: t[9],
    login: t[10],
    full_name: t[11],
    text: t[12],
    number: t[13],
  }));
}
