import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { type RequestContext, requestContext } from './request-context.js';

/**
 * One line per request, when it is answered: request id, method, route (the pattern, never the
 * query string, which may carry a password), status, duration, user and client address. Paths
 * no route serves are logged by their first segment only (a client chooses them).
 */
export function createRequestLog(logger: Logger) {
  // The line is built here from named fields that never hold a secret (the route is a pattern,
  // the query string is never read), so the logger's redaction, which walks every key of every
  // line for wildcard paths (3% of a computed read), is left off for it.
  const log = logger.child({ log: 'http' }, { redact: [] });
  return function track(req: IncomingMessage, res: ServerResponse, context: RequestContext): void {
    if (!log.isLevelEnabled('info')) return;
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const line = {
        requestId: context.requestId,
        method: req.method,
        route: context.route ?? unroutedPath(req.url),
        status: res.statusCode,
        durationMs: Math.round(durationMs * 100) / 100,
        ...(context.user ? { user: context.user } : {}),
        clientIp: context.clientIp,
      };
      if (res.statusCode >= 500) log.error(line, 'request failed');
      else log.info(line, 'request');
    });
  };
}

/** `/rest/…` or `/trpc/…`: where a request went that no route names. */
function unroutedPath(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0] ?? '/';
  const first = path.split('/')[1] ?? '';
  return first ? `/${first.slice(0, 40)}/…` : '/';
}

/** Errors with their request's context: what failed, for which request, route and user. */
export function createErrorLog(logger: Logger) {
  const log = logger.child({ log: 'error' });
  return (error: unknown): void => {
    const context = requestContext.getStore();
    log.error(
      {
        err: error,
        ...(context
          ? {
              requestId: context.requestId,
              route: context.route,
              user: context.user,
              clientIp: context.clientIp,
            }
          : {}),
      },
      error instanceof Error ? error.message : 'unexpected failure',
    );
  };
}
