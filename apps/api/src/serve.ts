import cluster from 'node:cluster';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  createFileAttachmentStore,
  createOrm,
  createVcsWorker,
  type DatabaseConfig,
  type Em,
  migrate,
  type Orm,
  purgeExpiredProjects,
  seed,
  startSearchEngine,
  startWalCheckpointer,
  sweepAttachmentFiles,
} from '@trackline/domain';
import { openLimitsStore } from './auth/limit-stores.js';
import {
  attachmentQuotasFromEnv,
  attachmentsDirFromEnv,
  consoleDirFromEnv,
  databaseFromEnv,
  displayUrl,
  type Env,
  inputLimitsFromEnv,
  limitsFromEnv,
  limitsStoreFromEnv,
  resourceLimitsFromEnv,
} from './env.js';
import { createLoadSignal } from './http/load-signal.js';
import { createLogger } from './log/logger.js';
import { createServer } from './server.js';
import { vcsFaultHooks } from './webhooks/fault-injection.js';

/**
 * Opens the database, brings its schema up to date and makes sure `root` exists (printing its
 * generated password on a new database). Every process does it: it is idempotent, and the first
 * to run does the work (PostgreSQL migrations take an advisory lock).
 */
export async function prepareDatabase(
  env: Env,
): Promise<{ orm: Orm; db: DatabaseConfig; rootPasswordHint: string }> {
  const db = databaseFromEnv(env);
  if (db.kind === 'sqlite' && db.file !== ':memory:') mkdirSync(dirname(db.file), { recursive: true });
  const orm = await createOrm(db);
  const applied = await migrate(orm);
  if (applied.length > 0) console.log(`trackline: applied migrations ${applied.join(', ')}`);
  const seeded = await seed(orm, { adminPassword: env.ADMIN_PASSWORD });
  const rootPasswordHint = seeded.generatedPassword
    ? 'the generated password printed above'
    : seeded.createdRoot
      ? 'the password from ADMIN_PASSWORD'
      : 'the password set when this database was created (ADMIN_PASSWORD, or the generated one printed then)';
  if (seeded.generatedPassword) {
    console.log(
      `trackline: created administrator 'root' with generated password: ${seeded.generatedPassword}`,
    );
    console.log(
      'trackline: this password is shown once; set ADMIN_PASSWORD to choose your own on a new database.',
    );
  }
  return { orm, db, rootPasswordHint };
}

/**
 * The lines that tell a person where to go: the console, the docs page, the health check, and
 * how to log in as root. Printed once (by the only process, or by the primary of several).
 */
export function printWhereToGo(env: Env, port: number, rootPasswordHint: string): void {
  const base = displayUrl(env, port);
  const consoleUrl = existsSync(join(consoleDirFromEnv(env), 'index.html'))
    ? `${base}/`
    : `${base}/ (not built: run pnpm build)`;
  console.log(`trackline: console ${consoleUrl} · API docs ${base}/rest/docs · health ${base}/health`);
  console.log(`trackline: log in as root with ${rootPasswordHint}`);
}

