import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Orm } from './open-orm.js';

/** The main connection's own checkpoints, while the thread runs: only if the thread falls behind (40 MB of WAL). */
const SAFETY_NET_PAGES = 10_000;
/** SQLite's default, restored when the thread stops. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

export type WalCheckpointer = {
  /** Frames the thread has copied into the database file so far. */
  checkpointedFrames(): number;
  stop(): Promise<void>;
};

/**
 * Moves a SQLite file database's WAL checkpoints off the request thread. With
 * `synchronous = normal`, a commit writes to the WAL without fsync, and the connection that
 * commits past 1,000 WAL pages copies them into the database file and fsyncs both: a third of
 * the cost of storing a webhook delivery, paid at random by whichever request commits then.
 * Here a thread of its own checkpoints passively every `intervalMs` (never waiting for readers or
 * the writer); the main connection keeps a checkpoint of its own at 10,000 pages, in case the
 * thread falls behind.
 */
export async function startWalCheckpointer(
  orm: Orm,
  file: string,
  options: { intervalMs?: number; logError?: (message: string) => void } = {},
): Promise<WalCheckpointer> {
  const conn = orm.em.getConnection();
  // better-sqlite3 is the SQLite driver's own dependency: resolved from there.
  const driverPath = createRequire(import.meta.resolve('@mikro-orm/sqlite')).resolve('better-sqlite3');
  const thread = new URL(
    `./wal-checkpoint-thread${extname(fileURLToPath(import.meta.url))}`,
    import.meta.url,
  );
  const worker = new Worker(thread, {
    workerData: { file, driverPath, intervalMs: options.intervalMs ?? 100 },
  });
  worker.unref();
  let frames = 0;
  worker.on('message', (message: { checkpointed?: number; error?: string }) => {
    if (message.checkpointed) frames += message.checkpointed;
    if (message.error) options.logError?.(`WAL checkpoint: ${message.error}`);
  });
  worker.on('error', (error) => options.logError?.(`WAL checkpoint thread: ${error.message}`));
  let stopping = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  // A thread that dies on its own (it cannot open the file, say) hands checkpoints back at once.
  // Never an unhandled rejection: a failure to hand back is reported, not thrown at the process.
  const handBack = exited
    .then(async () => {
      if (!stopping) await conn.execute(`pragma wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    })
    .catch((error: unknown) =>
      options.logError?.(
        `WAL checkpoint hand-back: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  await conn.execute(`pragma wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
  return {
    checkpointedFrames: () => frames,
    async stop() {
      stopping = true;
      worker.postMessage('stop');
      await exited;
      await handBack;
      await conn.execute(`pragma wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    },
  };
}
