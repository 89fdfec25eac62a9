import { MAX_PAGE_SIZE } from '@trackline/contracts';
import type { Actor } from '../../auth/actor.js';
import type { Em } from '../../orm/em.js';
import type { Dialect } from '../../orm/open-orm.js';
import { placeholders } from '../../orm/sql-fragments.js';
import { readRows } from '../../orm/statements.js';
import { formatIssueId } from '../issue-id.js';
import { type IssueView, loadIssueViews } from '../issue-view.js';
import { compileQuery } from './compile-query.js';
import { readableIssuesCondition, readableProjectIds, type Sql } from './readable-issues.js';
import {
  runSearchStatement,
  runSearchStatementHere,
  searchCaller,
  searchDialect,
  searchParallelism,
  searchSettingsOf,
} from './search-engine.js';
import {
  and,
  type Condition,
  countStatement,
  type Driver,
  type Estimate,
  estimatesStatement,
  type IdSlice,
  leaf,
  type Plan,
  pageStatement,
  planNested,
  planQuery,
  projectRange,
  type SortKey,
  setStatement,
} from './search-plan.js';
import { SORT_WINDOW, SORTED_PAGE_ROWS, type SortedContext, sortedPageIds } from './search-sorted.js';

export type SearchOptions = {
  skip?: number | undefined;
  max?: number | undefined;
  /** Only issues of this project (database id). */
  projectId?: number | undefined;
  /** Only issues updated strictly after this time (ms since the epoch). */
  updatedAfter?: number | undefined;
  /** Resolve relative dates at this time (tests); now by default. */
  now?: number | undefined;
  /** Dates in this time zone instead of the setting's (tests). */
  timeZone?: string | undefined;
  /** Slices of issue ids a merged count is split into, from any size on (tests); the engine's parallelism by default. */
  countSlices?: number | undefined;
  /** Tests: the window of a sorted page (`SORT_WINDOW` by default), and a trace of its statements. */
  sortWindow?: number | undefined;
  trace?: string[] | undefined;
};

export const SEARCH_DEFAULT_MAX = 10;
export const SEARCH_MAX_RESULTS = MAX_PAGE_SIZE;

/** `max` defaults to 10 and is capped at 500; a missing, negative or non-integer `skip` is 0. */
export function searchPage(options: SearchOptions): { skip: number; max: number } {
  const skip = Number.isFinite(options.skip) ? Math.max(0, Math.floor(options.skip as number)) : 0;
  const max =
    Number.isFinite(options.max) && (options.max as number) >= 1
      ? Math.floor(options.max as number)
      : SEARCH_DEFAULT_MAX;
  return { skip: Math.min(skip, 1_000_000), max: Math.min(max, SEARCH_MAX_RESULTS) };
}

/** A query for the actor as a condition and sort keys, or null when it matches no issue the actor reads. */
async function compile(
  em: Em,
  actor: Actor,
  query: string,
  options: SearchOptions,
): Promise<{
  condition: Condition;
  sort: SortKey[];
  readable: Sql;
  dialect: Dialect;
  estimate: Estimate;
} | null> {
  const readable = readableIssuesCondition(actor, 'i');
  if (!readable) return null;
  const dialect = searchDialect(em);
  const settings = searchSettingsOf(em);
  const compiled = await compileQuery(em, actor, query, {
    dialect,
    timeZone: options.timeZone ?? settings.timeZone,
    now: options.now ?? Date.now(),
  });
  const extra = [];
  if (options.projectId !== undefined) {
    extra.push(
      leaf({ sql: 'i.project_id = ?', params: [options.projectId] }, projectRange([options.projectId])),
    );
  }
  if (options.updatedAfter !== undefined) {
    const after = dialect === 'sqlite' ? options.updatedAfter : new Date(options.updatedAfter);
    extra.push(leaf({ sql: 'i.updated_at > ?', params: [after] }));
  }
  // The other ends of link attributes, planned as queries of their own (search-plan.ts, `NestedSet`).
  const estimate = batchedEstimates(em, actor);
  const condition = await planNested(and([compiled.condition, ...extra]), async (inner, innerReadable) =>
    setStatement(await planQuery(inner, innerReadable, estimate, { dialect, countOnly: true })),
  );
  if (condition.kind === 'false') return null;
  return { condition, sort: compiled.sort, readable, dialect, estimate };
}

