import { UniqueConstraintViolationException } from '@mikro-orm/core';

export const isUniqueViolation = (error: unknown): boolean =>
  error instanceof UniqueConstraintViolationException;
