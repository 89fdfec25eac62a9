import { placeholders } from '../../orm/sql-fragments.js';
import type { Sql } from './readable-issues.js';

/**
 * A compiled query as a tree of conditions on the issue row `i`, and how its statements are
 * planned. A leaf knows its condition on `i` (`probe`) and, when an index lists its issues, that
 * index range (`driver`). The planner puts the most selective driver of the top-level AND first
 * (selectivity measured by a bounded count on the index itself, so the numbers are current),
 * joins the issue rows to it and checks every other condition on those rows only. A driver
 * `ordered` by issue id gives the first page in id order without sorting: the statement stops at
 * the page's last row, whatever the number of matches. Counts are `count(*)` over the same
 * statement (nothing materialised). With no driver the issues are walked in id order.
 */
export type Driver = {
  /** `issue_field_values d`: the index range's table, aliased `d`. */
  from: string;
  /** The issue id column of a driver row (`d.issue_id`). */
  id: string;
  where: Sql;
  /** Whether the index lists the rows in issue id order (then a page needs no sort). */
  ordered: boolean;
  /**
   * Whether the range may list an issue more than once (one row per value of a multi-valued
   * field): never a page's or a count's driver, only an arm of a combined count (`intersect` and
   * `union` are sets).
   */
  duplicates?: boolean;
  /**
   * Ranges with the same key and different parameters never list the same issue (values of one
   * single-valued field): an OR of them is counted as their concatenation (`union all`), with no
   * set to build.
   */
  disjointBy?: string;
  /**
   * A cheap condition that holds when the range certainly has `limit` rows or more (PostgreSQL's
   * statistics of a frequent word): its estimate is then `limit`, without counting
   * (`estimateStatement`).
   */
  atLeast?: (limit: number) => Sql;
};
/**
 * The issues of some projects as a range (`issues(project_id)`): in issue order for one project
 * (SQLite's index ends with the rowid), in no useful order for several.
 */
export function projectRange(ids: readonly number[]): Driver {
  return ids.length === 1
    ? { from: 'issues d', id: 'd.id', where: { sql: 'd.project_id = ?', params: [...ids] }, ordered: true }
    : {
        from: 'issues d',
        id: 'd.id',
        where: { sql: `d.project_id in (${placeholders(ids)})`, params: [...ids] },
        ordered: false,
      };
}

/**
 * The set of other issues a leaf's condition is about (the other ends of links: `subtask of:
 * (query)`, `relates to: X-1`, `has: links`): `inner` is their condition on `i`, `readable` the
 * caller's read condition on them. Before a query is planned, each such set is planned like a
 * query of its own (`planNested`: its most selective index range first, every other condition
 * checked on those rows only) and `make` builds the leaf on that statement. The leaf's own probe
 * is the same condition on the set's statement unplanned (every issue tested).
 */
export type NestedSet = { inner: Condition; readable: Sql; make: (statement: Sql) => Leaf };

export type Leaf = { kind: 'leaf'; probe: Sql; driver?: Driver; nested?: NestedSet };
export type Condition =
  | Leaf
  | { kind: 'and' | 'or'; items: Condition[] }
  | { kind: 'not'; item: Condition }
  | { kind: 'true' }
  | { kind: 'false' };

export const TRUE: Condition = { kind: 'true' };
export const FALSE: Condition = { kind: 'false' };

export const leaf = (probe: Sql, driver?: Driver): Leaf =>
  driver ? { kind: 'leaf', probe, driver } : { kind: 'leaf', probe };

/** The ids of a nested set's issues, its condition unplanned: the fallback of `NestedSet`. */
export function unplannedSet(inner: Condition, readable: Sql): Sql {
  const condition = render(inner);
  return {
    sql: `select i.id from issues i where ${condition.sql} and ${readable.sql}`,
    params: [...condition.params, ...readable.params],
  };
}

/** The ids of a nested set's issues by its plan (`planQuery` of its condition and read condition). */
export function setStatement(plan: Plan): Sql {
  return { sql: `select i.id from ${plan.from} where ${plan.where.sql}`, params: plan.where.params };
}

/**
 * The condition with each nested set planned (innermost first) by `planSet`, which answers the
 * statement of the set's issue ids.
 */
