import type { RouteMeta } from '@trackline/contracts';
import type { Actor } from '@trackline/domain';
import { DomainError } from '@trackline/domain';
import type { z } from 'zod';
import { requestContext } from '../log/request-context.js';
import type { Context } from './context.js';
import { toTrpcError } from './error-mapping.js';
import { t } from './init.js';
import { findInputProblem } from './input-check.js';

/**
 * Every API operation is declared once, as `authedProcedure.meta(…).input(…).output(…).query(run)`
 * (or `.mutation`), and that one declaration serves both transports:
 * - `/trpc`: the chain builds a real tRPC procedure (so the router's type, and the typed
 *   client's inference, are tRPC's own);
 * - `/rest`: the same declaration is recorded as an `Operation` (meta, input, output, run),
 *   which the REST dispatch (rest/operations.ts) runs directly: no tRPC internals, no adapter.
 *
 * `router()` records, for each router it builds, its operations by dot path in declaration
 * order (REST routes match in that order). Both transports share the checks below.
 */
export type AuthedContext = Context & { actor: Actor };

export type Operation = {
  meta: RouteMeta;
  input: z.ZodType;
  output: z.ZodType;
  type: 'query' | 'mutation';
  /** Whether a caller is required (every operation of the app router; tests build public ones). */
  authed: boolean;
  /**
   * The output is built by our own code from typed rows (the legacy issue DTOs): `/rest` may skip
   * checking it against `output` (production), as tests and development never do. See `OutputChecks`.
   */
  trustedOutput: boolean;
  run: (opts: { ctx: AuthedContext; input: never }) => unknown;
};

const operationOf = new WeakMap<object, Operation>();
const operationsOfRouter = new WeakMap<object, ReadonlyMap<string, Operation>>();

/** The operations of a router built by `router()`, by dot path (`issues.get`), in declaration order. */
export function operationsOf(built: object): ReadonlyMap<string, Operation> {
  const found = operationsOfRouter.get(built);
  if (!found) throw new Error('not a router of this API (build it with router() from trpc/procedures.ts)');
  return found;
}

/** The checks every operation makes on both transports, before it runs. */
export function checkRawInput(raw: unknown): void {
  const problem = findInputProblem(raw);
  if (problem) throw problem;
}

/** An operation's caller, or 401 with the reason credentials were refused. */
export function requireActor(ctx: Context): AuthedContext {
  if (!ctx.actor) throw DomainError.unauthenticated(ctx.authFailure ?? 'Authentication required.');
  return ctx as AuthedContext;
}

/** Routes whose refusals go to the security log: administration and import. */
const ADMIN_ROUTE = /^\/(?:admin|import)\//;

/** A permission refusal on an administrative route is a security event (who, which route, why); both transports report it. */
export function reportAdminRefusal(actor: Actor | null, meta: RouteMeta | undefined, cause: unknown) {
  const route = meta?.openapi;
  if (!actor || !route || !ADMIN_ROUTE.test(route.path)) return;
  if (!(cause instanceof DomainError) || cause.code !== 'PERMISSION_DENIED') return;
  requestContext
    .getStore()
    ?.security.accessDenied(actor.login, route.method, `/rest${route.path}`, cause.message);
}

/** tRPC's side: the shared input check, and domain errors as transport errors in one place. */
const base = t.procedure.use(async ({ ctx, meta, next, getRawInput }) => {
  try {
    checkRawInput(await getRawInput());
  } catch (error) {
    throw toTrpcError(error) ?? error;
  }
  const result = await next();
  if (!result.ok) {
    reportAdminRefusal(ctx.actor, meta, result.error.cause);
    const mapped = toTrpcError(result.error.cause);
    if (mapped) throw mapped;
  }
  return result;
});

const authedBase = base.use(({ ctx, next }) => {
  try {
    return next({ ctx: requireActor(ctx) });
  } catch (error) {
    throw toTrpcError(error) ?? error;
  }
});

type Run<I extends z.ZodType, O extends z.ZodType, C> = (opts: {
  ctx: C;
  input: z.output<I>;
}) => z.input<O> | Promise<z.input<O>>;

/** `.meta(m).input(i).output(o).query(run)`: a tRPC procedure, recorded as an operation too. */
function builder<C>(procedure: typeof authedBase, authed: boolean) {
  const withMeta = (meta: RouteMeta) => ({
    input<I extends z.ZodType>(input: I) {
      const withInput = procedure.meta(meta).input(input);
      return {
        /**
         * `trusted`: the run builds its output from typed rows with our own code (no user
         * object passes through it as is), so in production `/rest` writes it without
         * re-checking it against the schema (rest/run-operation.ts). tRPC checks it always.
         */
        output<O extends z.ZodType>(output: O, options: { trusted?: boolean } = {}) {
          const withOutput = withInput.output(output);
          const record = <P extends object>(type: Operation['type'], run: Run<I, O, C>, built: P): P => {
            operationOf.set(built, {
              meta,
              input,
              output,
              type,
              authed,
              trustedOutput: options.trusted === true,
              run: run as unknown as Operation['run'],
            });
            return built;
          };
          return {
            query: (run: Run<I, O, C>) => record('query', run, withOutput.query(run as never)),
            mutation: (run: Run<I, O, C>) => record('mutation', run, withOutput.mutation(run as never)),
          };
        },
      };
    },
  });
  return {
    meta: withMeta,
    /** Without meta: served on `/trpc` only (no REST route). */
    input: <I extends z.ZodType>(input: I) => withMeta({}).input(input),
  };
}

/** An operation that needs a caller (every operation of the app router). */
export const authedProcedure = builder<AuthedContext>(authedBase, true);
/** An operation without a caller (tests of the pipelines). */
export const publicProcedure = builder<Context>(base as typeof authedBase, false);

/** tRPC's router, with the operations of every procedure and nested router recorded by path. */
export function router<T extends Parameters<typeof t.router>[0]>(record: T) {
  const built = t.router(record);
  const operations = new Map<string, Operation>();
  for (const [key, value] of Object.entries(record)) {
    const operation = operationOf.get(value as object);
    if (operation) {
      operations.set(key, operation);
      continue;
    }
    const nested = operationsOfRouter.get(value as object);
    if (!nested) throw new Error(`${key}: declare it with authedProcedure, or build it with router()`);
    for (const [path, op] of nested) operations.set(`${key}.${path}`, op);
  }
  operationsOfRouter.set(built, operations);
  return built;
}
