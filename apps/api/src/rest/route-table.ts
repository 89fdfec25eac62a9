import { inputAsIsOf, type RouteMeta } from '@trackline/contracts';
import { getPathRegExp, normalizePath } from 'trpc-to-openapi';
import { z } from 'zod';
import { type Operation, operationsOf } from '../trpc/procedures.js';

/**
 * The REST routes: each operation of the router (trpc/procedures.ts) whose meta names a method
 * and path, matched as the OpenAPI mapping declares them (first declared pattern of the method
 * wins; patterns match case-insensitively), indexed by method and first path segment so a
 * request tries only the patterns that can match it. Everything a request needs of its route
 * (which parameters are text, which are lists, how strings become numbers) is worked out here,
 * once, from the contracts' zod schemas through zod's public API.
 */
export type Route = {
  method: string;
  path: string;
  meta: RouteMeta;
  /** The operation's dot path in the router (`roles.get`). */
  procedurePath: string;
  operation: Operation;
  /**
   * Parameters whose empty value means absent (`disableNotifications=`, `max=`): every one that
   * is not text. A text parameter keeps its empty value (`branches=` clears a list).
   */
  emptyMeansAbsent: ReadonlySet<string>;
  /**
   * The same for a read's query (GET, DELETE), where every parameter is a filter or an option:
   * also each optional text parameter (`group=`, `role=`, `q=`: an empty filter is no filter, as
   * the original read them and as pyutrack sends every filter of `GET /admin/user`). A required
   * one keeps its empty value for the schema to judge.
   */
  emptyMeansAbsentInQuery: ReadonlySet<string>;
  /** No input at all (z.void()): nothing is assembled. */
  voidInput: boolean;
  /** Top-level members that are arrays: a single query value becomes a one-item array. */
  arrayKeys: ReadonlySet<string>;
  /** The input as REST sends it (strings) made what the schema takes: numbers, then the schema's own parse. */
  parseInput: (raw: unknown) => z.ZodSafeParseResult<unknown>;
};

export type MatchedRoute = { route: Route; pathInput: Record<string, string> };

type Wrapper = z.ZodType & { unwrap(): z.ZodType };
const WRAPPERS = [
  z.ZodOptional,
  z.ZodNullable,
  z.ZodDefault,
  z.ZodPrefault,
  z.ZodReadonly,
  z.ZodCatch,
  z.ZodNonOptional,
] as const;

/** The schema under optional/nullable/default… wrappers; a pipe (transform, codec) by its input side. */
function innermost(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    if (WRAPPERS.some((W) => current instanceof W)) current = (current as Wrapper).unwrap();
    else if (current instanceof z.ZodPipe) current = current.in as z.ZodType;
    else return current;
  }
}

/** The object a route's input is (under wrappers and pipes), or null. */
const objectOf = (schema: z.ZodType): z.ZodObject | null => {
  const inner = innermost(schema);
  return inner instanceof z.ZodObject ? inner : null;
};

/**
 * Where strings must become numbers: a path of member names to each number (in nested objects
 * too). REST sends every value as text; a number member takes `"5"` as 5, and anything else
 * stays as it came for the schema to refuse (`"abc"` is NaN: "expected number"). Booleans are
 * codecs of their own (`QueryBool`), which read the words themselves.
 */
type CoercionPlan = { numbers: string[]; nested: Map<string, CoercionPlan> };

