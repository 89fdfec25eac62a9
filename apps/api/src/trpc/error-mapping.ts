import type { ErrorCode } from '@trackline/contracts';
import { DomainError, isUniqueViolation } from '@trackline/domain';
import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';

/** The one mapping from domain codes to transport codes; `satisfies` makes it exhaustive. */
export const TRPC_CODE_BY_ERROR = {
  VALIDATION_FAILED: 'BAD_REQUEST',
  UNAUTHENTICATED: 'UNAUTHORIZED',
  PERMISSION_DENIED: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  ALREADY_EXISTS: 'CONFLICT',
  CONFLICT: 'CONFLICT',
  INVALID_COMMAND: 'UNPROCESSABLE_CONTENT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  RATE_LIMITED: 'TOO_MANY_REQUESTS',
  INTERNAL: 'INTERNAL_SERVER_ERROR',
} as const satisfies Record<ErrorCode, TRPC_ERROR_CODE_KEY>;

export const HTTP_STATUS_BY_ERROR = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  CONFLICT: 409,
  INVALID_COMMAND: 422,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
} as const satisfies Record<ErrorCode, number>;

/** Domain code for a transport error that did not come from the domain (zod, routing...). */
export function errorCodeOf(error: TRPCError): ErrorCode {
  if (error.cause instanceof DomainError) return error.cause.code;
  switch (error.code) {
    case 'BAD_REQUEST':
    case 'PARSE_ERROR':
      return 'VALIDATION_FAILED';
    case 'UNAUTHORIZED':
      return 'UNAUTHENTICATED';
    case 'FORBIDDEN':
      return 'PERMISSION_DENIED';
    case 'NOT_FOUND':
    case 'METHOD_NOT_SUPPORTED':
      return 'NOT_FOUND';
    case 'CONFLICT':
      return 'CONFLICT';
    case 'PAYLOAD_TOO_LARGE':
      return 'PAYLOAD_TOO_LARGE';
    case 'UNSUPPORTED_MEDIA_TYPE':
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 'TOO_MANY_REQUESTS':
      return 'RATE_LIMITED';
    case 'UNPROCESSABLE_CONTENT':
      return 'INVALID_COMMAND';
    default:
      return 'INTERNAL';
  }
}

/** Turns what a procedure threw into the TRPCError both transports understand. */
export function toTrpcError(cause: unknown): TRPCError | null {
  if (cause instanceof DomainError) {
    return new TRPCError({ code: TRPC_CODE_BY_ERROR[cause.code], message: cause.message, cause });
  }
  if (isUniqueViolation(cause)) {
    const domain = new DomainError('ALREADY_EXISTS', 'An object with this name already exists.');
    return new TRPCError({ code: 'CONFLICT', message: domain.message, cause: domain });
  }
  return null;
}
