import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { textIndexFile } from '../../orm/text-index-file.js';
import type { Sql } from './readable-issues.js';
import type { IndexerStatements } from './search-index.js';

/**
 * Search statements on a SQLite file, run by a few child processes, each with its own read-only
 * connection (search-worker-process.ts). The server's event loop only sends a statement and waits
 * for the rows: a long search never stalls other requests. A statement still running when its
 * budget ends is stopped by killing its process (SQLite's progress handler is compiled out of
 * better-sqlite3, and a worker thread cannot be stopped inside a native call); a fresh process
 * takes its place. Statements wait for a free process in a fair queue (`FairQueue`: one caller
 * holds at most all processes but one); the wait counts against the budget.
 */

/**
 * Who a statement is for (`searchCaller` in search-engine.ts: the user): the unit of fairness.
 * Statements without one share the key ''.
 */
export type SearchCaller = string;

/** Runs a statement within the budget, in the caller's turn. */
export type SqlRunner = (statement: Sql, budgetMs: number, caller?: SearchCaller) => Promise<unknown[][]>;

/**
 * The waiting statements of a pool of `slots` workers (SQLite's processes, PostgreSQL's search
 * sessions), in one queue per caller: a free slot takes the oldest statement of the caller that
 * runs the fewest, callers taking turns on ties, and never a statement of a caller that already
 * runs `perCaller` (all slots but one: with the default two, one each). So a caller who sends slow
 * searches four at once runs one of them at a time, the others waiting in its own queue, and
 * another caller's search finds a slot free: one user's flood costs the others no more than a
 * slot (issue 35: a second user's `State: Open` took 9 s while one user's two link queries held
 * both workers). The price: one caller's statements never run on every slot at once (a count is
 * split into `perCaller` slices, search-issues.ts).
 */
export class FairQueue<J extends { caller: SearchCaller }> {
  private readonly waiting = new Map<SearchCaller, J[]>();
  private readonly running = new Map<SearchCaller, number>();

  constructor(readonly perCaller: number) {}

  push(job: J): void {
    const jobs = this.waiting.get(job.caller);
    if (jobs) jobs.push(job);
    else this.waiting.set(job.caller, [job]);
  }

  /** The next statement a free slot runs (now counted as running), or undefined when none may. */
  take(): J | undefined {
    let chosen: SearchCaller | undefined;
    let fewest = Number.POSITIVE_INFINITY;
    for (const caller of this.waiting.keys()) {
      const running = this.running.get(caller) ?? 0;
      if (running < this.perCaller && running < fewest) {
        chosen = caller;
        fewest = running;
      }
    }
    if (chosen === undefined) return undefined;
    const jobs = this.waiting.get(chosen) as J[];
    const job = jobs.shift() as J;
    // To the end of the turn: on a tie the other callers go first next time.
    this.waiting.delete(chosen);
    if (jobs.length) this.waiting.set(chosen, jobs);
    this.running.set(chosen, fewest + 1);
    return job;
  }

  /** A statement `take` answered has ended (rows, error, budget, stopped process). */
  finished(job: J): void {
    const running = (this.running.get(job.caller) ?? 1) - 1;
    if (running > 0) this.running.set(job.caller, running);
    else this.running.delete(job.caller);
  }

  /** Takes a statement out of the queue before it ran (its budget ended while it waited). */
  remove(job: J): boolean {
    const jobs = this.waiting.get(job.caller);
    const index = jobs?.indexOf(job) ?? -1;
    if (!jobs || index < 0) return false;
    jobs.splice(index, 1);
    if (jobs.length === 0) this.waiting.delete(job.caller);
    return true;
  }

  /** Every waiting statement, the queue emptied. */
  drain(): J[] {
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    return all;
  }
}

/** The share of a pool of `slots` one caller may hold at once: all but one slot (at least one). */
export const perCallerShare = (slots: number): number => Math.max(1, slots - 1);

/**
 * Runs tasks on `slots` slots in the fair order of `FairQueue` (PostgreSQL's search sessions: the
 * driver's own pool would hand them out first come, first served). A task still waiting when its
 * budget ends is refused (BudgetExceeded); once started, the session's own timeout bounds it.
 */