/** One server process: the HTTP server, the VCS worker, the trash sweep; stops on SIGTERM/SIGINT. */
export async function serve(env: Env): Promise<void> {
  const { orm, db, rootPasswordHint } = await prepareDatabase(env);
  // WAL checkpoints (and their fsyncs) on a thread of their own, not in whichever request commits.
  const checkpointer =
    db.kind === 'sqlite' && db.file !== ':memory:'
      ? await startWalCheckpointer(orm, db.file, {
          logError: (message) => console.error(`trackline: ${message}`),
        })
      : null;
  // Search statements run within a budget, off the event loop (worker processes on SQLite).
  const search = await startSearchEngine(orm, {
    budgetMs: env.TRACKLINE_SEARCH_BUDGET_MS,
    timeZone: env.TRACKLINE_TIME_ZONE,
    workers: env.TRACKLINE_SEARCH_WORKERS,
    ...(db.kind === 'sqlite' ? { file: db.file } : {}),
    logError: (message) => console.error(`trackline: ${message}`),
  });

  // While requests are in flight or keep arriving (not a trickle), the worker keeps to its share
  // of the time (VCS_WORKER_SHARE, VCS_DEFER_MS).
  const load = createLoadSignal();
  // Applies stored VCS deliveries; polls (other processes store too) and is kicked by our receiver.
  const worker =
    env.VCS_WORKER === 'on'
      ? createVcsWorker(orm, {
          pollMs: env.VCS_POLL_MS,
          leaseMs: env.VCS_LEASE_MS,
          ...(env.VCS_DEFER_MS > 0
            ? { busy: load.busy, maxDeferMs: env.VCS_DEFER_MS, share: env.VCS_WORKER_SHARE }
            : {}),
          ...vcsFaultHooks(env.VCS_FAULT_EXIT_AFTER_UNITS),
        })
      : null;
  // Login-throttle and request-limit counters: shared by every process when in PostgreSQL or Redis.
  const limitsStore = await openLimitsStore(limitsStoreFromEnv(env));
  const attachments = createFileAttachmentStore(attachmentsDirFromEnv(env));
  const server = createServer({
    orm,
    // The structured log (security events) on standard output, one JSON object per line.
    logger: createLogger({ level: env.TRACKLINE_LOG_LEVEL }),
    attachments: {
      store: attachments,
      maxBytes: env.TRACKLINE_MAX_ATTACHMENT_BYTES,
      quotas: attachmentQuotasFromEnv(env),
    },
    limits: { ...limitsFromEnv(env), store: limitsStore },
    inputLimits: inputLimitsFromEnv(env),
    publicUrl: env.PUBLIC_URL,
    resourceLimits: resourceLimitsFromEnv(env),
    trashDays: env.TRACKLINE_TRASH_DAYS,
    consoleDir: consoleDirFromEnv(env),
    loginQueryPassword: env.TRACKLINE_LOGIN_QUERY_PASSWORD === 'on',
    allowedOrigins: env.TRACKLINE_ALLOWED_ORIGINS,
    // Outputs built from typed rows by our own code are written unchecked only in production.
    outputChecks: env.NODE_ENV === 'production' ? 'untrusted' : 'all',
    ...(worker ? { onVcsDelivery: () => worker.kick() } : {}),
  });
  server.on('request', (_req, res) => {
    load.arrived();
    res.once('close', load.finished);
  });
  worker?.start();

  // Deleted projects leave the trash for good after TRACKLINE_TRASH_DAYS: at start, then hourly.
  const purgeTrash = () =>
    purgeExpiredProjects(orm.em.fork() as Em, env.TRACKLINE_TRASH_DAYS)
      .then((purged) => {
        if (purged.length > 0) console.log(`trackline: purged deleted projects ${purged.join(', ')}`);
      })
      .catch((error: unknown) => console.error('trackline: purging the project trash failed', error));
  // Files no attachment uses any more (their issue or attachment was deleted) go with the same sweep.
  const sweepFiles = () =>
    sweepAttachmentFiles(orm.em.fork() as Em, attachments).catch((error: unknown) =>
      console.error('trackline: sweeping attachment files failed', error),
    );
  void purgeTrash().then(sweepFiles);
  const trashSweep = setInterval(() => void purgeTrash().then(sweepFiles), 60 * 60 * 1000);
  trashSweep.unref();
  server.listen(env.PORT, env.HOST, () => {
    const where = db.kind === 'sqlite' ? db.file : 'PostgreSQL';
    const limits = `limits: ${limitsStore.kind}`;
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : env.PORT;
    console.log(
      `trackline: listening on http://${env.HOST}:${port} (database: ${where}; ${limits}; pid ${process.pid})`,
    );
    // Several processes: the primary printed them (see main.ts).
    if (cluster.isPrimary) printWhereToGo(env, port, rootPasswordHint);
  });

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(
      `trackline: ${signal}: finishing the requests in progress, then stopping (pid ${process.pid})`,
    );
    // The worker finishes the unit in progress; the rest of its delivery stays leased and is
    // taken over (by this or another process) when the lease runs out.
    server.close(
      () =>
        void (worker?.stop() ?? Promise.resolve())
          .then(() => search.stop())
          .then(() => checkpointer?.stop())
          .then(() => orm.close())
          .then(() => {
            console.log(`trackline: stopped (pid ${process.pid})`);
            process.exit(0);
          }),
    );
    // Idle keep-alive connections would hold the close open until their timeout.
    server.closeIdleConnections();
    // Search workers are processes: killed at once, a statement in progress never delays the exit.
    void search.stop();
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
