import type { RouteMeta } from '@trackline/contracts';
import type { OpenApiRouter } from 'trpc-to-openapi';
import {
  forEachOpenApiProcedure,
  getInputOutputParsers,
  getPathRegExp,
  instanceofZodTypeKind,
  instanceofZodTypeObject,
  normalizePath,
  unwrapZodType,
} from 'trpc-to-openapi';

export type Route = {
  method: string;
  path: string;
  meta: RouteMeta;
  /**
   * Parameters whose empty value means absent (`disableNotifications=`, `max=`): every one that
   * is not text. A text parameter keeps its empty value (`branches=` clears a list).
   */
  emptyMeansAbsent: ReadonlySet<string>;
};

type Schema = Parameters<typeof unwrapZodType>[0];

/** Whether an empty string is a value of this parameter's schema, not the absence of one. */
function takesText(member: Schema): boolean {
  const inner = unwrapZodType(member, false) as Schema & { _zod: { def: { in?: Schema } } };
  if (instanceofZodTypeKind(inner, 'pipe') && inner._zod.def.in) return takesText(inner._zod.def.in);
  return instanceofZodTypeKind(inner, 'string');
}

/**
 * The REST routes, matched as trpc-to-openapi matches them (first declared pattern of the
 * method wins), so that the REST bridge knows the route before reading a body.
 */
export function createRouteTable(router: OpenApiRouter) {
  const routes: (Route & { pattern: RegExp })[] = [];
  forEachOpenApiProcedure<RouteMeta>(
    router._def.procedures as Parameters<typeof forEachOpenApiProcedure>[0],
    ({ meta, procedure }) => {
      const { inputParser } = getInputOutputParsers(procedure);
      const input = unwrapZodType(inputParser as Schema, true);
      const shape = instanceofZodTypeObject(input) ? (input.shape as Record<string, Schema>) : {};
      routes.push({
        method: meta.openapi.method,
        path: meta.openapi.path,
        pattern: getPathRegExp(normalizePath(meta.openapi.path)),
        meta,
        emptyMeansAbsent: new Set(Object.keys(shape).filter((key) => !takesText(shape[key] as Schema))),
      });
    },
  );
  /** `path` is relative to `/rest` (`/issue/PRJ-1`); null when no procedure serves it. */
  function find(method: string, path: string): Route | null {
    const normalized = normalizePath(path);
    return routes.find((r) => r.method === method && r.pattern.test(normalized)) ?? null;
  }
  return Object.assign(find, { routes: routes as readonly Route[] });
}

/** `fields` without the empty values of parameters where empty means absent. */
export function dropEmptyValues<T extends Record<string, unknown>>(fields: T, route: Route): T {
  const kept = { ...fields };
  for (const key of route.emptyMeansAbsent) if (kept[key] === '') delete kept[key];
  return kept;
}

/** The same for a query string (GET and DELETE inputs are read from it). */
export function dropEmptyQueryValues(params: URLSearchParams, route: Route): string {
  const kept = new URLSearchParams();
  for (const [key, value] of params)
    if (value !== '' || !route.emptyMeansAbsent.has(key)) kept.append(key, value);
  const text = kept.toString();
  return text ? `?${text}` : '';
}
