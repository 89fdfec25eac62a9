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

const SELECT =
  'select l.id, t.name as type_name, t.outward_name, t.inward_name, ' +
  's.number_in_project as source_number, sp.short_name as source_short, ' +
  'o.number_in_project as target_number, op.short_name as target_short ' +
  'from issue_links l join issue_link_types t on t.id = l.type_id ' +
  'join issues s on s.id = l.source_id join projects sp on sp.id = s.project_id ' +
  'join issues o on o.id = l.target_id join projects op on op.id = o.project_id ' +
  'where (l.source_id = ? or l.target_id = ?)';

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
  return rows.map((r) => ({
    typeName: r.type_name,
    source: formatIssueId(r.source_short, Number(r.source_number)),
    target: formatIssueId(r.target_short, Number(r.target_number)),
    typeOutward: r.outward_name,
    typeInward: r.inward_name,
  }));
}
