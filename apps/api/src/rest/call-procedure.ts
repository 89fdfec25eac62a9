import { getTRPCErrorFromUnknown, TRPCError } from '@trpc/server';
import { getErrorShape, getParseFn } from '@trpc/server/unstable-core-do-not-import';
import type { OpenApiRouter } from 'trpc-to-openapi';
import type { Context } from '../trpc/context.js';
import { createRouteTable, type MatchedRoute, type Route } from './route-table.js';

/**
 * Calls the procedure a REST request addresses and hands its result to the writer as it is:
 * no JSON text between the procedure and the response (the adapter's `res.end(JSON.stringify)`
 * parsed back by the writer cost a stringify and a parse per answer). Routes are matched,
 * inputs assembled and errors shaped as trpc-to-openapi does (first declared pattern of the
 * method wins; query values single unless repeated, wrapped for array members; path
 * parameters last); string coercion is the REST-scoped one of `rest-coercion.ts`.
 */

/** What the procedure answered: its data, or an error with the adapter's status and shape. */
export type Outcome = { ok: true; data: unknown } | { ok: false; status: number; shape: unknown };

type ErrorStatus = Record<string, number>;
/** trpc-to-openapi's statuses for tRPC error codes (its `TRPC_ERROR_CODE_HTTP_STATUS`). */
const STATUS: ErrorStatus = {
  PARSE_ERROR: 400,
  BAD_REQUEST: 400,
  NOT_FOUND: 404,
  INTERNAL_SERVER_ERROR: 500,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  TIMEOUT: 408,
  CONFLICT: 409,
  CLIENT_CLOSED_REQUEST: 499,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  METHOD_NOT_SUPPORTED: 405,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  UNPROCESSABLE_CONTENT: 422,
  NOT_IMPLEMENTED: 501,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
  PAYMENT_REQUIRED: 402,
  PRECONDITION_REQUIRED: 428,
};

/** As the adapter: anything but a TRPCError is an internal error (the cause kept for the log). */
function errorOf(cause: unknown): TRPCError {
  if (cause instanceof TRPCError) return cause;
  return new TRPCError({
    code: 'INTERNAL_SERVER_ERROR',
    message: 'Internal server error',
    ...(cause instanceof Error ? { cause } : {}),
  });
}

/** A tRPC middleware as the procedure keeps them (`_def.middlewares`; the resolver is the last). */
type Middleware = (opts: CallOptions & { meta: unknown; next: Next }) => Promise<MiddlewareResult>;
type MiddlewareResult = { ok: true; data: unknown } | { ok: false; error: TRPCError };
type Next = (opts?: {
  ctx?: object;
  input?: unknown;
  getRawInput?: () => Promise<unknown>;
}) => Promise<MiddlewareResult>;
type CallOptions = {
  ctx: object;
  type: 'query' | 'mutation';
  path: string;
  input: unknown;
  getRawInput: () => Promise<unknown>;
  signal: undefined;
  batchIndex: number;
};

function middlewaresOf(procedure: unknown): { middlewares: Middleware[]; meta: unknown } {
  const def = (procedure as { _def?: { middlewares?: unknown; meta?: unknown; output?: unknown } })._def;
  const middlewares = def?.middlewares;
  if (!Array.isArray(middlewares) || !middlewares.every((m) => typeof m === 'function'))
    throw new Error('tRPC procedures no longer keep their middlewares in _def.middlewares');
  const isOutput = (m: unknown) => (m as { _type?: unknown })._type === 'output';
  const outputs = middlewares.filter(isOutput).length;
  const output = def?.output;
  return {
    middlewares:
      outputs === 1 && output
        ? middlewares.map((m) => (isOutput(m) ? nativeOutputMiddleware(getParseFn(output as never)) : m))
        : (middlewares as Middleware[]),
    meta: def?.meta,
  };
}

/**
 * tRPC's output validator (same parser, same result, same error) with a native spread: its own
 * copies the result with a property-by-property helper, 2% of a computed read.
 */
