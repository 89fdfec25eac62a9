import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type AttachmentQuotas,
  type DatabaseConfig,
  DEFAULT_ATTACHMENT_QUOTAS,
  DEFAULT_RESOURCE_LIMITS,
  DEFAULT_TRASH_DAYS,
  isTimeZone,
  type ResourceLimits,
} from '@trackline/domain';
import { z } from 'zod';
import type { AttachmentStoreConfig } from './attachments/attachment-stores.js';
import { DEFAULT_MAX_ATTACHMENT_BYTES } from './attachments/attachments.route.js';
import type { LimitsStoreConfig } from './auth/limit-stores.js';
import { DEFAULT_LIMITS, type LimitsOptions } from './auth/limits.js';
import { originOf } from './http/origin-check.js';
import { normalizePublicUrl } from './http/public-url.js';
import { LOG_LEVELS } from './log/logger.js';
import { DEFAULT_INPUT_LIMITS, type InputLimits } from './rest/request-body.js';

const onOff = (fallback: 'on' | 'off') => z.enum(['on', 'off']).default(fallback);
const positive = (fallback: number) => z.coerce.number().int().min(1).default(fallback);
const quota = (fallback: number) =>
  z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(fallback);

/** The only place that reads process.env; validated once at start-up. */
const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  TRACKLINE_DB: z.string().min(1).default('./data/trackline.sqlite'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  /**
   * Server processes on the one port (node:cluster). Default: one per core on PostgreSQL, one on
   * SQLite (an embedded file serialises its writers; more processes only add contention).
   */
  TRACKLINE_PROCESSES: z.coerce.number().int().min(1).max(64).optional(),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Per-user request rate limit (token bucket); `off` for benchmarks. Limits are per process. */
  TRACKLINE_RATE_LIMIT: onOff('on'),
  TRACKLINE_RATE_LIMIT_PER_SECOND: positive(DEFAULT_LIMITS.requests.perSecond),
  TRACKLINE_RATE_LIMIT_BURST: positive(DEFAULT_LIMITS.requests.burst),
  TRACKLINE_RATE_LIMIT_SEQUENTIAL: z.enum(['free', 'charged']).default(DEFAULT_LIMITS.requests.sequential),
  /** Failed-login throttling (login form and HTTP Basic), per login and per client IP. */
  TRACKLINE_LOGIN_THROTTLE: onOff('on'),
  TRACKLINE_LOGIN_MAX_FAILURES: positive(DEFAULT_LIMITS.logins.perLogin),
  TRACKLINE_LOGIN_MAX_FAILURES_PER_IP: positive(DEFAULT_LIMITS.logins.perIp),
  TRACKLINE_LOGIN_WINDOW_SECONDS: positive(DEFAULT_LIMITS.logins.windowSeconds),
  /** Redis for shared limit counters (`redis://127.0.0.1:6379`). */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  /**
   * Where login-throttle and request-limit counters live. Default: redis when REDIS_URL is set,
   * else postgres when DATABASE_URL is, else memory (per process).
   */
  TRACKLINE_LIMITS_STORE: z.enum(['memory', 'postgres', 'redis']).optional(),
  /** `on` behind one reverse proxy: the client IP is the last `X-Forwarded-For` entry. */
  TRACKLINE_TRUST_PROXY: onOff('off'),
  /**
   * Other origins (`https://tools.example.com`, comma-separated) whose pages may send state-changing
   * requests signed in by the session cookie, and log in (http/origin-check.ts); this server's own
   * origin always may. Default: none.
   */
  TRACKLINE_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const origins = value
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean);
      for (const origin of origins) {
        const parsed = originOf(origin);
        if (parsed === null || parsed !== origin.replace(/\/$/, '').toLowerCase())
          ctx.addIssue({ code: 'custom', message: `${origin} is not an origin (scheme://host[:port])` });
      }
      return origins.map((o) => originOf(o) as string);
    }),
  /** `POST /rest/user/login?login&password`: `off` refuses a password in the query string. */
  TRACKLINE_LOGIN_QUERY_PASSWORD: onOff('on'),
  /**
   * The base of absolute URLs in answers (`url` attributes, `Location`), e.g. `https://tracker.example.com`;
   * when unset, `http://` and the request's Host header (a malformed Host is replaced by the listening address).
   */
  PUBLIC_URL: z
    .string()
    .transform((value, ctx) => {
      try {
        return normalizePublicUrl(value);
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: (error as Error).message.replace(/^Invalid URL.*/, 'must be an absolute URL'),
        });
        return z.NEVER;
      }
    })
    .optional(),
  /** Query and body parameters one request may carry (400 beyond); see rest/request-body.ts. */
  TRACKLINE_MAX_PARAMETERS: positive(DEFAULT_INPUT_LIMITS.maxParameters),
  /** Caps on what one user owns (tags, saved searches); beyond them creating one answers 409. */
  TRACKLINE_MAX_TAGS_PER_USER: positive(DEFAULT_RESOURCE_LIMITS.maxTagsPerUser),
  TRACKLINE_MAX_SAVED_SEARCHES_PER_USER: positive(DEFAULT_RESOURCE_LIMITS.maxSavedSearchesPerUser),
  /** Days a deleted project stays in the trash (restorable) before it is purged; 0 purges at the next sweep. */
  TRACKLINE_TRASH_DAYS: z.coerce.number().int().min(0).max(36_500).default(DEFAULT_TRASH_DAYS),
  /**
   * Where attachment contents live: `postgres` (in the database, shared by every host; the
   * default with DATABASE_URL) or `directory` (TRACKLINE_ATTACHMENTS_DIR; SQLite's only choice,
   * and with PostgreSQL a folder every host mounts: checked at start).
   */
  TRACKLINE_ATTACHMENTS_STORE: z.enum(['postgres', 'directory']).optional(),
  /**
   * The attachment folder (by content hash); default: `attachments` beside the SQLite file. With
   * the `postgres` store, the folder `trackline attachments migrate` moves files from.
   */
  TRACKLINE_ATTACHMENTS_DIR: z.string().min(1).optional(),
  /** The largest attachment accepted (bytes; 413 beyond); 25 MB by default. */
  TRACKLINE_MAX_ATTACHMENT_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1)
    .default(DEFAULT_MAX_ATTACHMENT_BYTES),
  /**
   * Attachment quotas in bytes (409 beyond): what one user's uploads, one issue and the whole
   * installation may hold; 0 means no limit. Imports count against the total only.
   */
  TRACKLINE_ATTACHMENT_QUOTA_USER_BYTES: quota(DEFAULT_ATTACHMENT_QUOTAS.perUserBytes),
  TRACKLINE_ATTACHMENT_QUOTA_ISSUE_BYTES: quota(DEFAULT_ATTACHMENT_QUOTAS.perIssueBytes),
  TRACKLINE_ATTACHMENT_QUOTA_TOTAL_BYTES: quota(DEFAULT_ATTACHMENT_QUOTAS.totalBytes),
  /** The structured log's level (standard output, JSON lines); security events are `info` and `warn`. */
  TRACKLINE_LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /** The built web console served at `/`; default: `apps/web/dist` of this checkout. */
  TRACKLINE_CONSOLE_DIR: z.string().min(1).optional(),
  /**
   * Search: the time budget of one search or count statement (over it: 503 naming the budget),
   * the time zone of relative dates (`Today`, `{This week}`) and the SQLite worker processes.
   */
  TRACKLINE_SEARCH_BUDGET_MS: z.coerce.number().int().min(50).max(600_000).default(10_000),
  TRACKLINE_TIME_ZONE: z
    .string()
    .refine(isTimeZone, 'must be a time zone name such as UTC or Europe/Berlin')
    .default('UTC'),
  TRACKLINE_SEARCH_WORKERS: z.coerce.number().int().min(1).max(32).default(2),
  /** `off` stores VCS deliveries without applying them (another process's worker will). */
  VCS_WORKER: onOff('on'),
  VCS_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(100),
  /** How long a worker's claim on a delivery lasts before another process may take it over. */
  VCS_LEASE_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /**
   * While this process has requests in flight or arriving, the worker keeps to VCS_WORKER_SHARE
   * of the time, waiting at most this long at once before its next chunk (0: it only yields one
   * turn of the event loop and never waits for requests).
   */
  VCS_DEFER_MS: z.coerce.number().int().min(0).max(10_000).default(200),
  VCS_WORKER_SHARE: z.coerce.number().min(0.01).max(1).default(0.1),
  /**
   * Crash drills only: the process exits abruptly after this many (commit, issue) units were
   * committed; 0 exits right after claiming a delivery.
   */
  VCS_FAULT_EXIT_AFTER_UNITS: z.coerce.number().int().min(0).optional(),
  /**
   * Notifications (docs/notifications.md): the SMTP server e-mail goes through
   * (`smtp://user:pass@host:587`, `smtps://host:465`; unset: no e-mail is sent, the inbox and
   * webhooks still work) and the sender. Links in messages start with PUBLIC_URL (else the
   * listening address).
   */
  TRACKLINE_SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  TRACKLINE_SMTP_FROM: z.string().min(3).default('Trackline <trackline@localhost>'),
  /** Changes by one author to one issue within this many seconds make one message. */
  TRACKLINE_NOTIFY_MERGE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** `off`: this process runs no notification worker (another process does). */
  TRACKLINE_NOTIFY_WORKER: onOff('on'),
  TRACKLINE_NOTIFY_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(200),
  /** How long a worker's claim on an event, message or webhook delivery lasts. */
  TRACKLINE_NOTIFY_LEASE_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** Webhooks may target private, loopback and link-local addresses only when `on` (tests, a trusted LAN). */
  TRACKLINE_WEBHOOK_ALLOW_PRIVATE: onOff('off'),
  /** The longest a webhook delivery may take (connect, send, answer). */
  TRACKLINE_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** The wait after a failed delivery's first attempt (doubling after each, at most an hour), and how long it is retried. */
  TRACKLINE_WEBHOOK_RETRY_FIRST_MS: z.coerce.number().int().min(10).max(3_600_000).default(10_000),
  TRACKLINE_WEBHOOK_RETRY_FOR_MS: z.coerce.number().int().min(100).max(604_800_000).default(86_400_000),
  /** Crash drills only: the process kills itself (SIGKILL) right after the Nth message or delivery was accepted, before recording it. */
  TRACKLINE_NOTIFY_FAULT_EXIT_AFTER_SENDS: z.coerce.number().int().min(1).optional(),
});
export type Env = z.infer<typeof ZEnv>;
/** Every setting the server reads (`.env.example` and docs/configuration.md list each; a test checks). */
export const ENV_KEYS = Object.keys(ZEnv.shape) as (keyof Env)[];

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = ZEnv.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const { TRACKLINE_LIMITS_STORE: store, DATABASE_URL, REDIS_URL } = parsed.data;
  if (store === 'postgres' && !DATABASE_URL)
    throw new Error('Invalid configuration:\n  TRACKLINE_LIMITS_STORE: postgres needs DATABASE_URL');
  if (store === 'redis' && !REDIS_URL)
    throw new Error('Invalid configuration:\n  TRACKLINE_LIMITS_STORE: redis needs REDIS_URL');
  if (parsed.data.TRACKLINE_ATTACHMENTS_STORE === 'postgres' && !DATABASE_URL)
    throw new Error('Invalid configuration:\n  TRACKLINE_ATTACHMENTS_STORE: postgres needs DATABASE_URL');
  return parsed.data;
}

