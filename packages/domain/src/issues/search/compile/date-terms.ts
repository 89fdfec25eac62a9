import type { AttributeFilter, Bound } from '../../../query/query-parser.js';
import { at } from '../../../query/query-parser.js';
import { dateInterval, type Interval } from '../search-dates.js';
import { type Condition, leaf } from '../search-plan.js';
import { bad, type CompileScope } from './scope.js';

/** Dates of the issue itself: `created:`, `updated:`, `resolved date:` (no read rule beyond the issue's). */

/** Open ends of date ranges: year 1 and 9999, which both databases store. */
const FIRST_STORABLE_MS = Date.parse('0001-01-01T00:00:00Z');
const LAST_STORABLE_MS = Date.parse('9999-12-31T00:00:00Z');

const COLUMNS = { created: 'created_at', updated: 'updated_at', resolved: 'resolved_at' } as const;

/** The issues whose date of `kind` lies in the filter's interval (the server's time zone). */
export function dateCondition(
  scope: CompileScope,
  kind: keyof typeof COLUMNS,
  filter: AttributeFilter,
): Condition {
  const column = COLUMNS[kind];
  const interval = intervalOf(scope, filter);
  const time = (ms: number) => (scope.dialect === 'sqlite' ? ms : new Date(ms));
  const where = (alias: string) => ({
    sql: `${alias}.${column} >= ? and ${alias}.${column} < ?`,
    params: [time(interval.from), time(interval.to)],
  });
  return leaf(where('i'), { from: 'issues d', id: 'd.id', where: where('d'), ordered: false });
}

function intervalOf(scope: CompileScope, filter: AttributeFilter): Interval {
  const one = (bound: Bound, end: 'from' | 'to'): number => {
    if ('open' in bound) return end === 'from' ? FIRST_STORABLE_MS : LAST_STORABLE_MS;
    const interval = dateInterval(bound.text, scope.context.now, scope.context.timeZone);
    if (!interval)
      throw bad(`Not a date ${at(bound.text, bound)}: use YYYY-MM-DD, Today, {This week}…`, bound);
    return interval[end];
  };
  if (filter.kind === 'value') return { from: one(filter.value, 'from'), to: one(filter.value, 'to') };
  if (filter.kind === 'range') return { from: one(filter.from, 'from'), to: one(filter.to, 'to') };
  throw bad('a date takes no (query)');
}
