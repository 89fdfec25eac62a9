import cluster from 'node:cluster';
import { existsSync, mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { dirname, join } from 'node:path';
import {
  createNotificationWorker,
  createOrm,
  createVcsWorker,
  type DatabaseConfig,
  type Em,
  migrate,
  type Orm,
  purgeExpiredProjects,
  SharedDirectoryMismatch,
  seed,
  startSearchEngine,
  startWalCheckpointer,
  sweepAttachmentFiles,
} from '@trackline/domain';
import {
  attachmentStoreLabel,
  attachmentsToMove,
  openAttachmentStore,
} from './attachments/attachment-stores.js';
import { openLimitsStore } from './auth/limit-stores.js';
import {
  attachmentQuotasFromEnv,
  attachmentStoreFromEnv,
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
import { createSmtpTransport } from './notifications/smtp-transport.js';
import { createWebhookPoster } from './notifications/webhook-http.js';
import { createServer, type ServerOptions } from './server.js';
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

/**
 * The attachment store of the settings (`attachments/attachment-stores.ts`). A shared folder that
 * is not the other hosts' ends the process with one line and status 2, like a bad setting; rows
 * naming contents the database lacks are one warning line at start.
 */
export async function openAttachments(env: Env, orm: Orm) {
  const config = attachmentStoreFromEnv(env);
  try {
    const store = await openAttachmentStore(config, orm);
    const warning = await attachmentsToMove(config, orm);
    if (warning && cluster.isPrimary) console.warn(`trackline: ${warning}`);
    return store;
  } catch (error) {
    if (!(error instanceof SharedDirectoryMismatch)) throw error;
    console.error(`trackline: TRACKLINE_ATTACHMENTS_DIR: ${error.message}`);
    process.exit(2);
  }
}

/** A server started by `startServer`: listening, its workers running. */
export type RunningServer = {
  server: Server;
  orm: Orm;
  db: DatabaseConfig;
  /** The port it listens on (the one the system chose for PORT=0). */
  port: number;
  /** Stops accepting requests, finishes those in progress, stops the workers and closes the database. */
  stop(): Promise<void>;
  /** Stops at once: connections dropped, worker processes killed, the database closed. */
  kill(): Promise<void>;
};

export type StartOptions = {
  /** Server options over those the settings give (a logger, say); tests and tools only. */
  server?: Partial<ServerOptions>;
  /** Where the background parts report failures (search processes, checkpoints, sweeps); standard error by default. */
  reportError?: (message: string, error?: unknown) => void;
  /** The database as `prepareDatabase` left it, when the caller prepared it (the cluster's primary does). */
  prepared?: Awaited<ReturnType<typeof prepareDatabase>>;
};

/**
 * The one composition of a server process, as `./trackline start` runs it and as the HTTP tests
 * start it: the database prepared, the WAL checkpointer (SQLite file), the search engine (its
 * worker processes and text indexer on SQLite, its sessions on PostgreSQL), the VCS worker, the
 * limit counters' store, the attachment store, the HTTP server on PORT/HOST, and the trash sweep.
 */
export async function startServer(
  env: Env,
  options: StartOptions = {},
): Promise<RunningServer & { rootPasswordHint: string }> {
  const report =
    options.reportError ??
    ((message: string, error?: unknown) => console.error(`trackline: ${message}`, ...(error ? [error] : [])));
  const { orm, db, rootPasswordHint } = options.prepared ?? (await prepareDatabase(env));
  // WAL checkpoints (and their fsyncs) on a thread of their own, not in whichever request commits.
  const checkpointer =
    db.kind === 'sqlite' && db.file !== ':memory:'
      ? await startWalCheckpointer(orm, db.file, { logError: (message) => report(message) })
      : null;
  // Search statements run within a budget, off the event loop (worker processes on SQLite).
  const search = await startSearchEngine(orm, {
    budgetMs: env.TRACKLINE_SEARCH_BUDGET_MS,
    timeZone: env.TRACKLINE_TIME_ZONE,
    workers: env.TRACKLINE_SEARCH_WORKERS,
    ...(db.kind === 'sqlite' ? { file: db.file } : {}),
    logError: (message) => report(message),
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
  const serverOverrides = options.server ?? {};
  // A caller's attachment options (a test's size limit, its own folder) are laid over the
  // settings' one by one, so that a caller naming only a limit keeps the configured store.
  const attachmentOverrides = serverOverrides.attachments ?? {};
  const attachments = attachmentOverrides.store ?? (await openAttachments(env, orm));
  const server = createServer({
    orm,
    // The structured log (security events) on standard output, one JSON object per line.
    logger: options.server?.logger ?? createLogger({ level: env.TRACKLINE_LOG_LEVEL }),
    attachments: {
      maxBytes: env.TRACKLINE_MAX_ATTACHMENT_BYTES,
      quotas: attachmentQuotasFromEnv(env),
      ...attachmentOverrides,
      store: attachments,
    },
    // Limits a caller sets replace the settings' values; their counters stay in the configured store
    // (shared by every host on PostgreSQL or Redis) unless it names one.
    limits: { ...limitsFromEnv(env), store: limitsStore, ...serverOverrides.limits },
    inputLimits: inputLimitsFromEnv(env),
    publicUrl: env.PUBLIC_URL,
    resourceLimits: resourceLimitsFromEnv(env),
    trashDays: env.TRACKLINE_TRASH_DAYS,
    consoleDir: consoleDirFromEnv(env),
    loginQueryPassword: env.TRACKLINE_LOGIN_QUERY_PASSWORD === 'on',
    allowedOrigins: env.TRACKLINE_ALLOWED_ORIGINS,
    // Outputs built from typed rows by our own code are written unchecked only in production.
    outputChecks: env.NODE_ENV === 'production' ? 'untrusted' : 'all',
    emailAvailable: env.TRACKLINE_SMTP_URL !== undefined,
    ...(worker ? { onVcsDelivery: () => worker.kick() } : {}),
    ...withoutMerged(serverOverrides),
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
      .catch((error: unknown) => report('purging the project trash failed', error));
  // Files no attachment uses any more (their issue or attachment was deleted) go with the same sweep.
  const sweepFiles = () =>
    sweepAttachmentFiles(orm.em.fork() as Em, attachments).catch((error: unknown) =>
      report('sweeping attachment files failed', error),
    );
  const firstSweep = purgeTrash().then(sweepFiles);
  const trashSweep = setInterval(() => void purgeTrash().then(sweepFiles), 60 * 60 * 1000);
  trashSweep.unref();
  await new Promise<void>((resolve) => server.listen(env.PORT, env.HOST, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  // The notification worker, once the port (and so the base URL of its links) is known.
  const notifier = startNotifier(env, orm, port, load.busy, report);

  const closeAll = async () => {
    clearInterval(trashSweep);
    await firstSweep;
    await (worker?.stop() ?? Promise.resolve());
    await notifier?.stop();
    await search.stop();
    await checkpointer?.stop();
    await limitsStore.close();
    // A test may have closed the database under a running server (to make it fail).
    if (await orm.isConnected()) await orm.close();
  };
  let stopped: Promise<void> | undefined;
  return {
    server,
    orm,
    db,
    port,
    rootPasswordHint,
    stop() {
      stopped ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Idle keep-alive connections would hold the close open until their timeout.
        server.closeIdleConnections();
        // Search workers are processes: killed at once, a statement in progress never delays the exit.
        void search.stop();
        await closed;
        await closeAll();
      })();
      return stopped;
    },
    kill() {
      stopped ??= (async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await closeAll();
      })();
      return stopped;
    },
  };
}

/** The caller's options but those merged field by field above (limits, attachments). */
const withoutMerged = ({ limits: _limits, attachments: _attachments, ...rest }: Partial<ServerOptions>) =>
  rest;

/** One server process: the HTTP server, the VCS worker, the trash sweep; stops on SIGTERM/SIGINT. */
export async function serve(env: Env): Promise<void> {
  const running = await startServer(env);
  const where = running.db.kind === 'sqlite' ? running.db.file : 'PostgreSQL';
  console.log(
    `trackline: listening on http://${env.HOST}:${running.port} (database: ${where}; limits: ${limitsStoreFromEnv(env).kind}; attachments: ${attachmentStoreLabel(attachmentStoreFromEnv(env))}; pid ${process.pid})`,
  );
  // Several processes: the primary printed them (see main.ts).
  if (cluster.isPrimary) printWhereToGo(env, running.port, running.rootPasswordHint);

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(
      `trackline: ${signal}: finishing the requests in progress, then stopping (pid ${process.pid})`,
    );
    // The worker finishes the unit in progress; the rest of its delivery stays leased and is
    // taken over (by this or another process) when the lease runs out.
    void running.stop().then(() => {
      console.log(`trackline: stopped (pid ${process.pid})`);
      process.exit(0);
    });
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/**
 * The notification worker of this process (TRACKLINE_NOTIFY_WORKER): e-mail through the SMTP
 * server when one is set, webhooks through the guarded HTTP client; it keeps to its share of the
 * time while requests are in flight, as the VCS worker does.
 */
function startNotifier(
  env: Env,
  orm: Orm,
  port: number,
  busy: () => boolean,
  report: (message: string, error?: unknown) => void,
) {
  if (env.TRACKLINE_NOTIFY_WORKER !== 'on') return null;
  const baseUrl = displayUrl(env, port);
  const smtp = env.TRACKLINE_SMTP_URL
    ? createSmtpTransport(env.TRACKLINE_SMTP_URL, env.TRACKLINE_SMTP_FROM, baseUrl)
    : undefined;
  let sends = 0;
  const faultAfter = env.TRACKLINE_NOTIFY_FAULT_EXIT_AFTER_SENDS;
  const notifier = createNotificationWorker(orm, {
    pollMs: env.TRACKLINE_NOTIFY_POLL_MS,
    leaseMs: env.TRACKLINE_NOTIFY_LEASE_MS,
    mergeWindowMs: env.TRACKLINE_NOTIFY_MERGE_SECONDS * 1000,
    email: smtp,
    webhooks: {
      ...createWebhookPoster({
        allowPrivate: env.TRACKLINE_WEBHOOK_ALLOW_PRIVATE === 'on',
        timeoutMs: env.TRACKLINE_WEBHOOK_TIMEOUT_MS,
        baseUrl,
      }),
      firstRetryMs: env.TRACKLINE_WEBHOOK_RETRY_FIRST_MS,
      retryForMs: env.TRACKLINE_WEBHOOK_RETRY_FOR_MS,
    },
    busy,
    logError: (error) => report('notifications', error),
    ...(faultAfter
      ? {
          // Crash drills: killed between the server's acceptance and our record of it.
          afterSend: () => {
            if (++sends < faultAfter) return;
            console.log('trackline: notification fault injection: killing the process after a send');
            process.kill(process.pid, 'SIGKILL');
          },
        }
      : {}),
  });
  notifier.start();
  return {
    async stop() {
      await notifier.stop();
      smtp?.close();
    },
  };
}