/** An entry point's settings (the server's, the CLI's): a bad one is its message alone and exit status 2. */
export function readEnvOrExit(): Env {
  try {
    return readEnv();
  } catch (error) {
    console.error(`trackline: ${(error as Error).message}`);
    process.exit(2);
  }
}

/** The database: PostgreSQL when DATABASE_URL is set, else the embedded SQLite file. */
export function databaseFromEnv(env: Env): DatabaseConfig {
  return env.DATABASE_URL
    ? { kind: 'postgresql', url: env.DATABASE_URL }
    : { kind: 'sqlite', file: env.TRACKLINE_DB };
}

/** How many server processes to run (see TRACKLINE_PROCESSES). */
export function processCountFromEnv(env: Env, cores = availableParallelism()): number {
  return env.TRACKLINE_PROCESSES ?? (env.DATABASE_URL ? cores : 1);
}

/** The attachment directory: as configured, else `attachments` beside the SQLite database file. */
export function attachmentsDirFromEnv(env: Env): string {
  return env.TRACKLINE_ATTACHMENTS_DIR ?? join(dirname(env.TRACKLINE_DB), 'attachments');
}

/**
 * Where attachment contents live (see TRACKLINE_ATTACHMENTS_STORE): in PostgreSQL by default when
 * DATABASE_URL is set, else in the folder (`shared`: hosts of one PostgreSQL must share it).
 */
