import type { ZodError } from 'zod';

export type FieldIssue = { field: string; message: string };

export const isZodError = (value: unknown): value is ZodError =>
  value instanceof Error && value.name === 'ZodError' && Array.isArray((value as ZodError).issues);

/** The raw value at `path` (zod 4 leaves `input` out of issues unless asked to report it). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * One readable line per problem, naming the field: `startingNumber: must be at least 1`.
 * `input` is the raw input, used to tell a missing value from one of the wrong type.
 */
export function describeZodIssues(error: ZodError, input?: unknown): FieldIssue[] {
  return error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : 'input';
    if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) {
      return { field, message: 'is required' };
    }
    // A message given in the contract (`.int('must be a whole number')`) wins over zod's default.
    if (issue.code === 'invalid_type' && !issue.message.startsWith('Invalid input')) {
      return { field, message: issue.message };
    }
    if (issue.code === 'invalid_type') return { field, message: `expected ${issue.expected}` };
    if (issue.code === 'unrecognized_keys')
      return { field: issue.keys.join(', '), message: 'unknown parameter' };
    return { field, message: issue.message };
  });
}
