import type { RouteMeta } from '@trackline/contracts';
import type { OpenApiRouter } from 'trpc-to-openapi';
import { forEachOpenApiProcedure, getPathRegExp, normalizePath } from 'trpc-to-openapi';

/**
 * The REST route a request addresses, matched as trpc-to-openapi matches it (first declared
 * pattern of the method wins), so that the REST bridge knows the route before reading a body.
 */
export function createRouteTable(router: OpenApiRouter) {
  const routes: { method: string; pattern: RegExp; meta: RouteMeta }[] = [];
  forEachOpenApiProcedure<RouteMeta>(
    router._def.procedures as Parameters<typeof forEachOpenApiProcedure>[0],
    ({ meta }) => {
      routes.push({
        method: meta.openapi.method,
        pattern: getPathRegExp(normalizePath(meta.openapi.path)),
        meta,
      });
    },
  );
  /** `path` is relative to `/rest` (`/issue/PRJ-1`); null when no procedure serves it. */
  return function find(method: string, path: string): RouteMeta | null {
    const normalized = normalizePath(path);
    return routes.find((r) => r.method === method && r.pattern.test(normalized))?.meta ?? null;
  };
}
