import { join } from 'node:path';
// The package by its name (as the domain's test kit reaches the domain): the server these tests
// start is the one the package builds, and the API's own suites resolve the name to its sources.
import { createLogger, type RunningServer, readEnv, type ServerOptions, startServer } from '@trackline/api';
import type { Orm } from '@trackline/domain';
import { createServerTestDatabase, type ServerTestDatabase } from '@trackline/domain/testing';

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
};

export type LiveTestServer = {
  url: string;
  port: number;
  orm: Orm;
  database: ServerTestDatabase;
  /** The structured log's lines so far, parsed. */
  logLines(): Record<string, unknown>[];
  /** Stops the server at once, removes its database, and fails on any 500 it answered. */
  close(): Promise<void>;
};

/** Log lines that say a request was answered with 500, or an unexpected error was logged. */
export function serverErrorLines(lines: Record<string, unknown>[]): Record<string, unknown>[] {
  return lines.filter((line) => (line.log === 'http' && line.status === 500) || line.log === 'error');
}

export async function startLiveTestServer(options: TestServerOptions = {}): Promise<LiveTestServer> {
  const database = await createServerTestDatabase();
  const raw: string[] = [];
  const logger = createLogger({
    level: 'info',
    destination: { write: (line: string) => void raw.push(line) },
  });
  const env = readEnv({
    ...(database.kind === 'sqlite' ? { TRACKLINE_DB: database.file } : { DATABASE_URL: database.url }),
    PORT: '0',
    HOST: '127.0.0.1',
    NODE_ENV: 'test',
    TRACKLINE_PROCESSES: '1',
    TRACKLINE_ATTACHMENTS_DIR: join(database.dir, 'attachments'),
    TRACKLINE_CONSOLE_DIR: join(database.dir, 'no-console'),
    TRACKLINE_RATE_LIMIT: 'off',
    TRACKLINE_LOGIN_THROTTLE: 'off',
    ...options.settings,
  });
  const reported: string[] = [];
  let running: RunningServer;
  try {
    running = await startServer(env, {
      server: { logger, ...(options.logError ? { logError: options.logError } : {}), ...options.handler },
      reportError: (message, error) => reported.push(error ? `${message}: ${String(error)}` : message),
    });
  } catch (error) {
    await database.remove();
    throw error;
  }
  // Node's default (5 s) races fetch's pooled connection when a test blocks the event loop for
  // seconds on a loaded machine: the request written right after the block meets the server's
  // idle timer and fails with ECONNRESET. `close()` ends every connection.
  running.server.keepAliveTimeout = 60_000;
  const logLines = () =>
    raw.flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${running.port}`,
    port: running.port,
    orm: running.orm,
    database,
    logLines,
    close() {
      closed ??= (async () => {
        await running.kill();
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