export function attachmentStoreFromEnv(env: Env): AttachmentStoreConfig {
  const kind = env.TRACKLINE_ATTACHMENTS_STORE ?? (env.DATABASE_URL ? 'postgres' : 'directory');
  if (kind === 'postgres') return { kind: 'postgres' };
  return { kind: 'directory', dir: attachmentsDirFromEnv(env), shared: env.DATABASE_URL !== undefined };
}

/** Where the limit counters live (see `auth/limit-stores.ts`). */
export function limitsStoreFromEnv(env: Env): LimitsStoreConfig {
  const kind =
    env.TRACKLINE_LIMITS_STORE ?? (env.REDIS_URL ? 'redis' : env.DATABASE_URL ? 'postgres' : 'memory');
  if (kind === 'redis' && env.REDIS_URL) return { kind, url: env.REDIS_URL };
  if (kind === 'postgres' && env.DATABASE_URL) return { kind, url: env.DATABASE_URL };
  return { kind: 'memory' };
}

/** The server's limits from the environment (see `auth/limits.ts`); the store is opened by `main.ts`. */
export function limitsFromEnv(env: Env): LimitsOptions {
  return {
    requests:
      env.TRACKLINE_RATE_LIMIT === 'on'
        ? {
            perSecond: env.TRACKLINE_RATE_LIMIT_PER_SECOND,
            burst: env.TRACKLINE_RATE_LIMIT_BURST,
            sequential: env.TRACKLINE_RATE_LIMIT_SEQUENTIAL,
          }
        : undefined,
    logins:
      env.TRACKLINE_LOGIN_THROTTLE === 'on'
        ? {
            perLogin: env.TRACKLINE_LOGIN_MAX_FAILURES,
            perIp: env.TRACKLINE_LOGIN_MAX_FAILURES_PER_IP,
            windowSeconds: env.TRACKLINE_LOGIN_WINDOW_SECONDS,
          }
        : undefined,
    trustProxy: env.TRACKLINE_TRUST_PROXY === 'on',
  };
}

