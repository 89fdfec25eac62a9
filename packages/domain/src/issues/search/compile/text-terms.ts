import type { AttributeFilter } from '../../../query/query-parser.js';
import { type Condition, leaf, TRUE } from '../search-plan.js';
import { type TextColumn, textLeaf, textPart } from '../search-text.js';
import { type CompileScope, type Named, singleValueOf } from './scope.js';

/**
 * Words: in the summary, the description or the comments. The read rule of the family is the
 * index's own: only comments every reader of the issue can see are indexed (search-text.ts).
 */

/** `summary: word`, `description: {two words}`, `comments: word`. */
export function textIn(
  scope: CompileScope,
  column: TextColumn,
  attribute: Named,
  filter: AttributeFilter,
): Condition {
  const value = singleValueOf(filter, attribute);
  const part = textPart(value.text, value.braced);
  return part ? textLeaf(scope.dialect, [part], column) : TRUE;
}

/** `has: description`. */
export function hasDescription(): Condition {
  return leaf({ sql: "i.description <> ''", params: [] });
}
