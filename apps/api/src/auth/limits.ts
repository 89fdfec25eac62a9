import type { IncomingMessage, ServerResponse } from 'node:http';
import { DomainError, type Em } from '@trackline/domain';
import type { Context } from '../trpc/context.js';
import { toTrpcError } from '../trpc/error-mapping.js';
import { readCredentials } from './credentials.js';
import { type LoginThrottle, type Resolved, resolveActor } from './resolve-actor.js';

/**
 * Login throttling and per-user request rate limits. Both are kept in memory, per process:
 * with several processes behind a balancer each enforces its own limits (a client may get
 * up to N times the budget). Environment defaults: `env.ts` (`limitsFromEnv`).
 */
export type LimitsOptions = {
  /** A token bucket per authenticated user: `perSecond` refill, `burst` capacity. Absent: no limit. */
  requests?: { perSecond: number; burst: number } | undefined;
  /**
   * Failed password checks (`POST /rest/user/login` and HTTP Basic), counted per login and per
   * client IP: after `perLogin` (or `perIp`) failures within `windowSeconds`, password checks
   * for that login (or from that IP) answer 429 until the oldest of those failures leaves the
   * window. A success resets the login's count (not the IP's). Absent: no throttling.
   */
  logins?: { perLogin: number; perIp: number; windowSeconds: number } | undefined;
  /** Take the client IP from the last `X-Forwarded-For` entry (one trusted reverse proxy). */
  trustProxy?: boolean | undefined;
  /** Milliseconds, monotonic; tests inject a clock. */
  now?: (() => number) | undefined;
};

/** Generous enough for IDE plugins typing commands and import scripts; see README. */
export const DEFAULT_LIMITS = {
  requests: { perSecond: 50, burst: 200 },
  logins: { perLogin: 10, perIp: 50, windowSeconds: 300 },
  trustProxy: false,
} as const satisfies LimitsOptions;

/**
 * The most calls one `/trpc` batch may carry (tRPC answers 400 beyond). Each call of a batch
 * takes a token, so batching cannot multiply the request budget. The client batches at most as many.
 */
export const TRPC_MAX_BATCH = 100;

/** Keys kept per table before the oldest are dropped (bounds memory under a key flood). */
const MAX_KEYS = 50_000;

const toSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** The last `max` failure times per key (ascending); blocked while all `max` are within the window. */
class FailureLog {
  private readonly entries = new Map<string, number[]>();
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  get empty(): boolean {
    return this.entries.size === 0;
  }

  /** Milliseconds until `key` may try again; 0 when it may now. */
  blockedFor(key: string, now: number): number {
    const times = this.entries.get(key);
    if (!times || times.length < this.max) return 0;
    return Math.max((times[0] as number) + this.windowMs - now, 0);
  }

  fail(key: string, now: number): void {
    let times = this.entries.get(key);
    if (!times) {
      if (this.entries.size >= MAX_KEYS) this.sweep(now);
      times = [];
      this.entries.set(key, times);
    }
    while (times.length > 0 && (times[0] as number) + this.windowMs <= now) times.shift();
    times.push(now);
    if (times.length > this.max) times.shift();
  }

  reset(key: string): void {
    this.entries.delete(key);
  }

  /** Drops expired keys, then the oldest-inserted ones while still over the bound. */
  private sweep(now: number): void {
    for (const [key, times] of this.entries) {
      if ((times[times.length - 1] ?? 0) + this.windowMs <= now) this.entries.delete(key);
    }
    for (const key of this.entries.keys()) {
      if (this.entries.size < MAX_KEYS) break;
      this.entries.delete(key);
    }
  }
}

/** One bucket per user id; a request takes one token. */
class TokenBuckets {
  private readonly buckets = new Map<number, { tokens: number; at: number }>();
  private readonly perMs: number;
  constructor(
    perSecond: number,
    private readonly burst: number,
  ) {
    this.perMs = perSecond / 1000;
  }

  /** 0 when `cost` tokens were taken, else milliseconds until they are available. */
  take(key: number, now: number, cost = 1): number {
    const need = Math.min(cost, this.burst);
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= MAX_KEYS) this.buckets.clear();
      bucket = { tokens: this.burst, at: now };
      this.buckets.set(key, bucket);
    }
    const tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.perMs);
    bucket.at = now;
    if (tokens >= need) {
      bucket.tokens = tokens - need;
      return 0;
    }
    bucket.tokens = tokens;
    return (need - tokens) / this.perMs;
  }
}

