/**
 * One issue's read on PostgreSQL in one statement: the issue row of `issue-view.ts` (same columns),
 * the issue's stored field values as `field_values` (a JSON array of arrays, ordered as the
 * two-statement path orders them within a field) and the vocabulary epoch (`fields_epoch`, row 2
 * of `trackline_auth_epoch`), under which the project's field definitions are remembered
 * (`issue-view.ts`): project fields and prototypes bump that epoch in the changing transaction
 * (migration 0013), so definitions remembered under the epoch this statement read are the ones
 * its snapshot holds.
 *
 * Why: on PostgreSQL every statement is a round trip and a backend's parse-bind-execute, and the
 * fields were a second statement on every issue read (the bench's mix is 90% of them); joining
 * the project's fields in this statement cost it almost half of its time (measured: 0.22 of 0.49
 * ms of backend CPU), reading the values alone a fifth. Why the shape: the joins that look up one
 * row by key (the updater, a value's name, a user's login) are `lateral … limit 1`, which the
 * planner cannot flatten into a hash join over the whole `users` table; without statistics (a
 * new database, autovacuum off) it did exactly that, and a third of the statement's time was a
 * sequential scan of `users` for one row. Stars and votes are one aggregate each (count and the
 * viewer's own) instead of two sub-selects.
 * Parameters: the viewer's user id (twice), the project's short-name key, the issue's number.
 * SQLite keeps two statements: there a statement is a function call, not a round trip.
 */
export const PG_ISSUE_SQL =
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
  '(select json_agg(json_build_array(ifv.field_id, fv.name, fv.resolved, fv.color_index, fu.login, ' +
  'fu.full_name, ifv.text, ifv.number) order by ifv.field_id, fv.ordinal, fv.id, fu.login, ifv.slot) ' +
  'from issue_field_values ifv ' +
  'left join lateral (select fv.name, fv.resolved, fv.color_index, fv.ordinal, fv.id from field_values fv ' +
  'where fv.id = ifv.value_id limit 1) fv on true ' +
  'left join lateral (select fu.login, fu.full_name from users fu where fu.id = ifv.user_id limit 1) fu on true ' +
  'where ifv.issue_id = i.id) as field_values, ' +
  '(select n from trackline_auth_epoch where id = 2) as fields_epoch ' +
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

/** One stored value of the issue: a bundle value, a user, or a simple text or number. */
export type IssueValueRow = {
  issue_id: number;
  field_id: number;
  value_name: string | null;
  resolved: unknown;
  color_index: unknown;
  login: string | null;
  full_name: string | null;
  text: string | null;
  number: unknown;
};

type ValueTuple = [
  number,
  string | null,
  boolean | null,
  number | null,
  string | null,
  string | null,
  string | null,
  number | string | null,
];

/** The `field_values` column (the pg driver parses json; null when the issue has no value) as rows. */
export function valueRowsOf(values: unknown, issueId: number): IssueValueRow[] {
  const tuples = (typeof values === 'string' ? JSON.parse(values) : (values ?? [])) as ValueTuple[];
  return tuples.map((t) => ({
    issue_id: issueId,
    field_id: t[0],
    value_name: t[1],
    resolved: t[2],
    color_index: t[3],
    login: t[4],
    full_name: t[5],
    text: t[6],
    number: t[7],
  }));
}
