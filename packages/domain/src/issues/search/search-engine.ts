import { createRequire } from 'node:module';
import type { Actor } from '../../auth/actor.js';
import { DomainError } from '../../errors.js';
import type { Em } from '../../orm/em.js';
import { type Dialect, dialectOf, type Orm } from '../../orm/open-orm.js';
import { readRows } from '../../orm/statements.js';
import type { Sql } from './readable-issues.js';
import {
  INDEXER_STATEMENTS,
  indexQueuedIssues,
  TEXT_INDEX_THROUGH,
  TEXT_QUEUE_LAST,
} from './search-index.js';
import {
  BudgetExceeded,
  fairGate,
  perCallerShare,
  type SearchCaller,
  type SearchPool,
  type SqlRunner,
  startSearchPool,
} from './search-pool.js';

/**
 * How search statements run for one database: the time budget of a search (or a count), the
 * time zone of relative dates, and the runner of statements:
 *  - SQLite file: a pool of worker processes with read-only connections (search-pool.ts);
 *  - PostgreSQL: a pool of its own whose sessions carry `statement_timeout` = the budget, so the
 *    server cancels a statement over it (the driver is asynchronous: nothing waits meanwhile);
 *  - otherwise (an in-memory SQLite database in tests, or no engine started): the ORM's own
 *    connection, without a budget.
 */
export type SearchSettings = {
  budgetMs: number;
  timeZone: string;
  /**
   * How long a search with words waits for the text index to hold the writes acknowledged before
   * it began (SQLite's asynchronous indexer; `waitForText`). Past it, the search answers from the
   * index as it is.
   */
  textWaitMs: number;
};
export const DEFAULT_SEARCH_SETTINGS: SearchSettings = {
  budgetMs: 10_000,
  timeZone: 'UTC',
  textWaitMs: 2_000,
};

type Engine = {
  settings: SearchSettings;
  run?: SqlRunner;
  /**
   * Statements of one caller `run` executes at once, each on its own connection and core (SQLite's
   * worker processes: all but one of them, search-pool.ts `FairQueue`).
   */
  parallelism: number;
  maintain?: () => Promise<void>;
  /** Waits until the text index holds what was queued before (SQLite's indexer process). */
  waitForText?: (em: Em) => Promise<void>;
  stop(): Promise<void>;
};

const engines = new WeakMap<object, Engine>();

const keyOf = (em: Em): object => em.getConnection();

export type SearchEngineHandle = { stop(): Promise<void>; maintain(): Promise<void> };

/**
 * Starts the engine for `orm` (the server calls it once; `file` for a SQLite file database).
 * Statistics are brought up to date at start and hourly (SQLite `pragma optimize` in a worker
 * process; PostgreSQL's autovacuum keeps its own).
 */
