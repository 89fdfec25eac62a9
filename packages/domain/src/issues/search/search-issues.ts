import { raw } from '@mikro-orm/sql';
import { type Actor, projectsWith } from '../../auth/actor.js';
import { readableIssuesSql } from '../../auth/issue-access.js';
import type { Em } from '../../orm/em.js';
import { Issue } from '../issue.entity.js';
import { formatIssueId } from '../issue-id.js';
import { type IssueView, loadIssueViews } from '../issue-view.js';
import { compileQuery, type ReadScope } from './compile-query.js';

export type SearchOptions = {
  skip?: number | undefined;
  max?: number | undefined;
  /** Only issues of this project (database id). */
  projectId?: number | undefined;
  /** Only issues updated strictly after this time (ms since the epoch). */
  updatedAfter?: number | undefined;
};

export const SEARCH_DEFAULT_MAX = 10;
export const SEARCH_MAX_RESULTS = 500;

const scopeOf = (actor: Actor): ReadScope | null => {
  const ids = projectsWith(actor, 'READ_ISSUE');
  return ids === 'all' || ids.length > 0 ? ids : null;
};

/** `max` defaults to 10 and is capped at 500; a missing, negative or non-integer `skip` is 0. */
export function searchPage(options: SearchOptions): { skip: number; max: number } {
  const skip = Number.isFinite(options.skip) ? Math.max(0, Math.floor(options.skip as number)) : 0;
  const max =
    Number.isFinite(options.max) && (options.max as number) >= 1
      ? Math.floor(options.max as number)
      : SEARCH_DEFAULT_MAX;
  return { skip, max: Math.min(max, SEARCH_MAX_RESULTS) };
}

async function buildQuery(em: Em, actor: Actor, query: string, options: SearchOptions = {}) {
  const scope = scopeOf(actor);
  const readable = readableIssuesSql(actor, 'i');
  if (!scope || readable === 'none') return null;
  const compiled = await compileQuery(em, actor, query, scope);
  const qb = em.createQueryBuilder(Issue, 'i');
  // Permissions inside the statement: pages stay full and counts include only readable issues.
  qb.where(readable.sql, readable.params);
  if (options.projectId !== undefined) qb.andWhere({ project: options.projectId });
  if (options.updatedAfter !== undefined) qb.andWhere({ updatedAt: { $gt: new Date(options.updatedAfter) } });
  for (const condition of compiled.where) qb.andWhere(condition.sql, condition.params);
  return { qb, orderBy: compiled.orderBy };
}

/** Database ids of matching issues the actor can read, newest first unless the query sorts. */
async function searchDbIds(em: Em, actor: Actor, query: string, options: SearchOptions): Promise<number[]> {
  const built = await buildQuery(em, actor, query, options);
  if (!built) return [];
  const { skip, max } = searchPage(options);
  const { qb, orderBy } = built;
  qb.select('i.id').orderBy([...orderBy.map((o) => ({ [raw(o.sql)]: o.direction })), { id: 'desc' }]);
  qb.limit(max, skip);
  const rows = await qb.execute<{ id: number }[]>('all', false);
  return rows.map((r) => Number(r.id));
}

/**
 * Issues matching a query (see `parse-query.ts`) that the actor may read (READ_ISSUE per
 * project), newest first, as read models. The query runs as SQL; only the page is loaded.
 * Odd input fails only with VALIDATION_FAILED naming the bad term.
 */
export async function searchIssues(
  em: Em,
  actor: Actor,
  query: string,
  options: SearchOptions = {},
): Promise<IssueView[]> {
  return loadIssueViews(em, actor, await searchDbIds(em, actor, query, options));
}

/** Readable ids (`PRJ-12`) of matching issues: the context of a command typed against a query. */
export async function searchIssueIds(
  em: Em,
  actor: Actor,
  query: string,
  options: SearchOptions = {},
): Promise<string[]> {
  const ids = await searchDbIds(em, actor, query, options);
  if (ids.length === 0) return [];
  const rows = await em
    .createQueryBuilder(Issue, 'i')
    .select(['i.id', 'i.numberInProject'])
    .addSelect(raw('(select short_name from projects p where p.id = i.project_id) as short_name'))
    .where({ id: { $in: ids } })
    .execute<{ id: number; number_in_project: number; short_name: string }[]>('all', false);
  const byId = new Map(
    rows.map((r) => [Number(r.id), formatIssueId(r.short_name, Number(r.number_in_project))]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** How many readable issues match (the legacy `/rest/issue/count`). */
export async function countIssues(em: Em, actor: Actor, query: string): Promise<number> {
  const built = await buildQuery(em, actor, query);
  if (!built) return 0;
  return built.qb.getCount();
}