export function fairGate(
  slots: number,
): <T>(caller: SearchCaller, budgetMs: number, task: () => Promise<T>) => Promise<T> {
  type Waiter = { caller: SearchCaller; start: () => void };
  const queue = new FairQueue<Waiter>(perCallerShare(slots));
  let busy = 0;
  const pump = () => {
    while (busy < slots) {
      const waiter = queue.take();
      if (!waiter) return;
      busy++;
      waiter.start();
    }
  };
  return (caller, budgetMs, task) =>
    new Promise((resolve, reject) => {
      const waiter: Waiter = {
        caller,
        start: () => {
          clearTimeout(timer);
          task()
            .then(resolve, reject)
            .finally(() => {
              busy--;
              queue.finished(waiter);
              pump();
            });
        },
      };
      const timer = setTimeout(() => {
        if (queue.remove(waiter)) reject(new BudgetExceeded(budgetMs));
      }, budgetMs);
      queue.push(waiter);
      pump();
    });
}

/**
 * A parameter as the workers' driver binds it: a boolean as 0 or 1, as SQLite stores it (the
 * request connection's `readRows` does the same). A search's statements carry booleans where
 * PostgreSQL needs them (`c.deleted = ?` of `commented by:` and `has: comments`), and the driver
 * refuses to bind one: those searches failed with 500 on a SQLite file.
 */
const sqliteBindable = (value: unknown): unknown => (typeof value === 'boolean' ? Number(value) : value);

export class BudgetExceeded extends Error {
  constructor(readonly budgetMs: number) {
    super(`over budget (${budgetMs} ms)`);
  }
}

type Job = {
  id: number;
  caller: SearchCaller;
  statement: Sql;
  resolve: (rows: unknown[][]) => void;
  reject: (error: Error) => void;
  deadline: number;
  budgetMs: number;
  timer?: NodeJS.Timeout;
};
type Worker = { child: ChildProcess; job?: Job; stale?: boolean };

export type SearchPool = {
  run: SqlRunner;
  /**
   * Brings the planner's statistics up to date in the indexer's process (`bulk`: every table;
   * `check`: those whose size moved by a factor of ten); true when it analysed any. Statistics
   * are read by a connection when it opens: the pool's processes are then replaced
   * (`refreshStatistics`), and the server's own connection reloads them (search-engine.ts).
   */
  maintain(kind: 'bulk' | 'check'): Promise<boolean>;
  /** Replaces each worker process once it is idle: a new one plans with the current statistics. */
  refreshStatistics(): void;
  /** Asks the indexer to look at its queue now (a search waits for the text it holds). */
  kickIndexer(): void;
  stop(): Promise<void>;
  size: number;
};