export async function planNested(
  condition: Condition,
  planSet: (inner: Condition, readable: Sql) => Promise<Sql>,
): Promise<Condition> {
  switch (condition.kind) {
    case 'leaf': {
      const nested = condition.nested;
      if (!nested) return condition;
      return nested.make(await planSet(await planNested(nested.inner, planSet), nested.readable));
    }
    case 'and':
    case 'or': {
      const items = await Promise.all(condition.items.map((c) => planNested(c, planSet)));
      return condition.kind === 'and' ? and(items) : or(items);
    }
    case 'not':
      return not(await planNested(condition.item, planSet));
    default:
      return condition;
  }
}

export function and(items: Condition[]): Condition {
  const flat = items.flatMap((c) => (c.kind === 'and' ? c.items : [c])).filter((c) => c.kind !== 'true');
  if (flat.some((c) => c.kind === 'false')) return FALSE;
  if (flat.length === 0) return TRUE;
  return flat.length === 1 ? (flat[0] as Condition) : { kind: 'and', items: flat };
}

export function or(items: Condition[]): Condition {
  const flat = items.flatMap((c) => (c.kind === 'or' ? c.items : [c])).filter((c) => c.kind !== 'false');
  if (flat.some((c) => c.kind === 'true')) return TRUE;
  if (flat.length === 0) return FALSE;
  return flat.length === 1 ? (flat[0] as Condition) : { kind: 'or', items: flat };
}

export function not(item: Condition): Condition {
  if (item.kind === 'true') return FALSE;
  if (item.kind === 'false') return TRUE;
  if (item.kind === 'not') return item.item;
  return { kind: 'not', item };
}

/**
 * The condition as SQL on `i`. `probeAlternatives`: the `exists` probes under an OR are written so
 * that PostgreSQL probes them per issue (see `probedPerRow`), for a page's statement.
 */
export function render(condition: Condition, probeAlternatives = false, underOr = false): Sql {
  switch (condition.kind) {
    case 'true':
      return { sql: '1 = 1', params: [] };
    case 'false':
      return { sql: '1 = 0', params: [] };
    case 'leaf':
      return underOr && probeAlternatives ? probedPerRow(condition.probe) : condition.probe;
    case 'not': {
      const inner = render(condition.item, probeAlternatives, underOr);
      return { sql: `not (${inner.sql})`, params: inner.params };
    }
    case 'and':
    case 'or': {
      const nested = underOr || condition.kind === 'or';
      const parts = condition.items.map((c) => render(c, probeAlternatives, nested));
      return {
        sql: `(${parts.map((p) => p.sql).join(` ${condition.kind} `)})`,
        params: parts.flatMap((p) => p.params),
      };
    }
  }
}

/**
 * PostgreSQL turns an `exists` under an OR into a hashed sub-plan: before the first row it reads
 * every issue id the probe could match into a hash table. For a page that walks the issues in id
 * order and stops at its 50th match, that read is the whole cost: `(State: Open) or (State:
 * Fixed)` hashed 333,000 value rows at a million issues (137 ms) to walk 150 issues. `offset 0`
 * keeps the sub-query as written (PostgreSQL neither hashes nor flattens a sub-query with an
 * OFFSET): one index probe per issue walked. Counts keep the hashed form: they read every
 * matching issue, where one pass over the values is cheaper than a probe per issue.
 */