function createLoginThrottle(
  options: NonNullable<LimitsOptions['logins']>,
  now: () => number,
): LoginThrottle {
  const windowMs = options.windowSeconds * 1000;
  const byLogin = new FailureLog(options.perLogin, windowMs);
  const byIp = new FailureLog(options.perIp, windowMs);
  const loginKey = (login: string) => login.slice(0, 256).toLowerCase();
  return {
    retryAfter(login, ip) {
      if (byLogin.empty && byIp.empty) return 0; // the usual case: no allocation
      const at = now();
      const wait = Math.max(byLogin.blockedFor(loginKey(login), at), byIp.blockedFor(ip, at));
      return wait > 0 ? toSeconds(wait) : 0;
    },
    failed(login, ip) {
      const at = now();
      byLogin.fail(loginKey(login), at);
      byIp.fail(ip, at);
    },
    succeeded(login) {
      if (!byLogin.empty) byLogin.reset(loginKey(login));
    },
  };
}

export type RequestGuard = {
  /** For `POST /rest/user/login`: null when logins are not throttled. */
  logins: LoginThrottle | null;
  clientIp(req: IncomingMessage): string;
  /**
   * Resolves the caller (throttling Basic failures), then takes a token per call from its bucket.
   * Over a limit: sets `Retry-After` and throws 429 (a DomainError on /rest, a TRPCError on /trpc).
   */
  authenticate(
    em: Em,
    req: IncomingMessage,
    res: ServerResponse,
    transport: Context['transport'],
  ): Promise<Resolved>;
  /** Takes `cost` tokens from the user's bucket (a cached answer costs like a computed one); 429 when empty. */
  charge(userId: number, res: ServerResponse, transport: Context['transport'], cost?: number): void;
};

export const rateLimited = (message: string) => new DomainError('RATE_LIMITED', message);

export function createGuard(options: LimitsOptions = {}): RequestGuard {
  const now = options.now ?? (() => performance.now());
  const logins = options.logins ? createLoginThrottle(options.logins, now) : null;
  const buckets = options.requests
    ? new TokenBuckets(options.requests.perSecond, options.requests.burst)
    : null;
  const trustProxy = options.trustProxy ?? false;

  function clientIp(req: IncomingMessage): string {
    if (trustProxy) {
      const forwarded = req.headers['x-forwarded-for'];
      const header = Array.isArray(forwarded) ? forwarded[forwarded.length - 1] : forwarded;
      const last = header?.slice(header.lastIndexOf(',') + 1).trim();
      if (last) return last.slice(0, 64);
    }
    return req.socket.remoteAddress ?? '';
  }

  function refuse(
    res: ServerResponse,
    transport: Context['transport'],
    seconds: number,
    message: string,
  ): never {
    res.setHeader('Retry-After', String(seconds));
    const error = rateLimited(message);
    throw transport === 'trpc' ? toTrpcError(error) : error;
  }

  function charge(userId: number, res: ServerResponse, transport: Context['transport'], cost = 1) {
    if (!buckets) return;
    const wait = buckets.take(userId, now(), cost);
    if (wait > 0) {
      const seconds = toSeconds(wait);
      refuse(res, transport, seconds, `Too many requests; retry in ${seconds} s.`);
    }
  }

  return {
    logins,
    clientIp,
    charge,
    async authenticate(em, req, res, transport) {
      const credentials = readCredentials(req.headers);
      const resolved =
        logins && credentials.kind === 'basic'
          ? await resolveActor(em, credentials, logins, clientIp(req))
          : await resolveActor(em, credentials);
      if (resolved.retryAfter) {
        refuse(res, transport, resolved.retryAfter, tooManyFailures(resolved.retryAfter));
      }
      if (resolved.actor) {
        charge(resolved.actor.userId, res, transport, transport === 'trpc' ? batchSize(req.url) : 1);
      }
      return resolved;
    },
  };
}

/** Calls in a `/trpc/a,b,c?batch=1` request: one more than the commas of its path. */
function batchSize(url: string | undefined): number {
  if (!url) return 1;
  let count = 1;
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 63 /* ? */) break;
    if (c === 44 /* , */) count++;
  }
  return count;
}

export const tooManyFailures = (seconds: number) => `Too many failed login attempts; retry in ${seconds} s.`;
