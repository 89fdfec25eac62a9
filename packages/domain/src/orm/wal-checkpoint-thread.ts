// The thread of `startWalCheckpointer` (wal-checkpointer.ts): its own connection to the SQLite
// file, checkpointing the WAL passively (never waiting for readers or the writer) every
// `intervalMs`, and reporting the frames it copied. Plain JavaScript syntax: node runs this file
// itself (as .js when built, as .ts with type stripping under the tests).
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

const { file, driverPath, intervalMs } = workerData as {
  file: string;
  driverPath: string;
  intervalMs: number;
};
type Db = { pragma(sql: string): unknown; close(): void };
const Database = createRequire(import.meta.url)(driverPath) as new (file: string) => Db;
const db = new Database(file);
db.pragma('busy_timeout = 0');

const timer = setInterval(() => {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    if (row && row.checkpointed > 0) parentPort?.postMessage({ checkpointed: row.checkpointed });
  } catch (error) {
    parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
}, intervalMs);

parentPort?.on('message', (message: unknown) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort?.close();
});
