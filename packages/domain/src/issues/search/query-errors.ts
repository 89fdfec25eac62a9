import { DomainError } from '../../errors.js';
import type { Span } from '../../query/query-parser.js';

/** Where in the query a search error stands (for underlining), kept beside the error. */
const spans = new WeakMap<object, Span>();

/** VALIDATION_FAILED on `query`, remembering the span it names. */
export function queryError(message: string, span?: Span): DomainError {
  const error = DomainError.invalid('query', message);
  if (span) spans.set(error, span);
  return error;
}

export function querySpanOf(error: unknown): Span | undefined {
  return typeof error === 'object' && error !== null ? spans.get(error) : undefined;
}
