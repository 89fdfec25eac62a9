import { DomainError } from '../errors.js';

/** What the contracts' zod schemas offer (the domain does not depend on zod itself). */
type Schema<T> = {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
};

/** Validates a host payload; the first problem becomes a 400 naming the field path. */
export function parsePayload<T>(schema: Schema<T>, json: unknown, format: string): T {
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  const path = issue?.path.length ? issue.path.map(String).join('.') : '(root)';
  throw DomainError.invalid('payload', `not a ${format} payload: ${path}: ${issue?.message ?? 'invalid'}`);
}
