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

/** A value still to check; its path is spelled only when it has a problem (most never do). */
type Pending = { value: unknown; parent: Pending | null; key: string; depth: number };

function pathOf(node: Pending): string {
  const parent = node.parent;
  if (!parent) return 'input';
  // The input object's own fields are named alone (`summary`), deeper ones by their path.
  return parent.parent === null && !Array.isArray(parent.value) ? node.key : `${pathOf(parent)}.${node.key}`;
}

/** A string no field may carry: a NUL or a lone surrogate (`isWellFormed` is native and linear). */
const badString = (value: string) => value.includes('\u0000') || !value.isWellFormed();

/**
 * Whether the input holds anything `findInputProblem` would report, without building a record
 * per value (an import's 100 issues hold tens of thousands of strings and objects, almost never
 * a problem): values and their depths on two plain stacks. The paths are spelled only when it
 * answers yes, by the full walk.
 */
function mayHaveProblem(input: unknown, maxDepth: number): boolean {
  const values: unknown[] = [input];
  const depths: number[] = [1];
  while (values.length) {
    const value = values.pop();
    const depth = depths.pop() as number;
    if (typeof value === 'string') {
      if (badString(value)) return true;
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > maxDepth) return true;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (typeof item === 'string') {
          if (badString(item)) return true;
        } else if (typeof item === 'object' && item !== null) {
          values.push(item);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      if (!key.isWellFormed()) return true;
      const item: unknown = (value as Record<string, unknown>)[key];
      if (typeof item === 'string') {
        if (badString(item)) return true;
      } else if (typeof item === 'object' && item !== null) {
        values.push(item);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

export function findInputProblem(
  input: unknown,
  maxDepth = DEFAULT_INPUT_LIMITS.maxDepth,
): DomainError | null {
  if (!mayHaveProblem(input, maxDepth)) return null;
  const pending: Pending[] = [{ value: input, parent: null, key: '', depth: 1 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, depth } = next;
    if (typeof value === 'string') {
      if (value.includes('\u0000'))
        return DomainError.invalid(pathOf(next), 'must not contain NUL characters');
      if (hasLoneSurrogates(value)) return DomainError.invalid(pathOf(next), WELL_FORMED);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > maxDepth)
      return DomainError.invalid(pathOf(next), `nests objects or arrays deeper than ${maxDepth} levels`);
    // Pushed in reverse so that the first field (in input order) is reported first. Only
    // strings and objects need a visit (an import's 100 issues hold tens of thousands of values).
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        const item: unknown = value[i];
        if (typeof item === 'string' || (typeof item === 'object' && item !== null))
          pending.push({ value: item, parent: next, key: String(i), depth: depth + 1 });
      }
      continue;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      if (hasLoneSurrogates(key)) return DomainError.invalid(pathOf(next), `parameter names ${WELL_FORMED}`);
      const item: unknown = (value as Record<string, unknown>)[key];
      if (typeof item === 'string' || (typeof item === 'object' && item !== null))
        pending.push({ value: item, parent: next, key, depth: depth + 1 });
    }
  }
  return null;
}