export async function startSearchEngine(
  orm: Orm,
  options: Partial<SearchSettings> & { file?: string; workers?: number; logError?: (m: string) => void },
): Promise<SearchEngineHandle> {
  const settings = { ...DEFAULT_SEARCH_SETTINGS, ...definedOnly(options) };
  const dialect = dialectOf(orm);
  let pool: SearchPool | undefined;
  let pg: PgPool | undefined;
  let run: SqlRunner | undefined;
  if (dialect === 'sqlite' && options.file && options.file !== ':memory:') {
    pool = startSearchPool(options.file, {
      workers: options.workers,
      indexStatements: INDEXER_STATEMENTS,
      logError: options.logError,
      // A connection reads the statistics when it opens: the server's own reloads them here
      // (`analyze sqlite_schema`, which takes the write lock for a moment), or it would plan with
      // those of its start until a restart (an import of a million issues: pages 20-40x slower).
      onAnalyzed: () =>
        void (orm.em.fork() as Em)
          .execute('analyze sqlite_schema')
          .catch((error: unknown) =>
            options.logError?.(`reloading the planner's statistics: ${(error as Error).message}`),
          ),
    });
    run = pool.run;
  } else if (dialect === 'postgresql') {
    const pgPath = createRequire(import.meta.resolve('@mikro-orm/postgresql')).resolve('pg');
    const { Pool } = createRequire(import.meta.url)(pgPath) as {
      Pool: new (config: object) => NonNullable<typeof pg>;
    };
    const sessionCount = Math.max(2, options.workers ?? 4);
    const sessions = new Pool({
      connectionString: orm.config.get('clientUrl'),
      max: sessionCount,
      application_name: SEARCH_APPLICATION_NAME,
      statement_timeout: settings.budgetMs,
      options: SEARCH_SESSION_OPTIONS,
      // Sessions are kept, not closed after 10 s idle (the driver's default): a new session's
      // first statement maps each shared buffer it touches into its own process, and on the
      // machines measured that cost a count through 11,000 buffers 160-190 ms more than the same
      // count in a session that had run it (210-245 ms against 46-52), for every session the
      // pool opened again after a pause.
      idleTimeoutMillis: 0,
    });
    // A kept session that the server ends (a restart, an administrator's `pg_terminate_backend`)
    // is reported on the pool, which opens another at the next search; unheard, the report would
    // end the process.
    sessions.on('error', (error: Error) => options.logError?.(`search session ended: ${error.message}`));
    pg = sessions;
    // The sessions are handed out in the fair order of search-pool.ts (the driver's pool would
    // serve the first asked first: one user's four slow searches held every session).
    const gate = fairGate(sessionCount);
    run = (statement, budgetMs, caller = '') =>
      gate(caller, budgetMs, async () => {
        const { text } = pgPlaceholders(statement.sql);
        const query = { text, values: statement.params, rowMode: 'array' } as {
          text: string;
          values: unknown[];
        };
        if (!caller) return (await sessions.query(query)).rows as unknown[][];
        // One statement of a caller at a time across every server process on the database: the gate
        // above is each process's own, and with a process per core a caller's slow searches took
        // every core. The wait for the lock counts against the session's statement_timeout (the
        // budget), and the lock is the session's until unlocked, so the statement runs in between.
        const session = await sessions.connect();
        try {
          await session.query({ text: CALLER_LOCK, values: [caller] });
          try {
            return (await session.query(query)).rows as unknown[][];
          } finally {
            await session.query({ text: CALLER_UNLOCK, values: [caller] });
          }
        } finally {
          session.release();
        }
      });
  }
  let timer: NodeJS.Timeout | undefined;
  if (pool) {
    const checkStatistics = pool.maintain;
    // The tables that grew (or shrank) tenfold since their last analysis, every minute: a
    // comparison of counts when none did (`pragma optimize`).
    timer = setInterval(() => void checkStatistics('check'), 60 * 1000);
    timer.unref();
  }
  let stopping: Promise<void> | undefined;
  const upkeep = pg ? pgUpkeep(pg) : undefined;
  if (upkeep) {
    void upkeep('start').catch(() => {});
    timer = setInterval(() => void upkeep('periodic').catch(() => {}), 60 * 60 * 1000);
    timer.unref();
  }
  const engine: Engine = {
    settings,
    run,
    // What one caller's statements may use at once (the fair queue's share of the processes).
    parallelism: pool ? perCallerShare(Math.max(1, options.workers ?? 2)) : 1,
    ...(pool ? { maintain: () => pool.maintain('bulk').then(() => undefined) } : {}),
    ...(upkeep ? { maintain: () => upkeep('bulk') } : {}),
    ...(pool ? { waitForText: textWaiter(pool, settings.textWaitMs) } : {}),
    stop() {
      if (timer) clearInterval(timer);
      stopping ??= Promise.all([pool?.stop(), pg?.end()]).then(() => undefined);
      return stopping;
    },
  };
  engines.set(keyOf(orm.em as Em), engine);
  return {
    stop: async () => {
      if (engines.get(keyOf(orm.em as Em)) === engine) engines.delete(keyOf(orm.em as Em));
      await engine.stop();
    },
    maintain: async () => {
      await pool?.maintain('bulk');
    },
  };
}