function planOf(object: z.ZodObject): CoercionPlan {
  const plan: CoercionPlan = { numbers: [], nested: new Map() };
  for (const [key, member] of Object.entries(object.shape as Record<string, z.ZodType>)) {
    const inner = innermost(member);
    if (inner instanceof z.ZodNumber) plan.numbers.push(key);
    else if (inner instanceof z.ZodObject) plan.nested.set(key, planOf(inner));
  }
  return plan;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function coerce(plan: CoercionPlan, value: unknown): unknown {
  if (!isRecord(value)) return value;
  let copy: Record<string, unknown> | null = null;
  const set = (key: string, v: unknown) => {
    copy ??= { ...value };
    copy[key] = v;
  };
  for (const key of plan.numbers) {
    const v = value[key];
    if (typeof v === 'string' && v.trim() !== '') set(key, Number(v));
  }
  for (const [key, nested] of plan.nested) {
    const v = value[key];
    const coerced = coerce(nested, v);
    if (coerced !== v) set(key, coerced);
  }
  return copy ?? value;
}

/** Whether an empty string is a value of this parameter's schema, not the absence of one. */
const takesText = (member: z.ZodType) => innermost(member) instanceof z.ZodString;
const isArray = (member: z.ZodType) => innermost(member) instanceof z.ZodArray;

/** The first two segments of a normalized path, lower-cased as the index keys them ('' when absent). */
function leadingSegments(normalized: string): [string, string] {
  const first = normalized.indexOf('/', 1);
  if (first < 0) return [normalized.slice(1).toLowerCase(), ''];
  const second = normalized.indexOf('/', first + 1);
  return [
    normalized.slice(1, first).toLowerCase(),
    (second < 0 ? normalized.slice(first + 1) : normalized.slice(first + 1, second)).toLowerCase(),
  ];
}

/** A pattern's segment that is a parameter (or holds one): it matches any request segment. */
const isParameter = (segment: string) => segment.includes('{');

function routeOf(procedurePath: string, operation: Operation): Route | null {
  const openapi = operation.meta.openapi;
  if (!openapi) return null;
  const object = objectOf(operation.input);
  const shape = (object?.shape ?? {}) as Record<string, z.ZodType>;
  const plan = object ? planOf(object) : null;
  const asIs = inputAsIsOf(operation.input);
  return {
    method: openapi.method,
    path: openapi.path,
    meta: operation.meta,
    procedurePath,
    operation,
    emptyMeansAbsent: new Set(Object.keys(shape).filter((key) => !takesText(shape[key] as z.ZodType))),
    emptyMeansAbsentInQuery: new Set(
      Object.keys(shape).filter(
        (key) =>
          !takesText(shape[key] as z.ZodType) || (shape[key] as z.ZodType).safeParse(undefined).success,
      ),
    ),
    voidInput: innermost(operation.input) instanceof z.ZodVoid,
    arrayKeys: new Set(Object.keys(shape).filter((key) => isArray(shape[key] as z.ZodType))),
    parseInput: (raw) => {
      const input = plan ? coerce(plan, raw) : raw;
      // An input already exactly what the schema would answer is taken as it is (no copy).
      const same = asIs?.(input);
      return same ? { success: true, data: same } : operation.input.safeParse(input);
    },
  };
}

export function createRouteTable(router: object) {
  const routes: (Route & { pattern: RegExp; order: number })[] = [];
  for (const [path, operation] of operationsOf(router)) {
    const route = routeOf(path, operation);
    if (route)
      routes.push({ ...route, pattern: getPathRegExp(normalizePath(route.path)), order: routes.length });
  }
  // A request tries, in declaration order, only the patterns whose first two segments can match
  // its own: literal segments equal (case-insensitively) or parameters. Under GET /admin alone
  // there are dozens of patterns; trying each one's regular expression was 2% of a computed read.
  const keyed = routes.map((route) => {
    const [first, second] = leadingSegments(normalizePath(route.path));
    return { route, first, second };
  });
  const literalSeconds = new Set(
    keyed.filter((k) => !isParameter(k.second)).map((k) => `${k.route.method} ${k.first} ${k.second}`),
  );
  const namedFirsts = new Set(keyed.map((k) => k.first));
  const methods = [...new Set(routes.map((route) => route.method))];
  const candidates = new Map<string, typeof routes>();
  function candidatesFor(method: string, normalized: string): typeof routes {
    const [first, second] = leadingSegments(normalized);
    // A second segment no pattern names (an issue id, a role name) is keyed as `*`: the keys stay
    // the patterns' own, however many paths clients choose.
    const secondKey = literalSeconds.has(`${method} ${first} ${second}`) ? second : '*';
    const key = `${method} ${first} ${secondKey}`;
    let found = candidates.get(key);
    if (!found) {
      found = keyed
        .filter(
          (k) =>
            k.route.method === method &&
            (isParameter(k.first) || k.first === first) &&
            (isParameter(k.second) || k.second === '' || k.second === secondKey),
        )
        .map((k) => k.route);
      // First segments are client-chosen too: remember only those some pattern names.
      if (namedFirsts.has(first) || candidates.size < 1000) candidates.set(key, found);
    }
    return found;
  }
  /** `path` is relative to `/rest` (`/issue/PRJ-1`); null when no operation serves it. */
  function find(method: string, path: string): MatchedRoute | null {
    const normalized = normalizePath(path);
    for (const route of candidatesFor(method, normalized)) {
      const match = route.pattern.exec(normalized);
      if (match) return { route, pathInput: { ...(match.groups ?? {}) } };
    }
    return null;
  }
  /** Whether some method serves `path` (a wrong method is then 405, not 404). */
  function servesPath(path: string): boolean {
    const normalized = normalizePath(path);
    return methods.some((method) =>
      candidatesFor(method, normalized).some((route) => route.pattern.test(normalized)),
    );
  }
  return Object.assign(find, { routes: routes as readonly Route[], servesPath });
}

/** `fields` without the empty values of parameters where empty means absent. */
export function dropEmptyValues<T extends Record<string, unknown>>(fields: T, route: Route): T {
  const kept = { ...fields };
  for (const key of route.emptyMeansAbsent) if (kept[key] === '') delete kept[key];
  return kept;
}

/** The input of a GET/DELETE: query values (empty means absent where it does), single unless repeated or a list member. */
export function queryInput(route: Route, query: URLSearchParams): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, value] of query) {
    if (value === '' && route.emptyMeansAbsentInQuery.has(key)) continue;
    const seen = input[key];
    if (seen === undefined) input[key] = route.arrayKeys.has(key) ? [value] : value;
    else if (Array.isArray(seen)) seen.push(value);
    else input[key] = [seen, value];
  }
  return input;
}
