import type { Sql } from './readable-issues.js';
import {
  and,
  type Condition,
  ESTIMATE_LIMIT,
  type Estimate,
  fewestRows,
  not,
  or,
  type Plan,
  pageStatement,
  render,
  type SortKey,
  TRUE,
} from './search-plan.js';

/**
 * The first page of a sorted query without sorting every match. A sort computes its keys for
 * all matches before the first row comes out: `project: S03 #Unresolved sort by: Priority asc,
 * updated desc` keyed and sorted 25,000 issues at a million for a page of 50. Two shapes of sort
 * are taken apart instead:
 *  - a single-valued bundle field first (`SortKey.positions`): the page is the matches of its
 *    first position, then of the next, … then of no position (null keys sort last), each sorted by
 *    the keys that follow; it stops once it holds the page;
 *  - `created` or `updated` alone (`SortKey.column`): the matches are looked for in a window of
 *    the issues newest (or oldest) by that column, read off its index, and sorted there. The window
 *    holds the answer when it yields the page and the page's last row lies strictly inside it (an
 *    issue outside the window sorts after every issue inside, ties included); otherwise, and when
 *    a condition's own range is small (its matches are few: sorting them is cheap), the query's
 *    planned statement sorts every match as before.
 * Either way the rows and their order are those of the one sorted statement (`pageStatement`).
 */
export type SortedContext = {
  readable: Sql;
  /**
   * The issues of the projects the caller reads, as a range with a trivial probe, when it reads
   * only some: its size bounds the matches like a condition's (a window over every issue is no
   * use to a caller who reads a small project).
   */
  readableRange?: Condition;
  dialect: 'sqlite' | 'postgresql';
  /** The planned statement of a condition. */
  plan(condition: Condition): Promise<Plan>;
  estimate: Estimate;
  run(statement: Sql): Promise<unknown[][]>;
  /** Issues in the largest window (`SORT_WINDOW`; smaller in tests); the first is a tenth of it. */
  window: number;
  /** Tests: each statement's kind, in order (`window N` of N issues, `statement`). */
  trace?: string[];
};

/** The most issues a sorted page looks through by its key's index before sorting every match instead. */
export const SORT_WINDOW = 20_000;

/** The most positions of a bundle field taken one by one before the rest are sorted together. */
export const MAX_POSITION_STATEMENTS = 8;

/** Sorted pages deeper than this many rows are one sorted statement (with its offset). */
export const SORTED_PAGE_ROWS = 1000;

/** The first `need` ids of the matches of `condition` in the order of `sort` (then newest first). */
export async function sortedPageIds(
  ctx: SortedContext,
  condition: Condition,
  sort: SortKey[],
  need: number,
): Promise<number[]> {
  const [first, ...later] = sort;
  // Only the first key is taken apart by positions: the keys after it sort within each position.
  const rest = later.map(({ positions: _, ...key }) => key);
  if (first?.positions) {
    const positions = first.direction === 'asc' ? first.positions : [...first.positions].reverse();
    const ids: number[] = [];
    for (const [k, position] of positions.entries()) {
      // Past a few positions that did not fill the page (matches spread thinly over a long
      // bundle), the issues of the positions left are sorted by one statement.
      if (k === MAX_POSITION_STATEMENTS) {
        const left = and([condition, not(or(positions.slice(0, k)))]);
        return [
          ...ids,
          ...(await sortedPageIds(
            ctx,
            left,
            [{ ...first, positions: undefined }, ...rest],
            need - ids.length,
          )),
        ];
      }
      const part = and([condition, position]);
      if (part.kind !== 'false') ids.push(...(await sortedPageIds(ctx, part, rest, need - ids.length)));
      if (ids.length >= need) return ids;
    }
    // Then the issues with no position (a null key sorts last).
    const none = and([condition, not(or(first.positions))]);
    if (none.kind !== 'false') ids.push(...(await sortedPageIds(ctx, none, rest, need - ids.length)));
    return ids;
  }
  // A small window first: when matches are dense it holds the page, and its sort is short. Not
  // when a condition's range holds fewer issues than that window: sorting them is cheaper.
  const small = Math.ceil(ctx.window / 10);
  if (
    first?.column &&
    rest.length === 0 &&
    ((await fewestRows(and([condition, ctx.readableRange ?? TRUE]), ctx.estimate)) ?? small) >=
      Math.min(small, ESTIMATE_LIMIT)
  ) {
    for (const size of [small, ctx.window]) {
      ctx.trace?.push(`window ${size}`);
      const ids = await windowed(ctx, condition, first.column, first.direction, size, need);
      if (ids) return ids;
    }
  }
  ctx.trace?.push('statement');
  const rows = await ctx.run(pageStatement(await ctx.plan(condition), sort, 0, need));
  return rows.map((r) => Number(r[0]));
}

/** The page out of the window of `key`'s column, or undefined when the window cannot tell it. */
async function windowed(
  ctx: SortedContext,
  condition: Condition,
  c: NonNullable<SortKey['column']>,
  direction: SortKey['direction'],
  size: number,
  need: number,
): Promise<number[] | undefined> {
  const order = `d.${c} ${direction}`;
  // PostgreSQL: a probe under an OR per issue of the window, not a hash of all its values.
  const where = render(condition, ctx.dialect === 'postgresql');
  // Whether a row lies strictly inside the window: null when the window holds every issue.
  const inside = `i.${c} ${direction === 'desc' ? '>' : '<'} (select d.${c} from issues d order by ${order} limit 1 offset ${size - 1})`;
  const rows = await ctx.run({
    sql:
      // The window's rows are the issues themselves (one read of each), filtered and sorted.
      `select i.id, ${inside} as inside from (select * from issues d order by ${order} limit ${size}) i ` +
      `where ${where.sql} and ${ctx.readable.sql} ` +
      `order by i.${c} ${direction}, i.id desc limit ?`,
    params: [...where.params, ...ctx.readable.params, need],
  });
  const last = rows.at(-1)?.[1];
  const whole = rows.length > 0 && last === null;
  if (!whole && (rows.length < need || !(last === true || last === 1))) return undefined;
  return rows.map((r) => Number(r[0]));
}
