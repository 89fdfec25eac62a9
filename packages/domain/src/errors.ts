import type { ErrorCode } from '@trackline/contracts';

export type FieldIssue = { field: string; message: string };

/** The one error type the domain throws. The API maps `code` to a status in one table. */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: FieldIssue[],
  ) {
    super(message);
  }

  static notFound(kind: string, key: string): DomainError {
    return new DomainError('NOT_FOUND', `${kind} [ ${key} ] not found.`);
  }
  static alreadyExists(kind: string, key: string): DomainError {
    return new DomainError('ALREADY_EXISTS', `${kind} [ ${key} ] already exists.`);
  }
  static invalid(field: string, message: string): DomainError {
    return new DomainError('VALIDATION_FAILED', `${field}: ${message}`, [{ field, message }]);
  }
  static forbidden(what: string): DomainError {
    return new DomainError('PERMISSION_DENIED', `You have no rights to ${what}.`);
  }
  static unauthenticated(message = 'Authentication required.'): DomainError {
    return new DomainError('UNAUTHENTICATED', message);
  }
}
