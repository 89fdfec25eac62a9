import { hasLoneSurrogates } from '@trackline/contracts';
import { DomainError } from '@trackline/domain';
import { DEFAULT_INPUT_LIMITS } from '../rest/request-body.js';

/**
 * Refuses, before any procedure runs, input that no field of this API may carry, walking every
 * string of it once. Iterative with an explicit stack: untrusted input nested 10,000 levels
 * deep must be a 400, not a stack overflow. Returns the first problem found, or null.
 *
 * - NUL characters: never meaningful here, and the SQLite driver would cut a parameter at one.
 * - ill-formed Unicode (a lone UTF-16 surrogate, from a JSON `\udfff` escape or an XML character
 *   reference): it cannot be stored faithfully nor put in a URL (`encodeURIComponent` throws), so
 *   it is refused here, in values and in parameter names, before anything is saved.
 * - nesting beyond `maxDepth` objects or arrays (the input object itself is level 1).
 */
const WELL_FORMED = 'must be well-formed Unicode (no lone surrogate)';

export function findInputProblem(
  input: unknown,
  maxDepth = DEFAULT_INPUT_LIMITS.maxDepth,
): DomainError | null {
  const pending: { value: unknown; path: string; depth: number }[] = [
    { value: input, path: 'input', depth: 1 },
  ];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, path, depth } = next;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return DomainError.invalid(path, 'must not contain NUL characters');
      if (hasLoneSurrogates(value)) return DomainError.invalid(path, WELL_FORMED);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > maxDepth)
      return DomainError.invalid(path, `nests objects or arrays deeper than ${maxDepth} levels`);
    // Pushed in reverse so that the first field (in input order) is reported first.
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i] as [string, unknown];
      if (hasLoneSurrogates(key)) return DomainError.invalid(path, `parameter names ${WELL_FORMED}`);
      const field = path === 'input' && !Array.isArray(value) ? key : `${path}.${key}`;
      pending.push({ value: item, path: field, depth: depth + 1 });
    }
  }
  return null;
}
