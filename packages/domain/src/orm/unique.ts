import { UniqueConstraintViolationException } from '@mikro-orm/core';

export const isUniqueViolation = (error: unknown): boolean =>
  error instanceof UniqueConstraintViolationException;

/**
 * The one place where a unique index's verdict becomes domain behaviour. Runs `write`; when the
 * database refuses it with a unique violation (a concurrent writer passed the same pre-check),
 * `onDuplicate` decides the outcome: throw the site's "already exists" error (see
 * `rejectWith`), or return a value when a duplicate means "already done" (idempotent adds).
 * Any other error propagates unchanged.
 */
export async function onUniqueViolation<T, D = never>(
  write: () => Promise<T>,
  onDuplicate: () => D | Promise<D>,
): Promise<T | D> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) return onDuplicate();
    throw error;
  }
}

/** `onDuplicate` for creations: throw the site's own error (built lazily, at the moment of the clash). */
export const rejectWith =
  (makeError: () => Error): (() => never) =>
  () => {
    throw makeError();
  };
