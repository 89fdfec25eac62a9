// A search worker (see search-pool.ts): a child process with its own read-only connection to
// the SQLite file, answering one statement at a time over IPC. Being a process, it can be killed
// the moment a statement runs past the budget (better-sqlite3 is built without SQLite's progress
// handler and has no interrupt, and a thread cannot be stopped inside a native call), and it
// never holds the server's event loop. Plain JavaScript syntax: node runs this file itself (as
// .js when built, as .ts with type stripping under the tests).
import { createRequire } from 'node:module';

type Db = {
  pragma(sql: string): unknown;
  prepare(sql: string): { all(...params: unknown[]): unknown[]; raw(on: boolean): { all(...params: unknown[]): unknown[] } };
  close(): void;
};
type Job = { id: number; sql?: string; params?: unknown[]; maintain?: boolean };

const [file = '', driverPath = '', writable = ''] = process.argv.slice(2);
const Database = createRequire(import.meta.url)(driverPath) as new (file: string, options?: object) => Db;
const db = new Database(file, writable === 'rw' ? {} : { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('cache_size = -65536');
db.pragma('mmap_size = 1073741824');
db.pragma('temp_store = memory');
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

process.on('message', (job: Job) => {
  try {
    if (job.maintain) {
      // Statistics for the planner, kept current cheaply: approximate ANALYZE of what changed.
      db.pragma('analysis_limit = 1000');
      db.pragma('optimize = 0x10002');
      process.send?.({ id: job.id, rows: [] });
      return;
    }
    const rows = prepared(job.sql ?? '').raw(true).all(...(job.params ?? []));
    process.send?.({ id: job.id, rows });
  } catch (error) {
    process.send?.({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});
process.on('disconnect', () => {
  db.close();
  process.exit(0);
});
