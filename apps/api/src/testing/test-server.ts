import { join } from 'node:path';
// The package by its name (as the domain's test kit reaches the domain): the server these tests
// start is the one the package builds, and the API's own suites resolve the name to its sources.
import { createLogger, type RunningServer, readEnv, type ServerOptions, startServer } from '@trackline/api';
import type { Orm } from '@trackline/domain';
import { createServerTestDatabase, type ServerTestDatabase } from '@trackline/domain/testing';
import { type Balancer, startBalancer } from './load-balancer.js';

/**
 * The server of the HTTP, client and browser suites: `startServer`, the one composition
 * `./trackline start` runs (search engine with its worker processes and text indexer on a SQLite
 * file, the WAL checkpointer, the VCS worker, the limits store; on PostgreSQL its search sessions),
 * from settings read by `readEnv` as the real ones are. Only settings differ from a default start:
 * a database of the test's own (a SQLite file in a folder of its own, or a scratch PostgreSQL
 * database), a free loopback port, no console unless asked, and no rate limit or login throttle
 * unless a test sets them (limits have suites of their own).
 *
 * Its structured log is kept: `close()` fails when any request was answered with status 500 (or
 * an error was logged with one), naming the requests and the errors, unless the test said it
 * provokes them.
 */
export type TestServerOptions = {
  /** Server options over what the settings give (a logger, limits, attachments, …). */
  handler?: Partial<ServerOptions>;
  /** Settings (environment variables) over the test defaults. */
  settings?: Record<string, string>;
  /** Also receives each unexpected error (the log keeps them too). */
  logError?: (error: unknown) => void;
  /** The test makes the server fail on purpose: its 500 answers do not fail the run. */
  provokesServerErrors?: boolean;
  /**
   * Servers started on the one database (PostgreSQL), each with a data folder of its own, behind a
   * load balancer that sends each request to the host after the previous one's (1 by default).
   */
  hosts?: number;
};

export type LiveTestServer = {
  /** The server's address (the load balancer's, with several hosts). */
  url: string;
  /** The first host's port and database connection. */
  port: number;
  orm: Orm;
  database: ServerTestDatabase;
  /** The structured log's lines so far (every host's), parsed. */
  logLines(): Record<string, unknown>[];
  /** Stops the server at once, removes its database, and fails on any 500 it answered. */
  close(): Promise<void>;
};

/** Log lines that say a request was answered with 500, or an unexpected error was logged. */
export function serverErrorLines(lines: Record<string, unknown>[]): Record<string, unknown>[] {
  return lines.filter((line) => (line.log === 'http' && line.status === 500) || line.log === 'error');
}

export async function startLiveTestServer(options: TestServerOptions = {}): Promise<LiveTestServer> {
  const hostCount = options.hosts ?? 1;
  const database = await createServerTestDatabase();
  if (hostCount > 1 && database.kind !== 'postgresql') {
    await database.remove();
    throw new Error('several hosts need a PostgreSQL database (TRACKLINE_TEST_DB=postgres)');
  }
  const logs: string[][] = [];
  const reported: string[] = [];
  const hosts: RunningServer[] = [];
  let balancer: Balancer | undefined;
  const stopAll = async () => {
    await balancer?.close();
    await Promise.all(hosts.map((host) => host.kill()));
  };
  try {
    for (let n = 1; n <= hostCount; n++) {
      const raw: string[] = [];
      logs.push(raw);
      const logger = createLogger({
        level: 'info',
        destination: { write: (line: string) => void raw.push(line) },
      });
      // Each host's files in a folder of its own, as on machines of their own.
      const dataDir = hostCount > 1 ? join(database.dir, `host-${n}`) : database.dir;
      const env = readEnv({
        ...(database.kind === 'sqlite' ? { TRACKLINE_DB: database.file } : { DATABASE_URL: database.url }),
        PORT: '0',
        HOST: '127.0.0.1',
        NODE_ENV: 'test',
        TRACKLINE_PROCESSES: '1',
        TRACKLINE_ATTACHMENTS_DIR: join(dataDir, 'attachments'),
        TRACKLINE_CONSOLE_DIR: join(dataDir, 'no-console'),
        TRACKLINE_RATE_LIMIT: 'off',
        TRACKLINE_LOGIN_THROTTLE: 'off',
        ...options.settings,
      });
      const host = await startServer(env, {
        server: { logger, ...(options.logError ? { logError: options.logError } : {}), ...options.handler },
        reportError: (message, error) => reported.push(error ? `${message}: ${String(error)}` : message),
      });
      // Node's default (5 s) races fetch's pooled connection when a test blocks the event loop for
      // seconds on a loaded machine: the request written right after the block meets the server's
      // idle timer and fails with ECONNRESET. `close()` ends every connection.
      host.server.keepAliveTimeout = 60_000;
      hosts.push(host);
    }
    if (hostCount > 1) balancer = await startBalancer(hosts.map((host) => `http://127.0.0.1:${host.port}`));
  } catch (error) {
    await stopAll();
    await database.remove();
    throw error;
  }
  const first = hosts[0] as RunningServer;
  const logLines = () =>
    logs.flat().flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  let closed: Promise<void> | undefined;
  return {
    url: balancer?.url ?? `http://127.0.0.1:${first.port}`,
    port: first.port,
    orm: first.orm,
    database,
    logLines,
    close() {
      closed ??= (async () => {
        await stopAll();
        await database.remove();
        const failures = serverErrorLines(logLines());
        if (failures.length > 0 && !options.provokesServerErrors)
          throw new Error(
            `the test server answered 500 or logged an error:\n${failures.map((f) => JSON.stringify(f)).join('\n')}`,
          );
      })();
      return closed;
    },
  };
}