/**
 * The search sessions' own settings (PostgreSQL), beside the server's defaults:
 *  - `work_mem`: a count of an OR hashes its ranges' issue ids; with the default 4 MB the 115,000 ids
 *    of `State: Open, Fixed` over a third of a million issues spilled to disk in five batches;
 *  - `jit = off`: a count's estimated cost at a million issues passes `jit_above_cost`, and each
 *    such statement spent 20-80 ms compiling its expressions, for statements meant to take tens;
 *  - `random_page_cost = 1.1`: the pages are in memory, not on a spinning disk; at the default 4,
 *    `project: S03 #Unresolved sort by: Priority` walked the unresolved index over half of all
 *    issues and filtered the project (811 ms at a million) instead of a bitmap AND of both (258 ms).
 *  - `enable_seqscan = off`: the text documents are out of line (migration 0055), so their table
 *    looks small to the planner, which then likes to scan it whole and test each row (a word in
 *    half of a million issues: a parallel scan of 11,000 pages, 2.7 s, every document read from
 *    TOAST) where a bitmap of the GIN index counts them without reading one (70 ms). It costs
 *    every other search nothing: each of its conditions has an index.
 *  - `max_parallel_workers_per_gather = 0`: no parallel workers. A worker is a new process at every
 *    statement, and a process touching a page of the shared buffers for the first time pays for
 *    mapping it (dear on the machines measured: a count's first run in a new session 210-245 ms,
 *    again 46-52). At a million issues on two cores, the whole mix without them, against with them:
 *    `State: Open` counted in 17-19 ms median against 58-62, `(State: Open) or (State: Fixed)` 34
 *    against 73-99, a page of a word no issue holds 4-5 against 57 (the workers' start), the two-
 *    and three-value counts and every page the same (earlier, every count of two or more large
 *    ranges in issue order already ran without: merge joins instead of parallel hashes, 100-110 →
 *    58-84 ms for two values). Searches are many users' statements at once: the cores are theirs.
 * At most the pool's size in sessions hold that memory at once, and only while a statement runs.
 */
const SEARCH_SESSION_OPTIONS =
  '-c work_mem=64MB -c jit=off -c random_page_cost=1.1 -c enable_seqscan=off -c max_parallel_workers_per_gather=0';

/**
 * A caller's search lock (PostgreSQL): an advisory lock of this class and the caller's name's
 * hash, held by the search session while one of the caller's statements runs. Two keys, so it
 * never meets the single-key advisory locks (the test kit's template build).
 */
const CALLER_LOCK_CLASS = 727004;
const CALLER_LOCK = `select pg_advisory_lock(${CALLER_LOCK_CLASS}, hashtext($1))`;
const CALLER_UNLOCK = `select pg_advisory_unlock(${CALLER_LOCK_CLASS}, hashtext($1))`;

/** The tables whose statistics plan searches (PostgreSQL). */
const SEARCH_TABLE_NAMES = ['issues', 'issue_field_values', 'issue_comments', 'issue_tags', 'issue_search'];
const SEARCH_TABLES = SEARCH_TABLE_NAMES.join(', ');
const ANALYZE = `analyze ${SEARCH_TABLES}`;

type PgClient = {
  query(c: { text: string; values: unknown[] } | string): Promise<{ rows: unknown[] }>;
};
type PgPool = PgClient & {
  connect(): Promise<PgClient & { release(): void }>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): void;
};

/**
 * PostgreSQL's upkeep of the search tables, on a session of the search pool (no statement
 * budget): `analyze` after bulk writes. Where the server's autovacuum is off (as on the machines
 * this was measured on), also `vacuum`: without it no page is ever marked all-visible, so a count
 * over an index (`State: Open`: 166,000 entries at a million issues) reads every row's page as
 * well, and the text index's pending list of new documents is scanned by every text search. Then
 * it also runs hourly (`periodic`), and at start (`start`) on the tables whose pages are mostly not
 * marked all-visible: a migration may have rewritten one (0055 moved the text documents out of
 * line), and until a vacuum marks its pages every count through it checks each row's visibility
 * (the first counts of a word after 0055: 430 ms, then 40). One run at a time; a request meanwhile
 * is dropped (the running one covers it).
 */
