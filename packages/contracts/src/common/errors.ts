import { z } from 'zod';

/**
 * The closed set of domain error codes. Every code has exactly one HTTP status
 * (see `apps/api/src/trpc/error-mapping.ts`, which is checked for exhaustiveness).
 */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'PERMISSION_DENIED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'CONFLICT',
  'INVALID_COMMAND',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'INTERNAL',
] as const;

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