function nativeOutputMiddleware(parse: (value: unknown) => unknown): Middleware {
  return async ({ next }) => {
    const result = await next();
    if (!result.ok) return result;
    let data: unknown;
    try {
      data = await parse(result.data);
    } catch (cause) {
      throw new TRPCError({ message: 'Output validation failed', code: 'INTERNAL_SERVER_ERROR', cause });
    }
    return { ...result, data };
  };
}

/**
 * Runs a procedure's middleware chain as tRPC's own caller does (each `next` merges the
 * context and input it is given; a throw becomes an error result), with native object spreads:
 * tRPC's build copies the options with a property-by-property helper at every step, which was
 * a tenth of a computed read. Checked against `createCaller` by `call-procedure.test.ts`.
 */
async function runChain(
  chain: { middlewares: Middleware[]; meta: unknown },
  index: number,
  opts: CallOptions,
): Promise<MiddlewareResult> {
  const middleware = chain.middlewares[index];
  if (!middleware)
    return {
      ok: false,
      error: new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'No result from middlewares' }),
    };
  try {
    return await middleware({
      ...opts,
      meta: chain.meta,
      next: (next) =>
        runChain(chain, index + 1, {
          ...opts,
          ctx: next?.ctx ? { ...opts.ctx, ...next.ctx } : opts.ctx,
          input: next && 'input' in next ? next.input : opts.input,
          getRawInput: next?.getRawInput ?? opts.getRawInput,
        }),
    });
  } catch (cause) {
    return { ok: false, error: getTRPCErrorFromUnknown(cause) };
  }
}

export function createProcedureCaller(router: OpenApiRouter, onError: (error: TRPCError) => void) {
  const find = createRouteTable(router);
  const chains = new Map<Route, { middlewares: Middleware[]; meta: unknown }>();
  for (const route of find.routes) chains.set(route, middlewaresOf(route.procedure));

  /** The input of a GET/DELETE: query values, single unless repeated or an array member. */
  function queryInput(route: Route, query: URLSearchParams): Record<string, unknown> {
    const input: Record<string, unknown> = {};
    for (const [key, value] of query) {
      const seen = input[key];
      if (seen === undefined) input[key] = route.arrayKeys.has(key) ? [value] : value;
      else if (Array.isArray(seen)) seen.push(value);
      else input[key] = [seen, value];
    }
    return input;
  }

  async function call(
    ctx: Context,
    matched: MatchedRoute,
    query: URLSearchParams,
    body: unknown,
  ): Promise<Outcome> {
    const { route, pathInput } = matched;
    const withBody = route.method !== 'GET' && route.method !== 'DELETE';
    const input = route.voidInput
      ? undefined
      : { ...(withBody ? (body as Record<string, unknown>) : queryInput(route, query)), ...pathInput };
    try {
      const chain = chains.get(route);
      if (!chain) throw new Error(`No procedure for ${route.method} ${route.path}`);
      const result = await runChain(chain, 0, {
        ctx,
        type: route.type,
        path: route.procedurePath,
        input: undefined,
        getRawInput: async () => input,
        signal: undefined,
        batchIndex: 0,
      });
      if (!result.ok) throw result.error;
      return { ok: true, data: result.data };
    } catch (cause) {
      const error = errorOf(cause);
      onError(error);
      const shape = getErrorShape({
        config: (router as unknown as { _def: { _config: Parameters<typeof getErrorShape>[0]['config'] } })
          ._def._config,
        error,
        type: route.type,
        path: route.procedurePath,
        input,
        ctx,
      });
      // As the adapter: zod failures say so (our error formatter lists the fields in `data.issues`).
      const zod =
        error.code === 'BAD_REQUEST' && error.cause instanceof Error && error.cause.name === 'ZodError';
      const message = zod
        ? 'Input validation failed'
        : ((shape as { message?: string }).message ?? error.message);
      return { ok: false, status: STATUS[error.code] ?? 500, shape: { ...(shape as object), message } };
    }
  }

  return { find, call };
}
