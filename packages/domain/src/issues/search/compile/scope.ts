import type { Actor } from '../../../auth/actor.js';
import type { Em } from '../../../orm/em.js';
import type { Dialect } from '../../../orm/open-orm.js';
import { type AttributeFilter, at, type QueryValue, type Span } from '../../../query/query-parser.js';
import { queryError } from '../query-errors.js';
import type { SearchField, SearchVocabulary } from '../search-vocabulary.js';

export type SearchContext = { dialect: Dialect; timeZone: string; now: number };

/**
 * What every family of terms compiles with: the caller (whose read rules each family applies in
 * its own file), the names the caller may use, and the database the statement runs on.
 */
export type CompileScope = {
  em: Em;
  actor: Actor;
  vocabulary: SearchVocabulary;
  context: SearchContext;
  dialect: Dialect;
};

/** An attribute as written in the query (for messages naming it and its position). */
export type Named = Span & { name: string };

export const bad = (message: string, span?: Span) => queryError(message, span);

/** A user id no row has: a condition on it matches nothing. */
export const NOBODY = 0;

/** The single value of a filter (`attr: value`); a range is refused. */
export function singleValueOf(filter: AttributeFilter, attribute: Named): QueryValue {
  if (filter.kind !== 'value') throw bad(`${at(attribute.name, attribute)} takes no range`, attribute);
  return filter.value;
}

/** A field by its name or one of its prototype's aliases. */
export function fieldNamed(scope: CompileScope, key: string): SearchField | undefined {
  return scope.vocabulary.fields.get(key) ?? scope.vocabulary.aliases.get(key);
}