/** The planned statement of a query for the actor, or null when the actor reads no issue. */
async function plan(
  em: Em,
  actor: Actor,
  query: string,
  options: SearchOptions,
  purpose: 'page' | 'count',
): Promise<{ plan: Plan; sort: SortKey[] } | null> {
  const compiled = await compile(em, actor, query, options);
  if (!compiled) return null;
  const { condition, readable, dialect, estimate } = compiled;
  const planned = await planQuery(condition, readable, estimate, {
    dialect,
    countOnly: purpose === 'count',
  });
  return { plan: planned, sort: compiled.sort };
}

/**
 * The planner's estimates for one search: the drivers it asks for together (in one tick) are
 * counted by one statement, one round trip to a search worker instead of one per condition; a
 * range asked again (a sorted page plans each bundle position with the query's own ranges, and
 * plans after deciding against a window) is counted once.
 */
function batchedEstimates(em: Em, actor: Actor): Estimate {
  let pending: {
    driver: Driver;
    limit: number;
    resolve: (n: number) => void;
    reject: (e: unknown) => void;
  }[] = [];
  const counted = new Map<string, Promise<number>>();
  const batched = (driver: Driver, limit: number) =>
    new Promise<number>((resolve, reject) => {
      pending.push({ driver, limit, resolve, reject });
      if (pending.length > 1) return;
      queueMicrotask(() => {
        const batch = pending;
        pending = [];
        runSearchStatement(em, estimatesStatement(batch), searchCaller(actor)).then(
          ([row]) => {
            for (const [i, b] of batch.entries()) b.resolve(Number(row?.[i] ?? 0));
          },
          (error) => {
            for (const b of batch) b.reject(error);
          },
        );
      });
    });
  return (driver, limit) => {
    const key = `${limit} ${driver.from} ${driver.where.sql} ${JSON.stringify(driver.where.params)}`;
    let n = counted.get(key);
    if (!n) {
      n = batched(driver, limit);
      counted.set(key, n);
    }
    return n;
  };
}

/** Database ids of a page of matching readable issues, newest first unless the query sorts. */
async function searchDbIds(em: Em, actor: Actor, query: string, options: SearchOptions): Promise<number[]> {
  const compiled = await compile(em, actor, query, options);
  if (!compiled) return [];
  const { skip, max } = searchPage(options);
  const { condition, sort, readable, dialect, estimate } = compiled;
  const [first] = sort;
  if ((first?.positions || (sort.length === 1 && first?.column)) && skip + max <= SORTED_PAGE_ROWS) {
    const projects = readableProjectIds(actor);
    const context: SortedContext = {
      readable,
      ...(projects === 'all'
        ? {}
        : { readableRange: leaf({ sql: '1 = 1', params: [] }, projectRange(projects)) }),
      dialect,
      plan: (c) => planQuery(c, readable, estimate, { dialect }),
      estimate,
      run: (statement) => runSearchStatement(em, statement, searchCaller(actor)),
      window: options.sortWindow ?? SORT_WINDOW,
      ...(options.trace ? { trace: options.trace } : {}),
    };
    return (await sortedPageIds(context, condition, sort, skip + max)).slice(skip, skip + max);
  }
  const planned = await planQuery(condition, readable, estimate, { dialect });
  const statement = pageStatement(planned, sort, skip, max);
  // A page that walks its range and reads only matches (a project's issues for a reader of every
  // issue, say) costs `skip + max` index entries: run here, without the round trip to a search
  // worker (a seventh of the server's time on a page of 50). Anything else goes to the workers.
  const rows =
    planned.walk && sort.length === 0 && skip + max <= IN_PROCESS_WALK_ROWS
      ? await runSearchStatementHere(em, statement)
      : await runSearchStatement(em, statement, searchCaller(actor));
  return rows.map((r) => Number(r[0]));
}