export function startSearchPool(
  file: string,
  options: {
    workers?: number;
    indexStatements?: IndexerStatements;
    logError?: (m: string) => void;
    /** Called when the indexer's process analysed tables: the server's own connection reloads. */
    onAnalyzed?: () => void;
  } = {},
): SearchPool {
  const driverPath = createRequire(import.meta.resolve('@mikro-orm/sqlite')).resolve('better-sqlite3');
  const script = fileURLToPath(
    new URL(`./search-worker-process${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
  );
  const size = Math.max(1, options.workers ?? 2);
  const workers: Worker[] = [];
  const queue = new FairQueue<Job>(perCallerShare(size));
  let nextId = 1;
  let stopped = false;

  const spawn = (mode = 'ro'): ChildProcess => {
    const child = fork(script, [file, driverPath, mode, textIndexFile(file)], {
      serialization: 'advanced',
      execArgv: [],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    child.stderr?.on('data', (d: Buffer) => options.logError?.(`search worker: ${d.toString().trim()}`));
    return child;
  };

  const finish = (worker: Worker) => {
    const job = worker.job;
    if (job?.timer) clearTimeout(job.timer);
    worker.job = undefined;
    if (job) queue.finished(job);
    if (worker.stale) replace(worker);
    dispatch();
    return job;
  };

  function refreshStatistics() {
    for (const worker of [...workers]) {
      worker.stale = true;
      if (!worker.job) replace(worker);
    }
  }

  /** An idle worker whose statistics are old: a fresh process takes its place. */
  const replace = (worker: Worker) => {
    retire(worker);
    worker.child.disconnect();
  };

  /** Takes a worker out of service at once (no job goes to it again) and brings a fresh one. */
  const retire = (worker: Worker) => {
    const index = workers.indexOf(worker);
    if (index < 0) return;
    workers.splice(index, 1);
    if (!stopped) workers.push(addWorker());
  };

  const addWorker = (): Worker => {
    const worker: Worker = { child: spawn() };
    worker.child.on('message', (message: { id: number; rows?: unknown[][]; error?: string }) => {
      if (worker.job?.id !== message.id) return;
      const job = finish(worker);
      if (message.error !== undefined) job?.reject(new Error(message.error));
      else job?.resolve(message.rows ?? []);
    });
    // A write to a process that just died (EPIPE) is reported by its exit.
    worker.child.on('error', () => undefined);
    worker.child.on('exit', () => {
      const job = worker.job;
      worker.job = undefined;
      if (job?.timer) clearTimeout(job.timer);
      if (job) queue.finished(job);
      job?.reject(new Error('the search worker stopped'));
      retire(worker);
      dispatch();
    });
    return worker;
  };

  function dispatch() {
    // Processes start with the first search, not with the server.
    while (!stopped && workers.length < size) workers.push(addWorker());
    for (const worker of [...workers]) {
      if (worker.job || !worker.child.connected) continue;
      const job = queue.take();
      if (!job) return;
      const left = job.deadline - Date.now();
      if (left <= 0) {
        queue.finished(job);
        job.reject(new BudgetExceeded(job.budgetMs));
        continue;
      }
      worker.job = job;
      // Past the budget the process is killed: the statement stops at once, wherever it is.
      job.timer = setTimeout(() => {
        if (worker.job !== job) return;
        worker.job = undefined;
        queue.finished(job);
        job.reject(new BudgetExceeded(job.budgetMs));
        retire(worker);
        worker.child.kill('SIGKILL');
        dispatch();
      }, left);
      const params = job.statement.params.map(sqliteBindable);
      worker.child.send({ id: job.id, sql: job.statement.sql, params }, (error) => {
        if (error) worker.child.kill('SIGKILL');
      });
    }
  }

  // The indexer and statistics process (read-write), restarted should it die.
  let indexer: ChildProcess | undefined;
  const maintained: ((analyzed: boolean) => void)[] = [];
  const startIndexer = () => {
    const child = spawn('rw');
    child.on('message', (m: { id: number; error?: string; analyzed?: boolean }) => {
      if (m.id === -1 && m.error) options.logError?.(`search indexer: ${m.error}`);
      if (m.id === -1) return;
      if (m.analyzed) {
        refreshStatistics();
        options.onAnalyzed?.();
      }
      maintained.shift()?.(m.analyzed === true);
    });
    child.on('error', () => undefined);
    child.on('exit', () => {
      if (stopped) return;
      setTimeout(() => {
        if (!stopped) indexer = startIndexer();
      }, 1000).unref();
    });
    if (options.indexStatements) child.send({ id: 0, index: options.indexStatements });
    // Statistics checked as it starts (then every minute, and after bulk writes: the engine).
    maintained.push(() => {});
    child.send({ id: 1, maintain: 'check' });
    return child;
  };
  // The indexer starts a moment after the server, not in the way of its start-up.
  const indexerStart = setTimeout(() => {
    if (!stopped && !indexer) indexer = startIndexer();
  }, 1000);
  indexerStart.unref();
  /** The indexer's process, started now if something asks for it before its delayed start. */
  const indexerNow = (): ChildProcess | undefined => {
    if (stopped) return undefined;
    if (!indexer) {
      clearTimeout(indexerStart);
      indexer = startIndexer();
    }
    return indexer;
  };

  const run: SqlRunner = (statement, budgetMs, caller = '') =>
    new Promise((resolve, reject) => {
      if (stopped) return reject(new Error('search is stopped'));
      const job: Job = {
        id: nextId++,
        caller,
        statement,
        resolve,
        reject,
        deadline: Date.now() + budgetMs,
        budgetMs,
      };
      queue.push(job);
      // A job still waiting for a process at its deadline is refused then.
      const waiting = setTimeout(() => {
        if (queue.remove(job)) reject(new BudgetExceeded(budgetMs));
      }, budgetMs);
      const settle = () => clearTimeout(waiting);
      job.resolve = (rows) => {
        settle();
        resolve(rows);
      };
      job.reject = (error) => {
        settle();
        reject(error);
      };
      dispatch();
    });

  return {
    run,
    size,
    kickIndexer() {
      const child = indexerNow();
      if (child?.connected) child.send({ id: 0, kick: true });
    },
    maintain: (kind) =>
      new Promise<boolean>((resolve) => {
        const child = indexerNow();
        if (!child?.connected) return resolve(false);
        maintained.push(resolve);
        child.send({ id: 1, maintain: kind });
      }),
    refreshStatistics,
    async stop() {
      stopped = true;
      clearTimeout(indexerStart);
      indexer?.kill('SIGKILL');
      for (const job of queue.drain()) job.reject(new Error('search is stopped'));
      await Promise.all(
        workers.map(
          (w) =>
            new Promise<void>((resolve) => {
              if (w.child.exitCode !== null || w.child.signalCode !== null) return resolve();
              w.child.once('exit', () => resolve());
              w.child.kill('SIGKILL');
            }),
        ),
      );
    },
  };
}
