import type { ZodError } from 'zod';

export type FieldIssue = { field: string; message: string };

export const isZodError = (value: unknown): value is ZodError =>
  value instanceof Error && value.name === 'ZodError' && Array.isArray((value as ZodError).issues);

/** One readable line per problem, naming the field: `startingNumber: must be at least 1`. */
export function describeZodIssues(error: ZodError): FieldIssue[] {
  return error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : 'input';
    if (issue.code === 'invalid_type' && issue.input === undefined) return { field, message: 'is required' };
    if (issue.code === 'invalid_type') return { field, message: `expected ${issue.expected}` };
    if (issue.code === 'unrecognized_keys')
      return { field: issue.keys.join(', '), message: 'unknown parameter' };
    return { field, message: issue.message };
  });
}
