import type { RouteMeta } from '@trackline/contracts';
import { TRPCError } from '@trpc/server';
import { getErrorShape } from '@trpc/server/unstable-core-do-not-import';
import {
  forEachOpenApiProcedure,
  getInputOutputParsers,
  getPathRegExp,
  instanceofZodTypeLikeVoid,
  instanceofZodTypeObject,
  instanceofZodTypeOptional,
  normalizePath,
  type OpenApiRouter,
  unwrapZodType,
} from 'trpc-to-openapi';
import { ZodArray } from 'zod';
import type { Context } from '../trpc/context.js';

/**
 * Calls the procedure a REST request addresses and hands its result to the writer as it is:
 * no JSON text between the procedure and the response (the adapter's `res.end(JSON.stringify)`
 * parsed back by the writer cost a stringify and a parse per answer). Routes are matched,
 * inputs assembled and errors shaped as trpc-to-openapi does (first declared pattern of the
 * method wins; query values single unless repeated, wrapped for array members; path
 * parameters last); string coercion is the REST-scoped one of `rest-coercion.ts`.
 */

type Route = {
  method: string;
  pattern: RegExp;
  meta: RouteMeta;
  /** The procedure's dot path in the router (`roles.get`). */
  path: string;
  type: 'query' | 'mutation';
  /** No input at all (z.void()): nothing is assembled. */
  voidInput: boolean;
  /** Top-level members that are arrays: a single query value becomes a one-item array. */
  arrayKeys: ReadonlySet<string>;
};

export type Matched = { route: Route; pathInput: Record<string, string> };

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

type Caller = Record<string, unknown>;
type AnyRouter = OpenApiRouter & { createCaller(ctx: Context): Caller };
type Parser = Parameters<typeof unwrapZodType>[0];

export function createProcedureCaller(router: OpenApiRouter, onError: (error: TRPCError) => void) {
  const routes: Route[] = [];
  forEachOpenApiProcedure<RouteMeta>(
    router._def.procedures as Parameters<typeof forEachOpenApiProcedure>[0],
    ({ path, procedure, meta }) => {
      const type = (procedure as unknown as { _def: { type: string } })._def.type;
      if (type !== 'query' && type !== 'mutation') return;
      const { inputParser } = getInputOutputParsers(procedure);
      const schema = unwrapZodType(inputParser as Parser, true);
      const arrayKeys = new Set<string>();
      if (instanceofZodTypeObject(schema)) {
        for (const [key, member] of Object.entries(
          (schema as unknown as { shape: Record<string, unknown> }).shape,
        )) {
          const inner = instanceofZodTypeOptional(member as Parser)
            ? (member as unknown as { unwrap(): unknown }).unwrap()
            : member;
          if (member instanceof ZodArray || inner instanceof ZodArray) arrayKeys.add(key);
        }
      }
      routes.push({
        method: meta.openapi.method,
        pattern: getPathRegExp(normalizePath(meta.openapi.path)),
        meta,
        path,
        type,
        voidInput: instanceofZodTypeLikeVoid(schema),
        arrayKeys,
      });
    },
  );

  /** The route serving `method path` (`path` relative to `/rest`), or null. */
  function find(method: string, path: string): Matched | null {
    const normalized = normalizePath(path);
    for (const route of routes) {
      if (route.method !== method) continue;
      const match = route.pattern.exec(normalized);
      if (match) return { route, pathInput: { ...(match.groups ?? {}) } };
    }
    return null;
  }

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
    matched: Matched,
    query: URLSearchParams,
    body: unknown,
  ): Promise<Outcome> {
    const { route, pathInput } = matched;
    const withBody = route.method !== 'GET' && route.method !== 'DELETE';
    const input = route.voidInput
      ? undefined
      : { ...(withBody ? (body as Record<string, unknown>) : queryInput(route, query)), ...pathInput };
    try {
      const caller = (router as AnyRouter).createCaller(ctx);
      const procedure = route.path.split('.').reduce<unknown>((at, key) => (at as Caller)[key], caller);
      return { ok: true, data: await (procedure as (input: unknown) => Promise<unknown>)(input) };
    } catch (cause) {
      const error = errorOf(cause);
      onError(error);
      const shape = getErrorShape({
        config: (router as unknown as { _def: { _config: Parameters<typeof getErrorShape>[0]['config'] } })
          ._def._config,
        error,
        type: route.type,
        path: route.path,
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