function pgUpkeep(pool: PgPool): (why: 'bulk' | 'periodic' | 'start') => Promise<void> {
  let running: Promise<void> | undefined;
  const run = async (why: 'bulk' | 'periodic' | 'start') => {
    const session = await pool.connect();
    try {
      const [row] = (await session.query("select current_setting('autovacuum') = 'on' as on")).rows as {
        on: boolean;
      }[];
      const autovacuum = row?.on !== false;
      if (why !== 'bulk' && autovacuum) return;
      let tables = SEARCH_TABLES;
      if (why === 'start') {
        const unmarked = (
          await session.query({
            text: 'select c.relname as name from pg_class c where c.oid = any($1::regclass[]) and c.relallvisible * 2 < c.relpages',
            values: [SEARCH_TABLE_NAMES],
          })
        ).rows as { name: string }[];
        if (unmarked.length === 0) return;
        tables = unmarked.map((t) => t.name).join(', ');
      }
      await session.query('set statement_timeout = 0');
      await session.query(autovacuum ? `analyze ${tables}` : `vacuum (analyze) ${tables}`);
    } finally {
      await session.query('reset statement_timeout').catch(() => {});
      session.release();
    }
  };
  return (why) => {
    running ??= run(why).finally(() => {
      running = undefined;
    });
    return running;
  };
}

/** How the search sessions name themselves to the server (`pg_stat_activity.application_name`). */
export const SEARCH_APPLICATION_NAME = 'trackline search';

/** Bulk writes between statistics updates: the first after this many issues, then each doubling. */
export const UPKEEP_FIRST = 2000;
const upkeep = new WeakMap<object, { written: number; next: number }>();

/**
 * Notes `count` issues written in bulk (an import). A database filled faster than its statistics
 * follow gets plans made for an empty one (PostgreSQL's autovacuum analyses within a minute or
 * so, SQLite only when asked): past 2,000 issues written by this process, then each time the
 * number doubles, the statistics are brought up to date — by the engine off the request
 * (SQLite `pragma optimize` in the indexer process, PostgreSQL `analyze` on the search pool), or
 * on this connection without an engine. A handful of times over an import of millions.
 */
export async function noteBulkWrite(em: Em, count: number): Promise<void> {
  const key = keyOf(em);
  const state = upkeep.get(key) ?? { written: 0, next: UPKEEP_FIRST };
  upkeep.set(key, state);
  state.written += count;
  if (state.written < state.next) return;
  state.next = state.written * 2;
  const engine = engines.get(key);
  if (engine?.maintain) {
    void engine.maintain().catch(() => {});
    return;
  }
  await em.execute(searchDialect(em) === 'postgresql' ? ANALYZE : 'pragma optimize');
}

/**
 * Read-your-writes of text on SQLite: the words of a write reach the index a moment after the write
 * is acknowledged (the indexer process, search-index.ts). A search with words first reads the last
 * queued entry; while the index's own record is behind it, the indexer is asked to look now and
 * the search waits (polling every few milliseconds, up to `waitMs`). So a search sees the text of
 * every write acknowledged before it began, whoever made it; an idle index costs one read.
 */
