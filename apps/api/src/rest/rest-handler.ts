import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouteMeta, XmlRendererName } from '@trackline/contracts';
import { DomainError } from '@trackline/domain';
import { requestContext } from '../log/request-context.js';
import type { Context } from '../trpc/context.js';
import { type RestError, restErrorOf, writeRestError } from './error-writer.js';
import { XML_BODY_READERS } from './import-xml.js';
import { type Format, negotiate } from './negotiate.js';
import {
  DEFAULT_INPUT_LIMITS,
  type InputLimits,
  REST_BODY_LIMIT,
  tooManyParameters,
} from './request-body.js';
import { readRequestInput } from './request-input.js';
import { createRouteTable, dropEmptyValues, queryInput } from './route-table.js';
import { type Outcome, type OutputChecks, runOperation } from './run-operation.js';
import { type CustomRenderer, renderXml } from './xml.js';

const CONTENT_TYPE: Record<Format, string> = {
  xml: 'application/xml;charset=UTF-8',
  json: 'application/json;charset=UTF-8',
};

export type RestHandlerOptions = {
  /** A router built with trpc/procedures.ts `router()`: its operations are the routes. */
  router: object;
  /** Builds the per-request context (auth, EM fork); called once per request. */
  createContext: (req: IncomingMessage, res: ServerResponse) => Promise<Context>;
  customXml?: Partial<Record<XmlRendererName, CustomRenderer>>;
  logError?: (error: unknown) => void;
  /** Parameters and nesting a request may carry; `DEFAULT_INPUT_LIMITS` when absent. */
  inputLimits?: InputLimits;
  /** Which outputs are checked against their schema (rest/run-operation.ts); `all` when absent. */
  outputChecks?: OutputChecks;
};

/**
 * `/rest`: one road for every request. The route (from the operations' OpenAPI meta) is found
 * before anything is read; a route that needs a caller refuses a request without one before its
 * body is read; the input is assembled (query, then JSON, form, multipart or XML body; path
 * parameters last), the operation runs (rest/run-operation.ts), and its output is written as
 * the route's meta says (legacy XML, JSON or text, by content negotiation).
 */
export function createRestHandler(options: RestHandlerOptions) {
  const routes = createRouteTable(options.router);
  const limits = options.inputLimits ?? DEFAULT_INPUT_LIMITS;
  const logError = options.logError ?? (() => {});
  const customXml = options.customXml ?? {};
  const outputChecks = options.outputChecks ?? 'all';

  /** Serves `url` (known to start with `/rest/`). */
  return async function handleRest(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    let meta: RouteMeta | undefined;
    try {
      const method = req.method ?? 'GET';
      const path = url.pathname.slice('/rest'.length);
      const matched = routes(method, path);
      if (!matched) return unrouted(req, res, method, path, routes.servesPath(path));
      const { route } = matched;
      const routeMeta = route.meta;
      meta = routeMeta;
      const ctx = await options.createContext(req, res);
      ctx.response.meta = routeMeta;
      const logged = requestContext.getStore();
      if (logged) logged.route = `/rest${route.path}`;
      let fields: Record<string, unknown>;
      if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
        // Every REST operation needs a caller: without one, the body is neither read nor parsed.
        if (route.operation.authed && !ctx.actor)
          throw DomainError.unauthenticated(ctx.authFailure ?? 'Authentication required.');
        // Legacy clients send query parameters (and form or XML bodies): all merged into one input.
        const input = await readRequestInput(
          req,
          url.searchParams,
          limits,
          REST_BODY_LIMIT,
          routeMeta.xmlBody ? XML_BODY_READERS[routeMeta.xmlBody] : undefined,
        );
        fields = dropEmptyValues(input, route);
      } else {
        if (countAtLeast(url.searchParams, limits.maxParameters + 1))
          throw tooManyParameters(limits.maxParameters);
        fields = queryInput(route, url.searchParams);
      }
      const outcome = await runOperation(ctx, matched, fields, logError, outputChecks);
      writeOutcome(req, res, ctx, outcome, customXml);
    } catch (error) {
      if (!(error instanceof DomainError)) logError(error);
      writeRestError(req, res, restErrorOf(error), meta?.defaultFormat);
    }
  };
}

/**
 * A path no operation serves with this method: 404 naming it (405 when another method serves
 * it); HEAD answers without a body.
 */
function unrouted(req: IncomingMessage, res: ServerResponse, method: string, path: string, served: boolean) {
  if (method === 'HEAD') {
    res.statusCode = served ? 200 : 404;
    res.setHeader('Content-Length', 0);
    res.end();
    return;
  }
  const error: RestError = served
    ? { status: 405, code: 'NOT_FOUND', message: `${method} is not allowed on ${path}.` }
    : { status: 404, code: 'NOT_FOUND', message: `No resource at ${method} ${path}.` };
  if (served) res.setHeader('Allow', 'GET, PUT, POST, DELETE');
  writeRestError(req, res, error);
}

/** Whether `params` holds at least `n` entries (stops counting there). */
function countAtLeast(params: URLSearchParams, n: number): boolean {
  let count = 0;
  for (const _ of params) if (++count >= n) return true;
  return false;
}

function formatFor(req: IncomingMessage, meta: RouteMeta | undefined): Format {
  return negotiate(req.headers.accept, meta?.defaultFormat ?? 'xml');
}

/** Writes what the operation answered, once: JSON, legacy XML or text by the route's meta. */
function writeOutcome(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: Context,
  outcome: Outcome,
  customXml: Partial<Record<XmlRendererName, CustomRenderer>>,
) {
  const meta = ctx.response.meta;
  if (!outcome.ok) return writeRestError(req, res, outcome.error, meta?.defaultFormat);
  const data = outcome.data;
  const status = ctx.response.status ?? 200;
  const format = formatFor(req, meta);
  for (const [name, value] of Object.entries(ctx.response.headers)) res.setHeader(name, value);
  const shape = meta?.xml;
  let contentType: string;
  let body: string;
  if (req.method === 'DELETE' && format === 'json' && isEmptyObject(data)) {
    // The original's deletes answer an empty body, not `{}` (pyutrack parses a JSON body when
    // there is one); those that answer something (a link type's sentence as `{"value": …}`, the
    // sessions ended) still do.
    contentType = CONTENT_TYPE.json;
    body = '';
  } else if (format === 'json' || !shape) {
    contentType = CONTENT_TYPE.json;
    body = JSON.stringify(data ?? {});
  } else if (shape.kind === 'text') {
    contentType = 'text/plain;charset=UTF-8';
    body = String((data as Record<string, unknown>)[shape.field] ?? '');
  } else {
    contentType = CONTENT_TYPE.xml;
    body = renderXml(shape, data, customXml);
  }
  send(res, status, contentType, body);
}

const isEmptyObject = (data: unknown) =>
  data === undefined ||
  data === null ||
  (typeof data === 'object' && !Array.isArray(data) && Object.keys(data).length === 0);

function send(res: ServerResponse, status: number, contentType: string, body: string) {
  if (res.headersSent) return;
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
