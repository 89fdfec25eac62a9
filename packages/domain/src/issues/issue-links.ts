import type { Actor } from '../auth/actor.js';
import { readableIssuesSql } from '../auth/issue-access.js';
import type { Em } from '../orm/em.js';
import { findReadableIssue } from './find-issues.js';
import { formatIssueId } from './issue-id.js';

/** One link as the legacy `issueLink` element: the type's names and both ends' readable ids. */
export type IssueLinkEntry = {
  typeName: string;
  source: string;
  target: string;
  typeOutward: string;
  typeInward: string;
};

type Row = {
  id: number;
  type_name: string;
  outward_name: string;
  inward_name: string;
  source_short: string;
  source_number: number;
  target_short: string;
  target_number: number;
};

const FROM =
  'select l.id, t.name as type_name, t.outward_name, t.inward_name, ' +
  's.number_in_project as source_number, sp.short_name as source_short, ' +
  'o.number_in_project as target_number, op.short_name as target_short ' +
  'from issue_links l join issue_link_types t on t.id = l.type_id ' +
  'join issues s on s.id = l.source_id join projects sp on sp.id = s.project_id ' +
  'join issues o on o.id = l.target_id join projects op on op.id = o.project_id ';
const SELECT = `${FROM}where (l.source_id = ? or l.target_id = ?)`;

/**
 * `GET /issue/{issue}/link`: the links of a readable issue in both directions, each as stored
 * (source → target), leaving out those whose other end the actor cannot read.
 */
export async function listIssueLinks(em: Em, actor: Actor, readableId: string): Promise<IssueLinkEntry[]> {
  const issue = await findReadableIssue(em, actor, readableId);
  const source = readableIssuesSql(actor, 's');
  const target = readableIssuesSql(actor, 'o');
  if (source === 'none' || target === 'none') return [];
  const rows = await em
    .getConnection()
    .execute<Row[]>(`${SELECT} and ${source.sql} and ${target.sql} order by l.id`, [
      issue.id,
      issue.id,
      ...source.params,
      ...target.params,
    ]);
  return rows.map(toEntry);
}

const toEntry = (r: Row): IssueLinkEntry => ({
  typeName: r.type_name,
  source: formatIssueId(r.source_short, Number(r.source_number)),
  target: formatIssueId(r.target_short, Number(r.target_number)),
  typeOutward: r.outward_name,
  typeInward: r.inward_name,
});

/**
 * `GET /export/links?max&after` (the original's "Export Links"): every link both of whose ends the
 * actor may read, in the order they were made; `after` skips, `max` bounds the page (all when
 * absent, as the original's 7.0 page and the client libraries' `exportIssueLinks()` expect).
 */
export async function exportIssueLinks(
  em: Em,
  actor: Actor,
  page: { after?: number | undefined; max?: number | undefined } = {},
): Promise<IssueLinkEntry[]> {
  const source = readableIssuesSql(actor, 's');
  const target = readableIssuesSql(actor, 'o');
  if (source === 'none' || target === 'none') return [];
  const after = Math.max(0, Math.trunc(page.after ?? 0));
  // Both bounds are integers the contract checked; written into the text, as no dialect binds them alike.
  const pageSql = page.max === undefined ? '' : ` limit ${Math.trunc(page.max)} offset ${after}`;
  const rows = await em
    .getConnection()
    .execute<Row[]>(`${FROM}where ${source.sql} and ${target.sql} order by l.id${pageSql}`, [
      ...source.params,
      ...target.params,
    ]);
  const entries = rows.map(toEntry);
  return page.max === undefined && after ? entries.slice(after) : entries;
}
