import { z } from 'zod';

/**
 * The one table of domain error codes: each code's HTTP status on `/rest`, and its tRPC code
 * on `/trpc` (whose own status table must agree; `apps/api/test/error-pipeline.test.ts`
 * checks every row against tRPC's). Adding a code here is the whole change: the transports
 * derive their mappings from this table.
 */
export const ERROR_TABLE = {
  VALIDATION_FAILED: { status: 400, trpc: 'BAD_REQUEST' },
  UNAUTHENTICATED: { status: 401, trpc: 'UNAUTHORIZED' },
  PERMISSION_DENIED: { status: 403, trpc: 'FORBIDDEN' },
  NOT_FOUND: { status: 404, trpc: 'NOT_FOUND' },
  ALREADY_EXISTS: { status: 409, trpc: 'CONFLICT' },
  CONFLICT: { status: 409, trpc: 'CONFLICT' },
  INVALID_COMMAND: { status: 422, trpc: 'UNPROCESSABLE_CONTENT' },
  PAYLOAD_TOO_LARGE: { status: 413, trpc: 'PAYLOAD_TOO_LARGE' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, trpc: 'UNSUPPORTED_MEDIA_TYPE' },
  RATE_LIMITED: { status: 429, trpc: 'TOO_MANY_REQUESTS' },
  /** Lock contention outlasted the retries of a transaction (`Retry-After` is set). */
  BUSY: { status: 503, trpc: 'SERVICE_UNAVAILABLE' },
  /** A search or count ran past the time budget (`TRACKLINE_SEARCH_BUDGET_MS`) and was stopped. */
  SEARCH_TIMEOUT: { status: 503, trpc: 'SERVICE_UNAVAILABLE' },
  INTERNAL: { status: 500, trpc: 'INTERNAL_SERVER_ERROR' },
} as const satisfies Record<string, { status: number; trpc: string }>;

/** The closed set of domain error codes, in the table's order. */
export const ERROR_CODES = Object.keys(ERROR_TABLE) as [
  keyof typeof ERROR_TABLE,
  ...(keyof typeof ERROR_TABLE)[],
];

export const ZErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ZErrorCode>;

/** JSON error body on `/rest`: the legacy `value` key carries the message. */
export const ZRestErrorBody = z.object({
  value: z.string(),
  code: ZErrorCode,
  status: z.number().int(),
  issues: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
export type RestErrorBody = z.infer<typeof ZRestErrorBody>;
