import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorCode } from '@trackline/contracts';
import { BUSY_RETRY_AFTER_SECONDS } from '@trackline/domain';
import { domainErrorOf, httpStatusOf } from '../trpc/error-mapping.js';
import { type Format, negotiate } from './negotiate.js';
import { renderXmlError } from './xml.js';

/** An error as every non-tRPC answer writes it: the legacy body plus our code and status. */
export type RestError = {
  status: number;
  code: ErrorCode;
  message: string;
  issues?: { field: string; message: string }[];
};

/**
 * A thrown value as a REST error: domain errors (and what `domainErrorOf` reads as one: a unique
 * violation, lock contention) by the error table, anything else (null too) a bare 500.
 */
export function restErrorOf(error: unknown): RestError {
  const domain = domainErrorOf(error);
  if (domain) {
    return {
      status: httpStatusOf(domain.code),
      code: domain.code,
      message: domain.message,
      ...(domain.issues ? { issues: domain.issues } : {}),
    };
  }
  return { status: 500, code: 'INTERNAL', message: 'Internal server error' };
}

/**
 * The one writer of error answers outside tRPC (`/rest` procedures, login, hooks, unknown
 * routes): XML `<error>message</error>`, or JSON `{value, code, status, issues?}` when the
 * request prefers JSON (`fallback` when it states no preference).
 */
export function writeRestError(
  req: IncomingMessage,
  res: ServerResponse,
  error: RestError,
  fallback: Format = 'xml',
): void {
  if (res.headersSent) return void res.end();
  if (error.status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="trackline", Bearer');
  if (error.code === 'BUSY') res.setHeader('Retry-After', String(BUSY_RETRY_AFTER_SECONDS));
  // A refused upload is not read to its end: close rather than drain it.
  if (error.status === 413) res.setHeader('Connection', 'close');
  const json = negotiate(req.headers.accept, fallback) === 'json';
  const body = json
    ? JSON.stringify({
        value: error.message,
        code: error.code,
        status: error.status,
        ...(error.issues ? { issues: error.issues } : {}),
      })
    : renderXmlError(error.message);
  res.statusCode = error.status;
  res.setHeader('Content-Type', json ? 'application/json;charset=UTF-8' : 'application/xml;charset=UTF-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
