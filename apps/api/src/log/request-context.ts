import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { SecurityLog } from './security-log.js';

/**
 * What every log line written while serving a request says about it. `user` and `route` are
 * filled in as the request is served (once the caller is known, once a route matched) for the
 * request's own line.
 */
export type RequestContext = {
  requestId: string;
  clientIp: string;
  security: SecurityLog;
  user?: string;
  /** The route's pattern (`/rest/issue/{issue}`), never the path's values or the query string. */
  route?: string;
};

/** The context of the request being served (none outside requests: the VCS worker, start-up). */
export const requestContext = new AsyncLocalStorage<RequestContext>();

/**
 * An incoming `X-Request-Id` (a proxy's or a client's, to follow one request across services) is
 * kept when it is one plain token of at most 128 characters; anything else (spaces, quotes,
 * control characters, several values) is replaced by a new UUID, so no caller writes arbitrary
 * text into the log through it.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:/+=@-]{1,128}$/;

export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
