import { DEFAULT_RESOURCE_LIMITS, DEFAULT_TRASH_DAYS, type ResourceLimits } from '@trackline/domain';
import { z } from 'zod';
import { DEFAULT_LIMITS, type LimitsOptions } from './auth/limits.js';

const onOff = (fallback: 'on' | 'off') => z.enum(['on', 'off']).default(fallback);
const positive = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

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
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Per-user request rate limit (token bucket); `off` for benchmarks. Limits are per process. */
  TRACKLINE_RATE_LIMIT: onOff('on'),
  /** Replay repeated GETs from memory until data changes (see rest/response-cache.ts). */
  TRACKLINE_RESPONSE_CACHE: onOff('on'),
  /** Safety-net expiry of cached answers; invalidation, not expiry, keeps them correct. */
  TRACKLINE_RESPONSE_CACHE_TTL_MS: positive(2000),
  TRACKLINE_RATE_LIMIT_PER_SECOND: positive(DEFAULT_LIMITS.requests.perSecond),
  TRACKLINE_RATE_LIMIT_BURST: positive(DEFAULT_LIMITS.requests.burst),
  /** Failed-login throttling (login form and HTTP Basic), per login and per client IP. */
  TRACKLINE_LOGIN_THROTTLE: onOff('on'),
  TRACKLINE_LOGIN_MAX_FAILURES: positive(DEFAULT_LIMITS.logins.perLogin),
  TRACKLINE_LOGIN_MAX_FAILURES_PER_IP: positive(DEFAULT_LIMITS.logins.perIp),
  TRACKLINE_LOGIN_WINDOW_SECONDS: positive(DEFAULT_LIMITS.logins.windowSeconds),
  /** `on` behind one reverse proxy: the client IP is the last `X-Forwarded-For` entry. */
  TRACKLINE_TRUST_PROXY: onOff('off'),
  /** Caps on what one user owns (tags, saved searches); beyond them creating one answers 409. */
  TRACKLINE_MAX_TAGS_PER_USER: positive(DEFAULT_RESOURCE_LIMITS.maxTagsPerUser),
  TRACKLINE_MAX_SAVED_SEARCHES_PER_USER: positive(DEFAULT_RESOURCE_LIMITS.maxSavedSearchesPerUser),
  /** Days a deleted project stays in the trash (restorable) before it is purged; 0 purges at the next sweep. */
  TRACKLINE_TRASH_DAYS: z.coerce.number().int().min(0).max(36_500).default(DEFAULT_TRASH_DAYS),
  /** `off` stores VCS deliveries without applying them (another process's worker will). */
  VCS_WORKER: onOff('on'),
  VCS_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(100),
  /** How long a worker's claim on a delivery lasts before another process may take it over. */
  VCS_LEASE_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /**
   * Crash drills only: the process exits abruptly after this many (commit, issue) units were
   * committed; 0 exits right after claiming a delivery.
   */
  VCS_FAULT_EXIT_AFTER_UNITS: z.coerce.number().int().min(0).optional(),
});
export type Env = z.infer<typeof ZEnv>;

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = ZEnv.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** The server's limits from the environment (see `auth/limits.ts`). */
export function limitsFromEnv(env: Env): LimitsOptions {
  return {
    requests:
      env.TRACKLINE_RATE_LIMIT === 'on'
        ? { perSecond: env.TRACKLINE_RATE_LIMIT_PER_SECOND, burst: env.TRACKLINE_RATE_LIMIT_BURST }
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

/** Per-user caps on owned tags and saved searches (passed to the domain's use cases). */
export function resourceLimitsFromEnv(env: Env): ResourceLimits {
  return {
    maxTagsPerUser: env.TRACKLINE_MAX_TAGS_PER_USER,
    maxSavedSearchesPerUser: env.TRACKLINE_MAX_SAVED_SEARCHES_PER_USER,
  };
}
