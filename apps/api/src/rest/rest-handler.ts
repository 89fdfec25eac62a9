import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorCode, RouteMeta } from '@trackline/contracts';
import { DomainError } from '@trackline/domain';
import type { OpenApiRouter } from 'trpc-to-openapi';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import type { Context } from '../trpc/context.js';
import { createProcedureCaller, type Outcome } from './call-procedure.js';
import { CaptureResponse } from './capture-response.js';
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
import { scopeCoercionToRest, withRestCoercion } from './rest-coercion.js';
import { dropEmptyQueryValues, dropEmptyValues } from './route-table.js';
import { type CustomRenderer, renderXml } from './xml.js';

const CONTENT_TYPE: Record<Format, string> = {
  xml: 'application/xml;charset=UTF-8',
  json: 'application/json;charset=UTF-8',
};

export type RestHandlerOptions = {
  router: OpenApiRouter;
  /** Builds the per-request context (auth, EM fork); called once per request. */
  createContext: (req: IncomingMessage, res: ServerResponse) => Promise<Context>;
  customXml?: Record<string, CustomRenderer>;
  logError?: (error: unknown) => void;
  /** Parameters and nesting a request may carry; `DEFAULT_INPUT_LIMITS` when absent. */
  inputLimits?: InputLimits;
};

const contexts = new WeakMap<IncomingMessage, Context>();

export function createRestHandler(options: RestHandlerOptions) {
  const openApi = createOpenApiNodeHttpHandler({
    router: options.router,
    createContext: ({ req }) => {
      const ctx = contexts.get(req as IncomingMessage);
      if (!ctx) throw new Error('REST context missing');
      return ctx;
    },
    onError: ({ error }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') options.logError?.(error.cause ?? error);
    },
  });
  scopeCoercionToRest(options.router);
  const procedures = createProcedureCaller(options.router, (error) => {
    if (error.code === 'INTERNAL_SERVER_ERROR') options.logError?.(error.cause ?? error);
  });
  const limits = options.inputLimits ?? DEFAULT_INPUT_LIMITS;

  /** Serves `url` (known to start with `/rest/`). */
  return async function handleRest(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    let ctx: Context | undefined;
    let body: unknown;
    try {
      ctx = await options.createContext(req, res);
      contexts.set(req, ctx);
      const method = req.method ?? 'GET';
      const path = url.pathname.slice('/rest'.length);
      const matched = procedures.find(method, path);
      const route = matched?.route;
      if (route) ctx.response.meta = route.meta;
      if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
        // Every REST procedure needs a caller: without one, the body is neither read nor parsed.
        if (route && !ctx.actor)
          throw DomainError.unauthenticated(ctx.authFailure ?? 'Authentication required.');
        // trpc-to-openapi reads only a JSON body on these methods; legacy clients send query
        // parameters (and form or XML bodies), so everything is merged into one JSON input.
        const input = await readRequestInput(
          req,
          url.searchParams,
          limits,
          REST_BODY_LIMIT,
          route?.meta.xmlBody ? XML_BODY_READERS[route.meta.xmlBody] : undefined,
        );
        body = route ? dropEmptyValues(input, route) : input;
      } else if (countAtLeast(url.searchParams, limits.maxParameters + 1)) {
        throw tooManyParameters(limits.maxParameters);
      }
      if (route && matched) {
        const query =
          method !== 'POST' && method !== 'PUT' && method !== 'PATCH'
            ? new URLSearchParams(dropEmptyQueryValues(url.searchParams, route))
            : url.searchParams;
        const call = ctx;
        const outcome = await withRestCoercion(() => procedures.call(call, matched, query, body));
        writeOutcome(req, res, ctx, outcome, options.customXml ?? {});
        return;
      }
      // No procedure serves the path: the adapter answers (404, or 204 to HEAD) as before.
      req.url = url.pathname.slice('/rest'.length) + url.search;
      const capture = new CaptureResponse();
      const onClose = () => capture.emit('close');
      res.once('close', onClose);
      await withRestCoercion(() => openApi(req, capture as unknown as ServerResponse));
      await capture.done;
      res.off('close', onClose);
      const parsed: unknown = capture.body ? JSON.parse(capture.body) : undefined;
      const outcome: Outcome =
        capture.statusCode >= 400
          ? { ok: false, status: capture.statusCode, shape: parsed }
          : { ok: true, data: parsed };
      writeOutcome(req, res, ctx, outcome, options.customXml ?? {}, capture.statusCode);
    } catch (error) {
      if (!(error instanceof DomainError)) options.logError?.(error);
      const meta = ctx?.response.meta;
      writeRestError(req, res, restErrorOf(error), meta?.defaultFormat);
    }
  };
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

/** Writes what the procedure answered, once: JSON, legacy XML or text by the route's meta. */
function writeOutcome(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: Context,
  outcome: Outcome,
  customXml: Record<string, CustomRenderer>,
  okStatus = 200,
) {
  const meta = ctx.response.meta;
  if (!outcome.ok) {
    const shape = (outcome.shape ?? {}) as {
      message?: string;
      data?: { errorCode?: ErrorCode; issues?: RestError['issues'] };
    };
    const code = shape.data?.errorCode ?? 'INTERNAL';
    const issues = shape.data?.issues;
    // The adapter replaces zod messages with a generic one; name the fields instead.
    let message = issues?.length
      ? issues.map((i) => `${i.field}: ${i.message}`).join('; ')
      : (shape.message ?? 'Error');
    if (!meta && outcome.status === 404) message = `No resource at ${req.method} ${req.url?.split('?')[0]}.`;
    writeRestError(
      req,
      res,
      { status: outcome.status, code, message, ...(issues ? { issues } : {}) },
      meta?.defaultFormat,
    );
    return;
  }
  const parsed = outcome.data;
  const status = ctx.response.status ?? okStatus;
  const format = formatFor(req, meta);
  for (const [name, value] of Object.entries(ctx.response.headers)) res.setHeader(name, value);
  const shape = meta?.xml;
  let contentType: string;
  let body: string;
  if (format === 'json' || !shape) {
    contentType = CONTENT_TYPE.json;
    body = JSON.stringify(parsed ?? {});
  } else if (shape.kind === 'text') {
    contentType = 'text/plain;charset=UTF-8';
    body = String((parsed as Record<string, unknown>)[shape.field] ?? '');
  } else {
    contentType = CONTENT_TYPE.xml;
    body = renderXml(shape, parsed, customXml);
  }
  send(res, status, contentType, body);
}

function send(res: ServerResponse, status: number, contentType: string, body: string) {
  if (res.headersSent) return;
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