/** The most index entries a page may walk on the request's own connection (see `searchDbIds`). */
const IN_PROCESS_WALK_ROWS = 1000;

/**
 * Issues matching a query (the original's search language, see `query/query-parser.ts`) that the actor
 * may read, as read models: one statement finds the page's ids (permissions inside it), then only
 * the page is loaded. A malformed query fails with VALIDATION_FAILED naming the term and its
 * position; a search over the time budget with SEARCH_TIMEOUT.
 */
export async function searchIssues(
  em: Em,
  actor: Actor,
  query: string,
  options: SearchOptions = {},
): Promise<IssueView[]> {
  return loadIssueViews(em, actor, await searchDbIds(em, actor, query, options));
}

/**
 * Readable ids (`PRJ-12`) of matching issues: the context of a command typed against a query.
 * Only `max` ids are read, however many issues match.
 */
export async function searchIssueIds(
  em: Em,
  actor: Actor,
  query: string,
  options: SearchOptions = {},
): Promise<string[]> {
  const ids = await searchDbIds(em, actor, query, options);
  if (ids.length === 0) return [];
  const rows = await readRows<{ id: number; number_in_project: number; short_name: string }>(
    em,
    `select i.id, i.number_in_project, p.short_name from issues i join projects p on p.id = i.project_id where i.id in (${placeholders(ids)})`,
    ids,
  );
  const byId = new Map(
    rows.map((r) => [Number(r.id), formatIssueId(r.short_name, Number(r.number_in_project))]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** How many readable issues match (the legacy `/rest/issue/count`): `count(*)` of the page's statement. */
export async function countIssues(
  em: Em,
  actor: Actor,
  query: string,
  options: SearchOptions = {},
): Promise<number> {
  const planned = await plan(em, actor, query, options, 'count');
  if (!planned) return 0;
  const slices = await countSlices(em, planned.plan, options.countSlices);
  const counts = await Promise.all(
    slices.map(async (slice) => {
      const [row] = await runSearchStatement(em, countStatement(planned.plan, slice), searchCaller(actor));
      return Number(row?.[0] ?? 0);
    }),
  );
  return counts.reduce((sum, n) => sum + n, 0);
}

/**
 * A merged count (several large ranges walked side by side, `search-plan.ts`) is split into as
 * many slices of issue ids as the search workers can run at once, each counted on its own
 * connection and core and the counts summed: at a million issues, two-field counts walk hundreds
 * of thousands of index entries. Other counts run whole (`[undefined]`). The slices are counted
 * at about the same moment, not in one snapshot: an issue created meanwhile may or may not be
 * counted, as it may be by a single statement started a moment earlier or later.
 */
async function countSlices(em: Em, plan: Plan, forced?: number): Promise<(IdSlice | undefined)[]> {
  const parallelism = forced ?? searchParallelism(em);
  if (!plan.count || parallelism < 2) return [undefined];
  // One primary-key lookup: on the request's connection, not worth a worker's round trip.
  const [row] = await runSearchStatementHere(em, { sql: 'select max(id) from issues', params: [] });
  const maxId = Number(row?.[0] ?? 0);
  if (maxId < (forced ? 1 : SLICED_COUNT_MIN_ISSUES)) return [undefined];
  const step = Math.ceil(maxId / parallelism);
  return Array.from({ length: parallelism }, (_, i) => ({
    from: i * step + 1,
    // The last slice is open: issues created after `max(id)` was read are counted too (up to the
    // largest id the column holds: PostgreSQL refuses a larger integer parameter for it).
    to: i === parallelism - 1 ? MAX_ISSUE_ID : (i + 1) * step,
  }));
}

/** Issue ids are 32-bit integers on both databases. */
const MAX_ISSUE_ID = 2_147_483_647;

/** Below this many issues a merged count takes a few milliseconds: not worth a second statement. */
const SLICED_COUNT_MIN_ISSUES = 50_000;

export type { Sql };
