import { ERROR_TABLE, type ErrorCode } from '@trackline/contracts';
import { busyError, DomainError, isContention, isUniqueViolation } from '@trackline/domain';
import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';

// The contracts' table names tRPC codes as strings; this line proves each one is a real code.
const TABLE: Record<ErrorCode, { status: number; trpc: TRPC_ERROR_CODE_KEY }> = ERROR_TABLE;

/** The HTTP status of a domain error code on `/rest` (and, by the table test, on `/trpc`). */
export const httpStatusOf = (code: ErrorCode): number => TABLE[code].status;

/**
 * Transport codes that no domain code produces but routing and parsing do. Everything else is
 * the table read backwards (the later row wins, so a bare tRPC `CONFLICT` stays `CONFLICT`).
 */
const REVERSE: Partial<Record<TRPC_ERROR_CODE_KEY, ErrorCode>> = {
  ...Object.fromEntries(Object.entries(TABLE).map(([code, row]) => [row.trpc, code as ErrorCode])),
  PARSE_ERROR: 'VALIDATION_FAILED',
  METHOD_NOT_SUPPORTED: 'NOT_FOUND',
};

/** Domain code for a transport error (from the domain, or from zod, routing, parsing). */
export function errorCodeOf(error: TRPCError): ErrorCode {
  if (error.cause instanceof DomainError) return error.cause.code;
  return REVERSE[error.code] ?? 'INTERNAL';
}

/**
 * What an operation threw, as the domain error both transports answer with, or null for an
 * unexpected failure (a 500, logged). A unique-index violation is the safety net for a write
 * that did not go through `insertOrReportExisting`: two racing writers of one name still get
 * 409, never 500. Lock contention that reached here (a write outside `inTransaction`, say a
 * flush of the unit of work that waited past the timeout) is 503 BUSY with `Retry-After`.
 */
export function domainErrorOf(cause: unknown): DomainError | null {
  if (cause instanceof DomainError) return cause;
  if (isContention(cause)) return busyError();
  if (isUniqueViolation(cause))
    return new DomainError('ALREADY_EXISTS', 'An object with this name already exists.');
  return null;
}

/** Turns what a procedure threw into the TRPCError `/trpc` answers with (null: unexpected). */
export function toTrpcError(cause: unknown): TRPCError | null {
  const domain = domainErrorOf(cause);
  return domain
    ? new TRPCError({ code: TABLE[domain.code].trpc, message: domain.message, cause: domain })
    : null;
}
