import type { RouteMeta } from '@trackline/contracts';
import { DomainError } from '@trackline/domain';
import { initTRPC } from '@trpc/server';
import type { Context } from './context.js';
import { errorCodeOf } from './error-mapping.js';
import { describeZodIssues, isZodError } from './zod-issues.js';

const production = process.env.NODE_ENV === 'production';

export const t = initTRPC
  .meta<RouteMeta>()
  .context<Context>()
  .create({
    errorFormatter({ shape, error, input }) {
      // Field issues from zod, or from a domain validation error (`DomainError.invalid`).
      const issues = isZodError(error.cause)
        ? describeZodIssues(error.cause, input)
        : error.cause instanceof DomainError
          ? error.cause.issues
          : undefined;
      const message = issues ? issues.map((i) => `${i.field}: ${i.message}`).join('; ') : shape.message;
      const internal = error.code === 'INTERNAL_SERVER_ERROR';
      return {
        ...shape,
        message: internal && production ? 'Internal server error' : message,
        data: {
          code: shape.data.code,
          httpStatus: shape.data.httpStatus,
          errorCode: errorCodeOf(error),
          ...(issues ? { issues } : {}),
          // Stack traces only in development, and never for expected errors.
          ...(!production && internal ? { stack: shape.data.stack } : {}),
        },
      };
    },
  });