function textWaiter(pool: SearchPool, waitMs: number): (em: Em) => Promise<void> {
  return async (em) => {
    const [queued] = await readRows<{ last: number | null }>(em, TEXT_QUEUE_LAST);
    const last = Number(queued?.last ?? 0);
    if (last === 0) return;
    const deadline = Date.now() + waitMs;
    let kicked = false;
    for (;;) {
      const [state] = await readRows<{ through: number }>(em, TEXT_INDEX_THROUGH);
      if (Number(state?.through ?? 0) >= last || Date.now() >= deadline) return;
      if (!kicked) pool.kickIndexer();
      kicked = true;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** `?` placeholders outside quoted literals become `$1, $2, …`. */
function pgPlaceholders(sql: string): { text: string } {
  let n = 0;
  return { text: sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?/g, (m) => (m === '?' ? `$${++n}` : m)) };
}

export function searchSettingsOf(em: Em): SearchSettings {
  return engines.get(keyOf(em))?.settings ?? DEFAULT_SEARCH_SETTINGS;
}

export function searchDialect(em: Em): Dialect {
  return em.getDriver().constructor.name === 'PostgreSqlDriver' ? 'postgresql' : 'sqlite';
}

const QUERY_CANCELED = '57014';

/** The caller a search's statements are queued for (search-pool.ts `FairQueue`): the user. */
export const searchCaller = (actor: Actor): SearchCaller => `user ${actor.userId}`;

/**
 * Runs one search statement within the budget; rows as arrays of column values. Over budget:
 * SEARCH_TIMEOUT naming the budget and the setting.
 */
/**
 * How many statements of one search may usefully run at once: SQLite's worker processes each
 * have a connection and a core, and one caller may hold all of them but one (search-pool.ts): 1
 * with the default two; 1 without them and on PostgreSQL (its search sessions start no parallel
 * workers, and counts are not split there: not measured).
 */
export function searchParallelism(em: Em): number {
  const engine = engines.get(keyOf(em));
  return engine?.run && !em.getTransactionContext() ? engine.parallelism : 1;
}

/**
 * A search statement on the request's own connection, without the budget: for statements whose
 * cost is bounded by construction (see `searchDbIds`), inside transactions, and without an engine.
 */
export async function runSearchStatementHere(em: Em, statement: Sql): Promise<unknown[][]> {
  await textUpToDate(em, engines.get(keyOf(em)), statement);
  const rows = await readRows<Record<string, unknown>>(em, statement.sql, statement.params);
  return rows.map((r) => Object.values(r));
}

/**
 * Before a statement that reads SQLite's text index: without an indexer process (an in-memory
 * database) the index catches up on this connection; with one, outside a transaction, the search
 * waits for the index to hold the writes acknowledged before it (`textWaiter`). Inside a
 * transaction with an indexer the index is read as the indexer made it: the request's connection
 * never writes the index's file (the lock order in docs/architecture.md), and a transaction's
 * snapshot of the index would not move while it waited.
 */
async function textUpToDate(em: Em, engine: Engine | undefined, statement: Sql): Promise<void> {
  if (!statement.sql.includes('issue_fts') || searchDialect(em) !== 'sqlite') return;
  if (!engine?.run) await indexQueuedIssues(em);
  else if (engine.waitForText && !em.getTransactionContext()) await engine.waitForText(em);
}

/** A search statement on the engine, in `caller`'s turn (`searchCaller`; search-pool.ts `FairQueue`). */
export async function runSearchStatement(
  em: Em,
  statement: Sql,
  caller?: SearchCaller,
): Promise<unknown[][]> {
  const engine = engines.get(keyOf(em));
  const budgetMs = engine?.settings.budgetMs ?? DEFAULT_SEARCH_SETTINGS.budgetMs;
  // Inside a transaction the statement must see the transaction's own rows: its connection.
  if (!engine?.run || em.getTransactionContext()) return runSearchStatementHere(em, statement);
  await textUpToDate(em, engine, statement);
  try {
    return await engine.run(statement, budgetMs, caller);
  } catch (error) {
    if (error instanceof BudgetExceeded || (error as { code?: string }).code === QUERY_CANCELED) {
      throw new DomainError(
        'SEARCH_TIMEOUT',
        `The search took longer than its budget of ${budgetMs} ms (TRACKLINE_SEARCH_BUDGET_MS) and was stopped; narrow the query.`,
      );
    }
    throw error;
  }
}
