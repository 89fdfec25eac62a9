import type { AttributeFilter } from '../../../query/query-parser.js';
import { type Condition, leaf, or } from '../search-plan.js';
import { holds } from './field-terms.js';
import { userIds } from './lookups.js';
import { visibleComments } from './mark-terms.js';
import { type CompileScope, type Named, NOBODY, singleValueOf } from './scope.js';

/**
 * Users as attributes: reporter, commenter, `#me` / `#login`. The read rules of the family: a
 * commenter is found only through the comments the caller can see (`visibleComments`), and an
 * assignee through user fields the caller reads (field-terms.ts, `holds`).
 */

/** `reporter: login` (`by:`, `created by:`…). */
export async function reporterCondition(
  scope: CompileScope,
  attribute: Named,
  filter: AttributeFilter,
): Promise<Condition> {
  const ids = await userIds(scope, singleValueOf(filter, attribute));
  const id = ids[0] ?? NOBODY;
  return leaf(
    { sql: 'i.reporter_id = ?', params: [id] },
    { from: 'issues d', id: 'd.id', where: { sql: 'd.reporter_id = ?', params: [id] }, ordered: true },
  );
}

/** `commenter: login`: a comment by that user that the caller can see. */
export async function commenterCondition(
  scope: CompileScope,
  attribute: Named,
  filter: AttributeFilter,
): Promise<Condition> {
  const [id = NOBODY] = await userIds(scope, singleValueOf(filter, attribute));
  const visible = visibleComments(scope);
  return leaf({
    sql: `exists (select 1 from issue_comments c where c.issue_id = i.id and c.author_id = ? and ${visible.sql})`,
    params: [id, ...visible.params],
  });
}

/** `#me`, `#login`: issues the user reported or is assigned to (any user field). */
export function userMentioned(scope: CompileScope, userId: number): Condition {
  const userFields = [...scope.vocabulary.fields.values()].filter((f) => f.kinds.has('user'));
  const conditions: Condition[] = [leaf({ sql: 'i.reporter_id = ?', params: [userId] })];
  for (const field of userFields) conditions.push(holds(field, { sql: 'x.user_id = ?', params: [userId] }));
  return or(conditions);
}
