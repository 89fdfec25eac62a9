// A search worker (see search-pool.ts): a child process with its own read-only connection to
// the SQLite file, answering one statement at a time over IPC. Being a process, it can be killed
// the moment a statement runs past the budget (better-sqlite3 is built without SQLite's progress
// handler and has no interrupt, and a thread cannot be stopped inside a native call), and it
// never holds the server's event loop. Plain JavaScript syntax: node runs this file itself (as
// .js when built, as .ts with type stripping under the tests).
import { createRequire } from 'node:module';
import type { IndexerStatements } from './search-index.js';

type Db = {
  pragma(sql: string): unknown;
  prepare(sql: string): {
    all(...params: unknown[]): unknown[];
    run(...params: unknown[]): unknown;
    raw(on: boolean): { all(...params: unknown[]): unknown[] };
  };
  transaction(fn: () => void): () => void;
  close(): void;
};
type Job = {
  id: number;
  sql?: string;
  params?: unknown[];
  maintain?: 'bulk' | 'check';
  index?: IndexerStatements;
  kick?: boolean;
};

const [file = '', driverPath = '', writable = '', textIndexFile = ''] = process.argv.slice(2);
const Database = createRequire(import.meta.url)(driverPath) as new (file: string, options?: object) => Db;
const db = new Database(file, writable === 'rw' ? {} : { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
// The text index's file (orm/text-index-file.ts), opened read-only like the main one when this
// process only reads.
db.prepare('attach database ? as fts').run(textIndexFile);
for (const schema of ['main', 'fts']) {
  db.pragma(`${schema}.cache_size = -65536`);
  db.pragma(`${schema}.mmap_size = 1073741824`);
}
db.pragma('temp_store = memory');
// The index's words for wildcard patterns (orm/text-index-file.ts, CREATE_TEXT_INDEX_WORDS; a
// copy, this file being plain syntax), in `temp`: after `temp_store`, whose change drops temporary
// tables, and before the connection turns query-only.
db.prepare(
  'create virtual table if not exists temp.issue_fts_words using fts5vocab(fts, issue_fts, instance)',
).run();
if (writable !== 'rw') db.pragma('query_only = 1');

const statements = new Map<string, ReturnType<Db['prepare']>>();
function prepared(sql: string) {
  let statement = statements.get(sql);
  if (!statement) {
    if (statements.size > 200) statements.clear();
    statement = db.prepare(sql);
    statements.set(sql, statement);
  }
  return statement;
}

// The indexer (a `rw` process): re-indexes queued issues batch by batch (search-index.ts: the
// index's file in one transaction, then the batch dequeued in a short one on the main file); while
// the queue has issues it goes on at once, else it looks again after a short pause.
let indexer: IndexerStatements | null = null;
let nextLook: ReturnType<typeof setTimeout> | undefined;
function indexLoop() {
  let pause = 100;
  try {
    const statements = indexer as IndexerStatements;
    const [row] = prepared(statements.queued).all() as { queued: number }[];
    if (row?.queued) {
      db.transaction(() => {
        for (const sql of statements.index) prepared(sql).run();
      })();
      db.transaction(() => {
        for (const sql of statements.dequeue) prepared(sql).run();
      })();
      pause = 5; // lets the server's writers take the lock between batches
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Busy: the server's writers had the lock all along; the queue waits for the next turn.
    if (/database is locked|SQLITE_BUSY/.test(message)) pause = 50;
    else {
      process.send?.({ id: -1, error: message });
      pause = 1000;
    }
  }
  nextLook = setTimeout(indexLoop, pause);
  nextLook.unref();
}

process.on('message', (job: Job) => {
  try {
    if (job.index) {
      indexer = job.index;
      indexLoop();
      return;
    }
    if (job.kick) {
      // A search waits for the text the queue holds: look now, not after the idle pause.
      if (indexer) {
        clearTimeout(nextLook);
        indexLoop();
      }
      return;
    }
    if (job.maintain) {
      // Statistics for the planner, approximate (a thousand rows an index): after bulk writes
      // every table is analysed; otherwise `pragma optimize` analyses the tables whose size moved
      // by a factor of ten, and says first whether there are any (its debugging mode, 0x1).
      db.pragma('analysis_limit = 1000');
      let analyzed = true;
      if (job.maintain === 'bulk') db.prepare('analyze').run();
      else {
        analyzed = (db.pragma('optimize = 0x10003') as unknown[]).length > 0;
        if (analyzed) db.pragma('optimize = 0x10002');
      }
      process.send?.({ id: job.id, rows: [], analyzed });
      return;
    }
    const rows = prepared(job.sql ?? '')
      .raw(true)
      .all(...(job.params ?? []));
    process.send?.({ id: job.id, rows });
  } catch (error) {
    process.send?.({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});
process.on('disconnect', () => {
  db.close();
  process.exit(0);
});
