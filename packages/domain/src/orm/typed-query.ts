import type { Compilable, InferResult } from 'kysely';
import type { Em } from './em.js';
import { readRows } from './statements.js';

/**
 * Typed reads: a query written with the typed builder (`model/database.ts`), compiled once, run
 * on the statement runner's prepared statements. The row type comes from the schema description,
 * not from a cast at the call site.
 *
 * A value as the drivers hand it back on a raw read: SQLite gives datetimes as numbers (or the
 * text MikroORM wrote) and booleans as 0/1, PostgreSQL gives Dates and booleans. The row type
 * says so, so a caller must normalise (`toMs`, `Boolean`) where the entity's type would lie.
 */
export type DriverValue<V> = V extends Date
  ? Date | string | number
  : V extends boolean
    ? boolean | number
    : V;
export type DriverRow<R> = { [K in keyof R]: DriverValue<R[K]> };
type RowOf<Q extends Compilable<unknown>> = DriverRow<InferResult<Q>[number]>;

/** How a prepared query names its parameters: `param('login')` stands for `args.login`. */
export type Param<Args> = <K extends keyof Args & string>(name: K) => Args[K];

/** A named parameter of a prepared query; stands for its value while the query is compiled. */
class QueryParam {
  constructor(readonly name: string) {}
}

export type PreparedRead<Args, Row> = {
  readonly sql: string;
  all(em: Em, args: Args): Promise<Row[]>;
  first(em: Em, args: Args): Promise<Row | undefined>;
};

/**
 * A query compiled once, its parameters named: `param('login')` stands for `args.login` at each
 * run. The SQL text is fixed, so each database prepares it once.
 */
export function prepareRead<Args extends Record<string, unknown>, Q extends Compilable<unknown>>(
  build: (param: Param<Args>) => Q,
): PreparedRead<Args, RowOf<Q>> {
  const compiled = build((name) => new QueryParam(name) as never).compile();
  const slots = compiled.parameters.map((p) => (p instanceof QueryParam ? p : { value: p }));
  const values = (args: Args) => slots.map((s) => (s instanceof QueryParam ? args[s.name] : s.value));
  return {
    sql: compiled.sql,
    all: (em, args) => readRows<RowOf<Q>>(em, compiled.sql, values(args)),
    first: async (em, args) => (await readRows<RowOf<Q>>(em, compiled.sql, values(args)))[0],
  };
}

/** A query whose shape varies per call (an `in` list of any length): compiled at each call. */
export function readQuery<Q extends Compilable<unknown>>(em: Em, query: Q): Promise<RowOf<Q>[]> {
  const compiled = query.compile();
  return readRows<RowOf<Q>>(em, compiled.sql, compiled.parameters);
}
