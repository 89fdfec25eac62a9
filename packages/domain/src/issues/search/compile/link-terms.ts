import type { Dialect } from '../../../orm/open-orm.js';
import { type AttributeFilter, at } from '../../../query/query-parser.js';
import { parseIssueId } from '../../issue-id.js';
import { readableIssuesCondition, type Sql } from '../readable-issues.js';
import { type Condition, FALSE, type Leaf, leaf, render, TRUE, unplannedSet } from '../search-plan.js';
import type { LinkPhrase } from '../search-vocabulary.js';
import { projectIds } from './lookups.js';
import { bad, type CompileScope, type Named, singleValueOf } from './scope.js';

/**
 * Links: `relates to: X-1`, `subtask of: (query)`, `links: X-1`, `has: links`, `has: {depends on}`.
 *
 * The read rule of the family, in one place (`linkedTo`): a link counts only when the caller
 * reads the issue at its other end (its project, its own visibility group; an issue of a project
 * in the trash is read by nobody, root included), as the issue's link list shows it
 * (issues/issue-links.ts). Every link attribute goes through it, whatever names the other end: an
 * issue id, a (query), or any issue (`has:`). So `links: X-2` for an issue the caller cannot read
 * answers exactly like `links: X-99`, which does not exist.
 *
 * The other ends are a set planned like a query of its own (search-plan.ts, `NestedSet`): its most
 * selective index range first (`project: BIG`: the project's issues), then the link index gives
 * the issues linked to them, one set computed once per statement (a semi-join), which a page may
 * also start from when it is small. Before, each issue walked probed the links with the other
 * ends' list: `is required for: (Priority: Critical Type: Bug)` read 20,000 issues × 800 list
 * entries (3.6 s at 20,000 issues on SQLite).
 */

/** The issue a link attribute names (`subtask of: CA-3`), as a condition on the other end. */
export async function namedIssue(
  scope: CompileScope,
  attribute: Named,
  filter: AttributeFilter,
): Promise<Condition> {
  const value = singleValueOf(filter, attribute);
  const parsed = parseIssueId(value.text);
  if (!parsed) throw bad(`${attribute.name} takes an issue id or a (query) ${at(value.text, value)}`, value);
  const [projectId] = await projectIds(scope, parsed.shortNameKey);
  if (projectId === undefined) throw bad(`Unknown issue ${at(value.text, value)}`, value);
  return leaf({ sql: '(i.project_id = ? and i.number_in_project = ?)', params: [projectId, parsed.number] });
}

/** Any issue at the other end (`has: links`): the read rule alone. */
export const ANY_ISSUE: Condition = TRUE;

/**
 * Linked by one of `phrases` (any link type when undefined) to an issue matching `ends` (a
 * condition on the other end) that the caller reads.
 */
export function linkedTo(scope: CompileScope, phrases: LinkPhrase[] | undefined, ends: Condition): Condition {
  const readable = readableIssuesCondition(scope.actor, 'i');
  if (!readable || ends.kind === 'false') return FALSE;
  const directions = phrases
    ? phrases.flatMap((p) => [
        { typeId: p.typeId, outward: p.outward },
        ...(p.symmetric ? [{ typeId: p.typeId, outward: !p.outward }] : []),
      ])
    : [
        { typeId: null, outward: true },
        { typeId: null, outward: false },
      ];
  // Any issue for a caller who reads every issue (root, no project in the trash): any link counts.
  if (ends.kind === 'true' && readable.sql === EVERY_ISSUE)
    return linkedLeaf(scope.dialect, directions, null);
  const make = (statement: Sql): Leaf => linkedLeaf(scope.dialect, directions, statement);
  return { ...make(unplannedSet(ends, readable)), nested: { inner: ends, readable, make } };
}

/** The read condition of a caller who reads every issue. */
const EVERY_ISSUE = render(TRUE).sql;

type Direction = { typeId: number | null; outward: boolean };

/**
 * The issues linked in one of `directions` to an issue of `others` (a statement of issue ids;
 * null: to any issue).
 */
function linkedLeaf(dialect: Dialect, directions: Direction[], others: Sql | null): Leaf {
  const parts = directions.map(({ typeId, outward }) => {
    const [self, other] = outward ? ['source_id', 'target_id'] : ['target_id', 'source_id'];
    const conditions = [
      ...(typeId === null ? [] : ['l.type_id = ?']),
      ...(others ? [`l.${other} in (${others.sql})`] : []),
    ];
    return {
      sql: `select l.${self} from issue_links l${conditions.length ? ` where ${conditions.join(' and ')}` : ''}`,
      params: [...(typeId === null ? [] : [typeId]), ...(others?.params ?? [])],
    };
  });
  const linked = { sql: parts.map((p) => p.sql).join(' union all '), params: parts.flatMap((p) => p.params) };
  return leaf(
    // SQLite: `+i.id`, a membership test of each issue the statement reads in the set computed once,
    // never a lookup of the set's issues one by one in the order of the set.
    { sql: `${dialect === 'sqlite' ? '+' : ''}i.id in (${linked.sql})`, params: linked.params },
    // The set as a range a page may start from when it is small (then sorted); PostgreSQL plans
    // the semi-join itself.
    {
      from: 'issues d',
      id: 'd.id',
      where: { sql: `d.id in (${linked.sql})`, params: linked.params },
      ordered: false,
    },
  );
}