/** Input limits of the REST bridge from the environment (nesting stays at its default). */
export function inputLimitsFromEnv(env: Env): InputLimits {
  return { ...DEFAULT_INPUT_LIMITS, maxParameters: env.TRACKLINE_MAX_PARAMETERS };
}

/** Per-user caps on owned tags and saved searches (passed to the domain's use cases). */
export function resourceLimitsFromEnv(env: Env): ResourceLimits {
  return {
    maxTagsPerUser: env.TRACKLINE_MAX_TAGS_PER_USER,
    maxSavedSearchesPerUser: env.TRACKLINE_MAX_SAVED_SEARCHES_PER_USER,
  };
}

/** The attachment quotas (see `beginUpload` in the domain). */
export function attachmentQuotasFromEnv(env: Env): AttachmentQuotas {
  return {
    perUserBytes: env.TRACKLINE_ATTACHMENT_QUOTA_USER_BYTES,
    perIssueBytes: env.TRACKLINE_ATTACHMENT_QUOTA_ISSUE_BYTES,
    totalBytes: env.TRACKLINE_ATTACHMENT_QUOTA_TOTAL_BYTES,
  };
}

/** The console's build folder: as configured, else `apps/web/dist` beside this package (`apps/api/dist`). */
export function consoleDirFromEnv(env: Env): string {
  return env.TRACKLINE_CONSOLE_DIR ?? fileURLToPath(new URL('../../web/dist', import.meta.url));
}

/** The address people open: PUBLIC_URL, else the listening address (`localhost` for a wildcard host). */
export function displayUrl(env: Env, port: number): string {
  if (env.PUBLIC_URL) return env.PUBLIC_URL;
  const host = env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
