import type { Actor } from '../auth/actor.js';
import { canReadIssue } from '../auth/issue-access.js';
import { type ImportItemResult, type ImportProblem, imported, refused } from '../issues/import-report.js';
import { parseIssueId } from '../issues/issue-id.js';
import { IssueLink } from '../model/issue.entity.js';
import type { Em } from '../orm/em.js';
import { toBool } from '../orm/row-values.js';
import { placeholders } from '../orm/sql-fragments.js';
import { requireImport } from './import-users.js';

export type ImportedLink = { typeName: string; source: string; target: string };

/**
 * `PUT /rest/import/links` (IMPORT_DATA): one result per link, in order. An unknown type or
 * issue (or one in a project the importer cannot read) is reported for that link only; a link
 * that exists already is imported again as a no-op. Three reads and one insert per request.
 */
export async function importLinks(
  em: Em,
  actor: Actor,
  links: ImportedLink[],
  options: { test?: boolean | undefined } = {},
): Promise<ImportItemResult[]> {
  requireImport(actor);
  const results: ImportItemResult[] = [];
  const types = await em.execute<{ id: number; name_key: string; directed: unknown }[]>(
    'select id, name_key, directed from issue_link_types',
  );
  const typeByKey = new Map(types.map((t) => [t.name_key, t]));
  const wanted = new Map<string, { shortNameKey: string; number: number }>();
  for (const link of links)
    for (const end of [link.source, link.target]) {
      const parsed = parseIssueId(end.trim());
      if (parsed) wanted.set(`${parsed.shortNameKey}-${parsed.number}`, parsed);
    }
  const issueIds = new Map<string, number>();
  if (wanted.size) {
    const keys = [...new Set([...wanted.values()].map((w) => w.shortNameKey))];
    const numbers = [...new Set([...wanted.values()].map((w) => w.number))];
    const rows = await em.execute<
      {
        id: number;
        project_id: number;
        short_name_key: string;
        number_in_project: number;
        reporter_id: number;
        permitted_group_id: number | null;
      }[]
    >(
      'select i.id, i.project_id, p.short_name_key, i.number_in_project, i.reporter_id, i.permitted_group_id ' +
        'from issues i join projects p on p.id = i.project_id ' +
        `where p.short_name_key in (${placeholders(keys)}) and i.number_in_project in (${placeholders(numbers)})`,
      [...keys, ...numbers],
    );
    for (const r of rows)
      if (
        canReadIssue(actor, {
          projectId: Number(r.project_id),
          reporterId: Number(r.reporter_id),
          permittedGroupId: r.permitted_group_id === null ? null : Number(r.permitted_group_id),
        })
      )
        issueIds.set(`${r.short_name_key}-${r.number_in_project}`, Number(r.id));
  }
  const idOf = (end: string) => {
    const parsed = parseIssueId(end.trim());
    return parsed ? issueIds.get(`${parsed.shortNameKey}-${parsed.number}`) : undefined;
  };
  const rows = new Map<string, { type: number; source: number; target: number; undirected: boolean }>();
  links.forEach((link, index) => {
    const id = `${link.source}->${link.target}`;
    const problems: ImportProblem[] = [];
    const type = typeByKey.get(link.typeName.trim().toLowerCase());
    if (!type)
      problems.push({
        message: `unknown link type [ ${link.typeName} ]`,
        fieldName: 'typeName',
        value: link.typeName,
      });
    const source = idOf(link.source);
    const target = idOf(link.target);
    if (source === undefined)
      problems.push({ message: `unknown issue [ ${link.source} ]`, fieldName: 'source', value: link.source });
    if (target === undefined)
      problems.push({ message: `unknown issue [ ${link.target} ]`, fieldName: 'target', value: link.target });
    if (source !== undefined && source === target)
      problems.push({
        message: 'an issue cannot be linked to itself',
        fieldName: 'target',
        value: link.target,
      });
    if (problems.length || !type || source === undefined || target === undefined) {
      results[index] = refused(id, problems);
      return;
    }
    // Undirected links keep the direction given (an exported `Relates` A→B comes back A→B) and are
    // stored once: B→A given after A→B (or stored already) is the same link.
    const undirected = !toBool(type.directed);
    if (!(undirected && rows.has(`${type.id}:${target}:${source}`)))
      rows.set(`${type.id}:${source}:${target}`, { type: Number(type.id), source, target, undirected });
    results[index] = imported(id);
  });
  // An undirected link stored the other way round already is that link: not added again.
  const reversed = [...rows.values()].filter((r) => r.undirected);
  if (reversed.length) {
    // Chunks: a long OR of triples would hit SQLite's expression depth limit.
    for (let i = 0; i < reversed.length; i += 200) {
      const chunk = reversed.slice(i, i + 200);
      const existing = await em.execute<{ type_id: number; source_id: number; target_id: number }[]>(
        `select type_id, source_id, target_id from issue_links where ${chunk.map(() => '(type_id = ? and source_id = ? and target_id = ?)').join(' or ')}`,
        chunk.flatMap((r) => [r.type, r.target, r.source]),
      );
      for (const e of existing) rows.delete(`${e.type_id}:${e.target_id}:${e.source_id}`);
    }
  }
  if (rows.size && !options.test) {
    const now = new Date();
    await em
      .createQueryBuilder(IssueLink)
      .insert(
        [...rows.values()].map((r) => ({ type: r.type, source: r.source, target: r.target, createdAt: now })),
      )
      .onConflict(['type', 'source', 'target'])
      .ignore()
      .execute();
  }
  return results;
}
