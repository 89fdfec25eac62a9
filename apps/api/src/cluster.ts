import cluster, { type Worker } from 'node:cluster';

/**
 * Several server processes on one port (`TRACKLINE_PROCESSES`): this primary process forks the
 * workers, each a whole server (its own database pool, VCS worker and caches, all correct across
 * processes: the queue is leased, the caches follow the database epochs, the limits live in
 * PostgreSQL or Redis), and the operating system spreads connections among them through the
 * primary's shared listening socket. The primary serves nothing itself.
 *
 * A worker that dies is replaced (after a pause that grows while they keep dying young, so a
 * worker that cannot start does not spin); SIGTERM and SIGINT stop every worker (each finishes
 * its requests and its VCS unit in progress) and then the primary.
 */
export type ClusterOptions = {
  processes: number;
  log: (line: string) => void;
  /** How long a worker has to stop before it is killed. */
  stopTimeoutMs?: number;
};

const YOUNG_MS = 10_000;
const MAX_PAUSE_MS = 30_000;

export function runPrimary(options: ClusterOptions): void {
  const stopTimeoutMs = options.stopTimeoutMs ?? 10_000;
  let stopping = false;
  let pause = 250;
  const startedAt = new Map<number, number>();

  const fork = (): Worker => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
    return worker;
  };

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        options.log('all server processes stopped');
        process.exit(0);
      }
      return;
    }
    options.log(
      `server process ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another`,
    );
    pause = lived < YOUNG_MS ? Math.min(pause * 2, MAX_PAUSE_MS) : 250;
    setTimeout(() => {
      if (!stopping) fork();
    }, pause).unref();
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    options.log(`${signal}: stopping ${Object.keys(cluster.workers ?? {}).length} server processes`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      process.exit(1);
    }, stopTimeoutMs).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  for (let i = 0; i < options.processes; i++) fork();
  options.log(`started ${options.processes} server processes on one port`);
}

export const isClusterWorker = () => cluster.isWorker;
