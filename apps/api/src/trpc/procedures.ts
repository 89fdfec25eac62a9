import type { RouteMeta } from '@trackline/contracts';
import type { Actor } from '@trackline/domain';
import { DomainError } from '@trackline/domain';
import { requestContext } from '../log/request-context.js';
import { toTrpcError } from './error-mapping.js';
import { t } from './init.js';
import { findInputProblem } from './input-check.js';

/** The `{name}` parameters of each route path, found once per path. */
const pathParams = new Map<string, string[]>();
function pathParamsOf(path: string): string[] {
  let params = pathParams.get(path);
  if (!params) {
    params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
    pathParams.set(path, params);
  }
  return params;
}

/** Path segments reach us percent-encoded from the REST adapter; names may contain spaces. */
function decodePathParams(raw: unknown, path: string | undefined): unknown {
  if (!path || typeof raw !== 'object' || raw === null) return raw;
  const params = pathParamsOf(path);
  const copy: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const key of params) {
    const value = copy[key];
    if (typeof value !== 'string') continue;
    try {
      copy[key] = decodeURIComponent(value);
    } catch {
      // A stray '%' is taken literally.
    }
  }
  return copy;
}

/** Routes whose refusals go to the security log: administration and import. */
const ADMIN_ROUTE = /^\/(?:admin|import)\//;

/** A permission refusal on an administrative route is a security event (who, which route, why). */
function reportAdminRefusal(actor: Actor | null, meta: RouteMeta | undefined, cause: unknown) {
  const route = meta?.openapi;
  if (!actor || !route || !ADMIN_ROUTE.test(route.path)) return;
  if (!(cause instanceof DomainError) || cause.code !== 'PERMISSION_DENIED') return;
  requestContext
    .getStore()
    ?.security.accessDenied(actor.login, route.method, `/rest${route.path}`, cause.message);
}

/** Every procedure: domain errors become transport errors in one place; REST meta is recorded. */
const base = t.procedure.use(async ({ ctx, meta, next, getRawInput }) => {
  if (meta) ctx.response.meta = meta;
  const rawInput = async () => {
    const raw = await getRawInput();
    return ctx.transport === 'rest' && meta?.openapi?.path ? decodePathParams(raw, meta.openapi.path) : raw;
  };
  const problem = findInputProblem(await rawInput());
  if (problem) throw toTrpcError(problem);
  const result = await next({ getRawInput: rawInput });
  if (!result.ok) {
    reportAdminRefusal(ctx.actor, meta, result.error.cause);
    const mapped = toTrpcError(result.error.cause);
    if (mapped) throw mapped;
  }
  return result;
});

export const router = t.router;
export const publicProcedure = base;

/** Requires a caller; no or refused credentials are 401 on both transports. */
export const authedProcedure = base.use(({ ctx, next }) => {
  if (!ctx.actor)
    throw toTrpcError(DomainError.unauthenticated(ctx.authFailure ?? 'Authentication required.'));
  return next({ ctx: { ...ctx, actor: ctx.actor as Actor } });
});
