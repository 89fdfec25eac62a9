import { type Compilable, type InferResult, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Em } from './em.js';
import { readRows, returningRows, runStatement } from './statements.js';

/**
 * Typed reads and writes: a query written with the typed builder (`model/database.ts`), compiled
 * once, run on the statement runner's prepared statements. The row type comes from the schema
 * description, not from a cast at the call site.
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

type ListKey<Args> = {
  [K in keyof Args & string]: Args[K] extends readonly unknown[] ? K : never;
}[keyof Args & string];
type ItemOf<L> = L extends readonly (infer I)[] ? I : never;

/**
 * How a prepared query names its parameters: `param('login')` stands for `args.login`;
 * `param.list('ids', n)` for the n items of `args.ids` (an `in` list); `param.item('rows', i,
 * 'name')` for `args.rows[i].name` (a row of a multi-row insert). A query with lists is prepared
 * once per length (`perLength`).
 */
export type Param<Args> = {
  <K extends keyof Args & string>(name: K): Args[K];
  list<K extends ListKey<Args>>(name: K, length: number): ItemOf<Args[K]>[];
  item<K extends ListKey<Args>, F extends keyof ItemOf<Args[K]> & string>(
    name: K,
    index: number,
    field: F,
  ): ItemOf<Args[K]>[F];
};

/** A named parameter of a prepared query; stands for its value while the query is compiled. */
class QueryParam {
  constructor(
    readonly name: string,
    readonly index?: number,
    readonly field?: string,
  ) {}
}

/** Compiles `build` once: its SQL text and how each run's arguments become its parameters. */
function compileOnce<Args extends Record<string, unknown>>(
  build: (param: Param<Args>) => Compilable<unknown>,
): { sql: string; values: (args: Args) => unknown[] } {
  const lengths = new Map<string, number>();
  const grow = (name: string, length: number) => lengths.set(name, Math.max(lengths.get(name) ?? 0, length));
  const param = ((name: string) => new QueryParam(name)) as Param<Args>;
  param.list = (name, length) => {
    grow(name, length);
    return Array.from({ length }, (_, i) => new QueryParam(name, i) as never);
  };
  param.item = (name, index, field) => {
    grow(name, index + 1);
    return new QueryParam(name, index, field) as never;
  };
  const compiled = build(param).compile();
  const slots = compiled.parameters.map((p) => (p instanceof QueryParam ? p : { value: p }));
  const argOf = (args: Args, p: QueryParam) => {
    const value = args[p.name] as unknown;
    if (p.index === undefined) return value;
    const item = (value as readonly unknown[])[p.index];
    return p.field === undefined ? item : (item as Record<string, unknown>)[p.field];
  };
  return {
    sql: compiled.sql,
    values: (args) => {
      for (const [name, length] of lengths) {
        const list = args[name] as readonly unknown[];
        if (list.length !== length)
          throw new Error(`${name}: ${list.length} items given to a statement prepared for ${length}`);
      }
      return slots.map((s) => (s instanceof QueryParam ? argOf(args, s) : s.value));
    },
  };
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
  const { sql, values } = compileOnce(build);
  return {
    sql,
    all: async (em, args) => readRows<RowOf<Q>>(em, sql, values(args)),
    first: async (em, args) => (await readRows<RowOf<Q>>(em, sql, values(args)))[0],
  };
}

export type PreparedWrite<Args, Row> = {
  readonly sql: string;
  /** Runs the statement: how many rows it changed. */
  run(em: Em, args: Args): Promise<number>;
  /** Runs the statement: the rows of its `returning`. */
  returning(em: Em, args: Args): Promise<Row[]>;
};

/**
 * One write statement (insert, update, delete) compiled once, its parameters named as in
 * `prepareRead`, run as a prepared statement (`runStatement`, or `returningRows` for one with
 * `returning`): for the writes that must stay one statement, not the unit of work's.
 */
export function prepareWrite<Args extends Record<string, unknown>, Q extends Compilable<unknown>>(
  build: (param: Param<Args>) => Q,
): PreparedWrite<Args, RowOf<Q>> {
  const { sql, values } = compileOnce(build);
  return {
    sql,
    run: async (em, args) => runStatement(em, sql, values(args)),
    returning: async (em, args) => returningRows<RowOf<Q>>(em, sql, values(args)),
  };
}

/**
 * One prepared statement per length of its lists (an `in` list, the rows of an insert), each
 * compiled at its first use and kept (at most `max` lengths; then they are compiled again).
 */
export function perLength<P>(prepare: (length: number) => P, max = 256): (length: number) => P {
  const byLength = new Map<number, P>();
  return (length) => {
    let prepared = byLength.get(length);
    if (!prepared) {
      if (byLength.size >= max) byLength.clear();
      prepared = prepare(length);
      byLength.set(length, prepared);
    }
    return prepared;
  };
}

/** A query whose shape varies per call (an `in` list of any length): compiled at each call. */
export function readQuery<Q extends Compilable<unknown>>(em: Em, query: Q): Promise<RowOf<Q>[]> {
  const compiled = query.compile();
  return readRows<RowOf<Q>>(em, compiled.sql, compiled.parameters);
}

/**
 * A time as `storedTime` gives it (ms since the epoch on SQLite, a Date on PostgreSQL), for a
 * datetime column: bound as it is, so SQLite gets the number MikroORM writes there.
 */
export const asStoredTime = (value: Date | number): RawBuilder<Date> => sql<Date>`${value}`;

/**
 * A condition written as SQL text with `?` placeholders (`readableIssuesSql`, say) as a builder
 * expression, its parameters bound. For `readQuery`: a prepared query would keep them fixed.
 */
export function sqlCondition(condition: { sql: string; params: readonly unknown[] }): RawBuilder<SqlBool> {
  const fragments = condition.sql.split('?');
  if (fragments.length !== condition.params.length + 1)
    throw new Error(`${condition.params.length} parameters for: ${condition.sql}`);
  return sql<SqlBool>(Object.assign(fragments, { raw: fragments }), ...condition.params);
}
