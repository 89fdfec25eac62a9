import { type AttributeFilter, at } from '../../../query/query-parser.js';
import { parseIssueId } from '../../issue-id.js';
import { readableIssuesCondition, type Sql } from '../readable-issues.js';
import { type Condition, leaf, or, render } from '../search-plan.js';
import type { LinkPhrase } from '../search-vocabulary.js';
import { projectIds } from './lookups.js';
import { bad, type CompileScope, type Named, singleValueOf } from './scope.js';

/** Links: `relates to: X-1`, `subtask of: (query)`, `links: X-1`, `has: links`, `has: {depends on}`. */

/** The issue a link attribute names (`subtask of: CA-3`), as a statement of its id. */
export async function issueValues(
  scope: CompileScope,
  attribute: Named,
  filter: AttributeFilter,
): Promise<Sql> {
  const value = singleValueOf(filter, attribute);
  const parsed = parseIssueId(value.text);
  if (!parsed) throw bad(`${attribute.name} takes an issue id or a (query) ${at(value.text, value)}`, value);
  const [projectId] = await projectIds(scope, parsed.shortNameKey);
  if (projectId === undefined) throw bad(`Unknown issue ${at(value.text, value)}`, value);
  return {
    sql: 'select id from issues where project_id = ? and number_in_project = ?',
    params: [projectId, parsed.number],
  };
}

/** The linked issues of a `(query)`: the issues matching it, with their own permission condition. */
export function subquery(scope: CompileScope, condition: Condition): Sql {
  const rendered = render(condition);
  const readable = readableIssuesCondition(scope.actor, 'i') ?? { sql: '1 = 0', params: [] };
  // The linked issues' own statement, with its own permission condition (aliases are scoped).
  return {
    sql: `select i.id from issues i where ${rendered.sql} and ${readable.sql}`,
    params: [...rendered.params, ...readable.params],
  };
}

/** Every issue (`has: links`). */
export const ANY_ISSUE: Sql = { sql: 'select id from issues', params: [] };

/** Linked by one of `phrases` (any link type when undefined) to an issue of `targets`. */
export function linkedTo(phrases: LinkPhrase[] | undefined, targets: Sql): Condition {
  const conditions: Condition[] = [];
  const direction = (typeId: number | null, outward: boolean) => {
    const [self, other] = outward ? ['source_id', 'target_id'] : ['target_id', 'source_id'];
    const type = typeId === null ? '' : ' and l.type_id = ?';
    conditions.push(
      leaf({
        sql: `exists (select 1 from issue_links l where l.${self} = i.id${type} and l.${other} in (${targets.sql}))`,
        params: [...(typeId === null ? [] : [typeId]), ...targets.params],
      }),
    );
  };
  if (!phrases) {
    direction(null, true);
    direction(null, false);
  }
  for (const p of phrases ?? []) {
    direction(p.typeId, p.outward);
    if (p.symmetric) direction(p.typeId, !p.outward);
  }
  return or(conditions);
}