function probedPerRow(probe: Sql): Sql {
  if (!/^(not )?exists \(select /.test(probe.sql)) return probe;
  // Only a probe that is one sub-query, closed by its last character, takes the OFFSET inside it.
  if (closingParen(probe.sql, probe.sql.indexOf('(')) !== probe.sql.length - 1) return probe;
  return { sql: `${probe.sql.slice(0, -1)} offset 0)`, params: probe.params };
}

/** The index of the parenthesis that closes the one at `at` (the SQL we write quotes no parentheses). */
function closingParen(sql: string, at: number): number {
  let depth = 0;
  for (let k = at; k < sql.length; k++) {
    if (sql[k] === '(') depth++;
    else if (sql[k] === ')' && --depth === 0) return k;
  }
  return -1;
}

export type SortKey = {
  sql: Sql;
  direction: 'asc' | 'desc';
  /**
   * A column of `issues` (never null) whose index lists the issues by it, ties by id: a sorted
   * page may walk that index in the key's order instead of sorting every match (search-sorted.ts).
   */
  column?: 'created_at' | 'updated_at';
  /**
   * The key of a single-valued bundle field, as one condition per position its values take,
   * first position first: a sorted page may take the positions' matches one after another, stopping
   * once it has the page, instead of computing the key of every match (search-sorted.ts).
   */
  positions?: Condition[];
};

/**
 * The statement's FROM and WHERE, the driver chosen: `select … ${from} where ${where}`.
 * `driverOnly`: the same rows without the join to `issues`, when no condition needs more of the
 * issue row than its id (a global reader's counts: the driver's index range and index probes).
 */
export type Plan = {
  from: string;
  where: Sql;
  orderId: string;
  ordered: boolean;
  /**
   * Every row of the driver's range is a match (no other condition, a caller who reads every
   * issue): a page in the range's order reads exactly `skip + max` index entries.
   */
  walk?: boolean;
  driverOnly?: { from: string; where: Sql };
  /**
   * The count's own FROM and WHERE when it is cheaper than the page's (merged ranges, below): of
   * every issue, or of those whose ids lie in `slice` only (its ranges sliced), to split it.
   */
  count?: (slice?: IdSlice) => { from: string; where: Sql };
};

export type PlanOptions = {
  /**
   * SQLite (the default): the chosen driver is joined first (`cross join`: SQLite keeps that
   * order, whatever its own estimates say). Counts combine index ranges (see `mergedCount`):
   * intersections on SQLite, unions on both.
   */
  dialect?: 'sqlite' | 'postgresql';
  /** The plan serves a count: the page's order is not decided (no further estimate for it). */
  countOnly?: boolean;
};

/** The rendering of a condition that always holds. */
const TRIVIAL = render(TRUE).sql;

/**
 * Whether SQL refers to a column of `i` other than its id, or holds a statement of its own over
 * issues (a nested set's: its `i.id` is its own, and must not be renamed to the driver's column).
 */
const needsIssueRow = (sql: string) => /\bi\.(?!id\b)\w+/.test(sql) || /\bissues i\b/.test(sql);

/** Counts at most this many index entries per candidate driver: enough to rank them. */
export const ESTIMATE_LIMIT = 2000;
/**
 * When several ordered candidates reach `ESTIMATE_LIMIT` (at a million issues most conditions
 * do), those are counted again up to this bound to tell them apart: a page of `project: X by: u
 * word` (8 matches) walked project X's 50,000 issues with probes (100 ms) where the reporter's
 * 5,000 were the range to walk. The second count walks at most this many index entries each.
 */
export const REFINED_ESTIMATE_LIMIT = 25_000;

/** A bounded count of a driver's index range (`limit`: at most that many entries walked). */
export type Estimate = (driver: Driver, limit: number) => Promise<number>;

/**
 * Chooses the driver among the top-level AND's leaves: the one with the fewest rows (bounded
 * counts from `estimate`), preferring an ordered one unless an unordered one is small enough to
 * sort. `readable` is the permission condition on `i`, always part of the statement.
 */
export async function planQuery(
  condition: Condition,
  readable: Sql,
  estimate: Estimate,
  options: PlanOptions = {},
): Promise<Plan> {
  const sqlite = (options.dialect ?? 'sqlite') === 'sqlite';
  const items = condition.kind === 'and' ? condition.items : [condition];
  const all = items.filter((c): c is Leaf & { driver: Driver } => c.kind === 'leaf' && !!c.driver);
  const candidates = all.filter((c) => !c.driver.duplicates);
  let best: { item: Leaf & { driver: Driver }; rows: number } | undefined;
  let sized: Sized[] = [];
  let ranked: Sized[] = [];
  // One ordered driver is chosen whatever its size: nothing to rank, no estimate to run.
  const only = candidates.length === 1 ? candidates[0] : undefined;
  if (only?.driver.ordered && all.length === 1) best = { item: only, rows: 0 };
  else if (all.length > 0) {
    sized = await Promise.all(
      all.map(async (item) => ({ item, rows: await estimate(item.driver, ESTIMATE_LIMIT) })),
    );
    // PostgreSQL orders a count's joins itself: the finer ranking would only cost its counts
    // (13-31 ms for three values of 200,000 issues each at a million).
    ranked = !sqlite && options.countOnly ? sized : await refineTies(sized, estimate);
    for (const c of ranked) {
      if (c.item.driver.duplicates) continue;
      // An unordered driver needs its rows sorted: only worth it when it is small. A count sorts
      // nothing: on PostgreSQL the text documents of a frequent word are counted by themselves
      // (a bitmap of their index, `driverOnly`) instead of semi-joined to every issue (984 → 70 ms
      // for a word in 483,705 of a million issues, with the documents out of line, migration 0055).
      // SQLite's text range is ordered; its unordered ones (dates, several projects) keep the rule
      // in counts too (not measured otherwise).
      if (!c.item.driver.ordered && c.rows >= ESTIMATE_LIMIT && (sqlite || !options.countOnly)) continue;
      if (
        !best ||
        c.rows < best.rows ||
        (c.rows === best.rows && c.item.driver.ordered && !best.item.driver.ordered)
      )
        best = c;
    }
  }
  // Counts: several large ordered ranges (every estimate at its bound) are intersected by a merge
  // of the ranges, an OR of ordered ranges is their merged union.
  const merged = mergedCount(condition, sized, readable, sqlite);
  // PostgreSQL, given `order by i.id desc limit 50`, likes to walk the primary key backwards and
  // filter, betting that matches are dense: with a word no issue holds it walked all 1,000,000
  // issues (835 ms). When a measured condition has few rows (under the estimate bound), the order
  // is made one no index provides (`i.id + 0`): its rows are fetched by their own index and the
  // few of them sorted.
  // The same for an unsorted range on the issues themselves (a date range) that holds fewer than
  // `REFINED_ESTIMATE_LIMIT` rows when counted further: the 24,911 issues of a quarter, created at
  // old ids, made PostgreSQL walk nearly every issue backwards (136 ms at 1,000,000; fetched by
  // their own index and sorted instead).
  // A tied condition counted again under that second bound (`refineTies`) counts as few rows too.
  const fewRows =
    !sqlite &&
    // (at exactly the first bound a count was not taken further: it says nothing of the size).
    (ranked.some(
      (c) =>
        !c.item.driver.duplicates &&
        (c.rows < ESTIMATE_LIMIT || (c.rows > ESTIMATE_LIMIT && c.rows < REFINED_ESTIMATE_LIMIT)),
    ) ||
      (!options.countOnly && (await someSortable(sized, estimate))));
  const issueOrder = fewRows ? '(i.id + 0)' : 'i.id';
  // A driver on the issues themselves: PostgreSQL picks the index from its condition on `i` (its
  // statistics know how skewed a column is); SQLite's averages do not (`resolved_at is null` holds
  // half of the issues, its statistics say two), so there the measured driver is walked first and
  // joined to its own issue row.
  if (best?.item.driver.from === 'issues d' && !sqlite) best = undefined;
  const rest = render(and(items.filter((c) => c !== best?.item)), !sqlite && !options.countOnly);
  if (!best) {
    return {
      from: 'issues i',
      where: { sql: `${rest.sql} and ${readable.sql}`, params: [...rest.params, ...readable.params] },
      orderId: issueOrder,
      ordered: true,
      ...(merged ? { count: merged } : {}),
    };
  }
  const d = best.item.driver;
  const where = {
    sql: `${d.where.sql} and ${rest.sql} and ${readable.sql}`,
    params: [...d.where.params, ...rest.params, ...readable.params],
  };
  const driverOnly = needsIssueRow(`${d.where.sql} ${rest.sql} ${readable.sql}`)
    ? undefined
    : { from: d.from, where: { sql: where.sql.replace(/\bi\.id\b/g, d.id), params: where.params } };
  const orderId = d.ordered && !fewRows ? d.id : issueOrder;
  return {
    from: `${d.from} ${sqlite ? 'cross join' : 'join'} issues i on i.id = ${d.id}`,
    where,
    orderId,
    ordered: d.ordered,
    ...(orderId === d.id && rest.sql === TRIVIAL && readable.sql === TRIVIAL ? { walk: true } : {}),
    ...(driverOnly ? { driverOnly } : {}),
    ...(merged ? { count: merged } : {}),
  };
}

/**
 * The fewest rows of the top-level AND's index ranges, each counted up to `ESTIMATE_LIMIT`
 * (a bound on the matches), or undefined when no condition has a range.
 */
export async function fewestRows(condition: Condition, estimate: Estimate): Promise<number | undefined> {
  const items = condition.kind === 'and' ? condition.items : [condition];
  const drivers = items.flatMap((c) => (c.kind === 'leaf' && c.driver ? [c.driver] : []));
  if (drivers.length === 0) return undefined;
  return Math.min(...(await Promise.all(drivers.map((d) => estimate(d, ESTIMATE_LIMIT)))));
}

/** Issue ids from `from` to `to`, both included. */
export type IdSlice = { from: number; to: number };

type Sized = { item: Leaf & { driver: Driver }; rows: number };

/**
 * The candidates with the ordered ones that reached `ESTIMATE_LIMIT` counted again up to
 * `REFINED_ESTIMATE_LIMIT` when there are two or more of them (they tie at the bound otherwise);
 * `sized` itself keeps the first counts (the merged count's rule reads them).
 */
async function refineTies(sized: Sized[], estimate: Estimate): Promise<Sized[]> {
  const tied = sized.filter(
    (c) => c.item.driver.ordered && !c.item.driver.duplicates && c.rows >= ESTIMATE_LIMIT,
  );
  if (tied.length < 2) return sized;
  const refined = new Map(
    await Promise.all(
      tied.map(async (c) => [c, await estimate(c.item.driver, REFINED_ESTIMATE_LIMIT)] as const),
    ),
  );
  return sized.map((c) => ({ item: c.item, rows: refined.get(c) ?? c.rows }));
}

/** Whether an unordered range on the issues themselves counts under `REFINED_ESTIMATE_LIMIT` when counted further. */
async function someSortable(sized: Sized[], estimate: Estimate): Promise<boolean> {
  const ranges = sized.filter(
    (c) => !c.item.driver.ordered && c.item.driver.from === 'issues d' && c.rows >= ESTIMATE_LIMIT,
  );
  const counts = await Promise.all(ranges.map((c) => estimate(c.item.driver, REFINED_ESTIMATE_LIMIT)));
  return counts.some((n) => n < REFINED_ESTIMATE_LIMIT);
}

/** One ordered driver as a compound's arm: its issue ids, in id order (within `slice`, if any). */
const arm = (d: Driver, slice?: IdSlice): Sql =>
  slice
    ? {
        sql: `select ${d.id} as id from ${d.from} where ${d.where.sql} and ${d.id} between ? and ?`,
        params: [...d.where.params, slice.from, slice.to],
      }
    : { sql: `select ${d.id} as id from ${d.from} where ${d.where.sql}`, params: d.where.params };

/**
 * A count's FROM and WHERE over a combination of ordered index ranges (of every issue, or of a
 * slice of issue ids: each range is then walked over that slice only), or undefined when the
 * page's statement is as good. PostgreSQL runs a compound by hashing: its `union` replaces a walk
 * over every issue (1.5 s → 0.12 s for 33,397 of 100,000 issues), its `intersect` was no faster
 * than the probes (55-64 ms against 32-61 ms), so there only ORs are combined:
 *  - an AND whose ordered drivers are all large (each estimate reached its bound): the
 *    probe of every row of the smallest range would cost one index descent per row; the
 *    `intersect … order by 1` of the ranges is a single merge walk of them (SQLite's MERGE
 *    compound, no temporary index), and the other conditions are checked on its rows only;
 *  - an OR of conditions that are all ordered ranges: their `union … order by 1`, a merge as
 *    well, instead of a walk over every issue.
 * (`limit -1` keeps SQLite from dropping the compound's ORDER BY, which selects the merge.)
 */
function mergedCount(
  condition: Condition,
  sized: Sized[],
  readable: Sql,
  sqlite: boolean,
): ((slice?: IdSlice) => { from: string; where: Sql }) | undefined {
  let arms: Leaf[] = [];
  let operator = 'intersect';
  let rest: Condition = TRUE;
  const large = sized.filter((c) => c.item.driver.ordered && c.rows >= ESTIMATE_LIMIT);
  if (condition.kind === 'or' && condition.items.every((c) => c.kind === 'leaf' && c.driver?.ordered)) {
    arms = condition.items as Leaf[];
    operator = 'union';
  } else if (
    sqlite &&
    large.length >= 2 &&
    large.length === sized.filter((c) => c.item.driver.ordered).length
  ) {
    arms = large.map((c) => c.item);
    const items = condition.kind === 'and' ? condition.items : [condition];
    rest = and(items.filter((c) => !arms.includes(c as Leaf)));
  } else return undefined;
  const drivers = arms.map((a) => (a as Leaf & { driver: Driver }).driver);
  const r = render(rest);
  const where = { sql: `${r.sql} and ${readable.sql}`, params: [...r.params, ...readable.params] };
  const rowNeeded = needsIssueRow(where.sql);
  // Values of one single-valued field, each named once: no issue is in two arms.
  const disjoint =
    operator === 'union' &&
    drivers[0]?.disjointBy !== undefined &&
    drivers.every((d) => d.disjointBy === drivers[0]?.disjointBy) &&
    new Set(drivers.map((d) => JSON.stringify(d.where.params))).size === drivers.length;
  return (slice) => {
    const parts = drivers.map((d) => arm(d, slice));
    const compound = {
      sql: disjoint
        ? `(${parts.map((p) => p.sql).join(' union all ')}) m`
        : `(${parts.map((p) => p.sql).join(` ${operator} `)}${sqlite ? ' order by 1 limit -1' : ''}) m`,
      params: parts.flatMap((p) => p.params),
    };
    if (rowNeeded)
      return {
        from: `${compound.sql} ${sqlite ? 'cross join' : 'join'} issues i on i.id = m.id`,
        where: { ...where, params: [...compound.params, ...where.params] },
      };
    return {
      from: compound.sql,
      where: { sql: where.sql.replace(/\bi\.id\b/g, 'm.id'), params: [...compound.params, ...where.params] },
    };
  };
}

/** The statement of one page of ids: newest first (by id) unless the query sorts. */
export function pageStatement(plan: Plan, sort: SortKey[], skip: number, max: number): Sql {
  // A walk reads its ids off the driver's index alone: every entry is a match and the order is
  // the driver's, so joining each entry to its issue row (a page of 50 at offset 150: 200 row
  // lookups) would read nothing that is used.
  if (plan.walk && plan.driverOnly && sort.length === 0) {
    const { from, where } = plan.driverOnly;
    return {
      sql: `select ${plan.orderId} as id from ${from} where ${where.sql} order by ${plan.orderId} desc limit ? offset ?`,
      params: [...where.params, max, skip],
    };
  }
  const keys = sort.map((k) => `${k.sql.sql} ${k.direction} nulls last`);
  const order = [...keys, `${plan.orderId} desc`].join(', ');
  return {
    sql: `select i.id as id from ${plan.from} where ${plan.where.sql} order by ${order} limit ? offset ?`,
    params: [...plan.where.params, ...sort.flatMap((k) => k.sql.params), max, skip],
  };
}

export function countStatement(plan: Plan, slice?: IdSlice): Sql {
  const { from, where } = plan.count?.(slice) ?? plan.driverOnly ?? plan;
  return { sql: `select count(*) as n from ${from} where ${where.sql}`, params: where.params };
}

export function estimateStatement(driver: Driver, limit: number = ESTIMATE_LIMIT): Sql {
  const counted = {
    sql: `select count(*) as n from (select 1 from ${driver.from} where ${driver.where.sql} limit ${limit}) e`,
    params: driver.where.params,
  };
  const known = driver.atLeast?.(limit);
  if (!known) return counted;
  return {
    sql: `select case when ${known.sql} then ${limit} else (${counted.sql}) end as n`,
    params: [...known.params, ...counted.params],
  };
}

/** The estimates of several drivers in one statement (one round trip to a search worker). */
export function estimatesStatement(drivers: { driver: Driver; limit: number }[]): Sql {
  const parts = drivers.map((d) => estimateStatement(d.driver, d.limit));
  return {
    sql: `select ${parts.map((p, i) => `(${p.sql}) as n${i}`).join(', ')}`,
    params: parts.flatMap((p) => p.params),
  };
}
