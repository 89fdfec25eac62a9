import type { RouteMeta } from '@trackline/contracts';
import type { OpenApiRouter } from 'trpc-to-openapi';
import {
  forEachOpenApiProcedure,
  getInputOutputParsers,
  getPathRegExp,
  instanceofZodTypeKind,
  instanceofZodTypeLikeVoid,
  instanceofZodTypeObject,
  instanceofZodTypeOptional,
  normalizePath,
  unwrapZodType,
} from 'trpc-to-openapi';
import { ZodArray } from 'zod';

export type Route = {
  method: string;
  path: string;
  meta: RouteMeta;
  /**
   * Parameters whose empty value means absent (`disableNotifications=`, `max=`): every one that
   * is not text. A text parameter keeps its empty value (`branches=` clears a list).
   */
  emptyMeansAbsent: ReadonlySet<string>;
  /** The procedure's dot path in the router (`roles.get`). */
  procedurePath: string;
  procedure: unknown;
  type: 'query' | 'mutation';
  /** No input at all (z.void()): nothing is assembled. */
  voidInput: boolean;
  /** Top-level members that are arrays: a single query value becomes a one-item array. */
  arrayKeys: ReadonlySet<string>;
};

export type MatchedRoute = { route: Route; pathInput: Record<string, string> };

type Schema = Parameters<typeof unwrapZodType>[0];

/** Whether an empty string is a value of this parameter's schema, not the absence of one. */
function takesText(member: Schema): boolean {
  const inner = unwrapZodType(member, false) as Schema & { _zod: { def: { in?: Schema } } };
  if (instanceofZodTypeKind(inner, 'pipe') && inner._zod.def.in) return takesText(inner._zod.def.in);
  return instanceofZodTypeKind(inner, 'string');
}

const isArray = (member: Schema) =>
  member instanceof ZodArray ||
  (instanceofZodTypeOptional(member) &&
    (member as unknown as { unwrap(): unknown }).unwrap() instanceof ZodArray);

/** The first segment of a normalized path, as the index keys it (patterns match case-insensitively). */
const firstSegment = (normalized: string) => {
  const end = normalized.indexOf('/', 1);
  return (end < 0 ? normalized.slice(1) : normalized.slice(1, end)).toLowerCase();
};

/**
 * The REST routes, matched as trpc-to-openapi matches them (first declared pattern of the
 * method wins), so that the REST bridge knows the route before reading a body. Indexed by
 * method and first path segment: a request tries only the patterns that can match it, in
 * declaration order.
 */
export function createRouteTable(router: OpenApiRouter) {
  const routes: (Route & { pattern: RegExp; order: number })[] = [];
  forEachOpenApiProcedure<RouteMeta>(
    router._def.procedures as Parameters<typeof forEachOpenApiProcedure>[0],
    ({ meta, procedure, path }) => {
      const type = (procedure as unknown as { _def: { type: string } })._def.type;
      if (type !== 'query' && type !== 'mutation') return;
      const { inputParser } = getInputOutputParsers(procedure);
      const input = unwrapZodType(inputParser as Schema, true);
      const shape = instanceofZodTypeObject(input) ? (input.shape as Record<string, Schema>) : {};
      routes.push({
        method: meta.openapi.method,
        path: meta.openapi.path,
        pattern: getPathRegExp(normalizePath(meta.openapi.path)),
        meta,
        emptyMeansAbsent: new Set(Object.keys(shape).filter((key) => !takesText(shape[key] as Schema))),
        procedurePath: path,
        procedure,
        type,
        voidInput: instanceofZodTypeLikeVoid(input),
        arrayKeys: new Set(Object.keys(shape).filter((key) => isArray(shape[key] as Schema))),
        order: routes.length,
      });
    },
  );
  // method -> first segment -> routes; patterns starting with a parameter are tried for any segment.
  const index = new Map<string, { bySegment: Map<string, typeof routes>; anySegment: typeof routes }>();
  for (const route of routes) {
    let byMethod = index.get(route.method);
    if (!byMethod) {
      byMethod = { bySegment: new Map(), anySegment: [] };
      index.set(route.method, byMethod);
    }
    const segment = firstSegment(normalizePath(route.path));
    if (segment.startsWith('{')) byMethod.anySegment.push(route);
    else byMethod.bySegment.set(segment, [...(byMethod.bySegment.get(segment) ?? []), route]);
  }
  const candidates = new Map<string, typeof routes>();
  function candidatesFor(method: string, segment: string): typeof routes {
    const key = `${method} ${segment}`;
    let found = candidates.get(key);
    if (!found) {
      const byMethod = index.get(method);
      found = byMethod
        ? [...(byMethod.bySegment.get(segment) ?? []), ...byMethod.anySegment].sort(
            (a, b) => a.order - b.order,
          )
        : [];
      // Segments are client-chosen: remember only those some pattern names.
      if (byMethod?.bySegment.has(segment) || candidates.size < 1000) candidates.set(key, found);
    }
    return found;
  }
  /** `path` is relative to `/rest` (`/issue/PRJ-1`); null when no procedure serves it. */
  function find(method: string, path: string): MatchedRoute | null {
    const normalized = normalizePath(path);
    for (const route of candidatesFor(method, firstSegment(normalized))) {
      const match = route.pattern.exec(normalized);
      if (match) return { route, pathInput: { ...(match.groups ?? {}) } };
    }
    return null;
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
