import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { type Actor, can, DomainError, type Em, sha256Hex } from '@trackline/domain';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { silentLogger } from '../log/logger.js';
import { createSecurityLog, type SecurityLog } from '../log/security-log.js';
import type { Context, RequestFacts } from '../trpc/context.js';
import { toTrpcError } from '../trpc/error-mapping.js';
import type { Credentials } from './credentials.js';
import { readCredentials } from './credentials.js';
import { type LimitsStore, memoryLimitsStore } from './limit-stores.js';
import { checkPasswordOnce } from './password-check.js';
import { type AuthEms, type LoginThrottle, type Resolved, resolveActor } from './resolve-actor.js';

/**
 * Login throttling and per-user request limits, counted by rate-limiter-flexible limiters in a
 * store (`limit-stores.ts`): memory (per process) unless a shared PostgreSQL or Redis store is
 * configured, in which case every process shares the counters. Environment: `env.ts`.
 */
export type LimitsOptions = {
  /**
   * Requests per authenticated user: `burst` per window of `burst / perSecond` seconds (rounded,
   * at least 1), so `perSecond` on average with bursts up to `burst`. Absent: no limit.
   */
  requests?:
    | {
        perSecond: number;
        burst: number;
        /**
         * `free`: a request that arrives while none of the same user's requests is in flight in
         * this process is not charged, so a client that waits for each answer (every importer
         * script of the original: one request at a time, and a 429 aborts it) is never limited;
         * concurrent requests are. `charged` (the default here): every request takes a point.
         */
        sequential?: 'free' | 'charged' | undefined;
      }
    | undefined;
  /**
   * Password checks (`POST /rest/user/login` and HTTP Basic), counted per login and per client IP.
   * Each check reserves an attempt BEFORE the password is verified, so parallel guesses cannot
   * outrun the count: at most `perLogin` (or `perIp`) checks per window of `windowSeconds` (which
   * starts with the first counted attempt); beyond, 429 until the window ends. A success gives the
   * attempt back: the login's count restarts, the IP's reservation is refunded. Absent: no throttling.
   */
  logins?: { perLogin: number; perIp: number; windowSeconds: number } | undefined;
  /** Take the client IP from the last `X-Forwarded-For` entry (one trusted reverse proxy). */
  trustProxy?: boolean | undefined;
  /** Where the counters live; per-process memory when absent. */
  store?: LimitsStore | undefined;
};

/** Generous enough for IDE plugins typing commands and import scripts; see README. */
export const DEFAULT_LIMITS = {
  requests: { perSecond: 50, burst: 200, sequential: 'free' },
  logins: { perLogin: 10, perIp: 50, windowSeconds: 300 },
  trustProxy: false,
} as const satisfies LimitsOptions;

/**
 * The most calls one `/trpc` batch may carry (tRPC answers 400 beyond). Each call of a batch
 * takes a point, so batching cannot multiply the request budget. The client batches at most as many.
 */
export const TRPC_MAX_BATCH = 100;

const toSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Consumes `points` for `key`: 0 when granted, else milliseconds until the key's window ends. */
async function take(limiter: RateLimiterAbstract, key: string, points = 1): Promise<number> {
  try {
    await limiter.consume(key, points);
    return 0;
  } catch (refusal) {
    if (refusal instanceof RateLimiterRes) return Math.max(refusal.msBeforeNext, 1);
    throw refusal;
  }
}

/** Milliseconds until `key` may consume again without consuming; 0 when it may now. */
async function blockedFor(limiter: RateLimiterAbstract, key: string): Promise<number> {
  const state = await limiter.get(key);
  return state && state.consumedPoints >= limiter.points ? Math.max(state.msBeforeNext, 1) : 0;
}

/** Long logins are hashed: store keys are bounded (PostgreSQL keys are varchar(255)). */
const loginKey = (login: string) => {
  const key = login.toLowerCase();
  return key.length <= 100 ? key : sha256Hex(key);
};
const ipKey = (ip: string) => ip.slice(0, 64) || 'unknown';

/**
 * How long a check refused at the login's limit waits, at most, for checks of the login in
 * progress (on any host) to end, and how often it looks: one of them may find the password right,
 * which restarts the count. Parallel requests with the right password reach different hosts: each
 * host's one check (`checkPasswordOnce`) reserves an attempt, and at the limit only one of them
 * gets it; without the wait, the others would answer 429 to the right password.
 */
const IN_PROGRESS_WAIT_MS = 5_000;
const IN_PROGRESS_POLL_MS = 25;

function createLoginThrottle(
  options: NonNullable<LimitsOptions['logins']>,
  store: LimitsStore,
): LoginThrottle {
  const duration = options.windowSeconds;
  const byLogin = store.limiter({
    keyPrefix: `${store.namespace}-login`,
    points: options.perLogin,
    duration,
  });
  const byIp = store.limiter({ keyPrefix: `${store.namespace}-login-ip`, points: options.perIp, duration });
  // Checks of each login in progress, in the same store (so on every host): a count that a
  // check's end gives back, and that a crashed host's checks leave for a minute at most.
  const checking = store.limiter({
    keyPrefix: `${store.namespace}-login-checking`,
    points: 1_000_000,
    duration: 60,
  });
  const inProgress = async (login: string) =>
    ((await checking.get(loginKey(login)))?.consumedPoints ?? 0) > 0;
  return {
    // The IP first: a flood from a throttled IP over many logins creates no per-login keys.
    async reserve(login, ip) {
      for (let waited = 0; ; waited += IN_PROGRESS_POLL_MS) {
        const ipWait = await take(byIp, ipKey(ip));
        if (ipWait > 0) return toSeconds(ipWait);
        const loginWait = await take(byLogin, loginKey(login));
        if (loginWait === 0) {
          await checking.consume(loginKey(login), 1);
          return 0;
        }
        // Refused without a check: the IP keeps its attempt.
        await byIp.reward(ipKey(ip), 1);
        if (waited >= IN_PROGRESS_WAIT_MS || !(await inProgress(login))) return toSeconds(loginWait);
        await new Promise((resolve) => setTimeout(resolve, IN_PROGRESS_POLL_MS));
      }
    },
    async check(login, ip) {
      const waits = await Promise.all([blockedFor(byLogin, loginKey(login)), blockedFor(byIp, ipKey(ip))]);
      const wait = Math.max(...waits);
      return wait > 0 ? toSeconds(wait) : 0;
    },
    async succeeded(login, ip) {
      await Promise.all([byLogin.delete(loginKey(login)), byIp.reward(ipKey(ip), 1)]);
    },
    async ended(login) {
      await checking.reward(loginKey(login), 1);
    },
  };
}

export type RequestGuard = {
  /** For `POST /rest/user/login`: null when logins are not throttled. */
  logins: LoginThrottle | null;
  /** Where failed and throttled logins are reported. */
  security: SecurityLog;
  clientIp(req: IncomingMessage): string;
  /** Over TLS, or (with `trustProxy`) the proxy's last `X-Forwarded-Proto` entry is `https`. */
  isSecure(req: IncomingMessage): boolean;
  /** What procedures may know of the request (see `RequestFacts`). */
  requestFacts(
    fork: () => Em,
    req: IncomingMessage,
    res: ServerResponse,
    transport: Context['transport'],
    resolved: Resolved,
  ): RequestFacts;
  /**
   * Resolves the caller (throttling Basic password checks), then takes a point per call from the
   * user's request budget. Over a limit: sets `Retry-After` and throws 429 (a DomainError on
   * /rest, a TRPCError on /trpc).
   */
  authenticate(
    ems: AuthEms,
    req: IncomingMessage,
    res: ServerResponse,
    transport: Context['transport'],
  ): Promise<Resolved>;
};

export const rateLimited = (message: string) => new DomainError('RATE_LIMITED', message);

export function createGuard(
  options: LimitsOptions = {},
  security: SecurityLog = createSecurityLog(silentLogger()),
): RequestGuard {
  const store = options.store ?? memoryLimitsStore();
  const logins = options.logins ? createLoginThrottle(options.logins, store) : null;
  const burst = options.requests?.burst ?? 0;
  const requests = options.requests
    ? store.limiter({
        keyPrefix: `${store.namespace}-requests`,
        points: burst,
        duration: Math.max(1, Math.round(burst / options.requests.perSecond)),
      })
    : null;
  const trustProxy = options.trustProxy ?? false;
  const sequentialFree = options.requests?.sequential === 'free';
  /** Requests of each user in flight in this process (from authentication to the answer's end). */
  const inFlight = new Map<number, number>();
  function track(userId: number, res: ServerResponse): boolean {
    const busy = (inFlight.get(userId) ?? 0) > 0;
    inFlight.set(userId, (inFlight.get(userId) ?? 0) + 1);
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      const left = (inFlight.get(userId) ?? 1) - 1;
      if (left > 0) inFlight.set(userId, left);
      else inFlight.delete(userId);
    };
    res.once('finish', end);
    res.once('close', end);
    return busy;
  }

  function clientIp(req: IncomingMessage): string {
    if (trustProxy) {
      const forwarded = req.headers['x-forwarded-for'];
      const header = Array.isArray(forwarded) ? forwarded[forwarded.length - 1] : forwarded;
      const last = header?.slice(header.lastIndexOf(',') + 1).trim();
      if (last) return last.slice(0, 64);
    }
    return req.socket.remoteAddress ?? '';
  }

  function isSecure(req: IncomingMessage): boolean {
    if ((req.socket as TLSSocket).encrypted === true) return true;
    if (!trustProxy) return false;
    const forwarded = req.headers['x-forwarded-proto'];
    const header = Array.isArray(forwarded) ? forwarded[forwarded.length - 1] : forwarded;
    return (
      header
        ?.slice(header.lastIndexOf(',') + 1)
        .trim()
        .toLowerCase() === 'https'
    );
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

  async function charge(userId: number, res: ServerResponse, transport: Context['transport'], cost: number) {
    if (!requests) return;
    const points = Math.min(cost, burst);
    const wait = await take(requests, String(userId), points);
    if (wait > 0) {
      // A refused request does not eat into the budget (a smaller batch may still pass).
      await requests.reward(String(userId), points);
      const seconds = toSeconds(wait);
      refuse(res, transport, seconds, `Too many requests; retry in ${seconds} s.`);
    }
  }

  return {
    logins,
    security,
    clientIp,
    isSecure,
    requestFacts(fork, req, res, transport, resolved) {
      let queryKeys: ReadonlySet<string> | undefined;
      return {
        session: resolved.session ?? null,
        secure: isSecure(req),
        // Read by the few procedures that take secrets; parsed on first use.
        get queryKeys() {
          queryKeys ??= new Set(new URL(req.url ?? '/', 'http://internal').searchParams.keys());
          return queryKeys;
        },
        async checkPassword(login, password) {
          const limit = logins ? { throttle: logins, ip: clientIp(req) } : undefined;
          const outcome = await checkPasswordOnce(fork(), login, password, limit);
          if ('retryAfter' in outcome) {
            security.loginThrottled('current-password', login, outcome.retryAfter);
            refuse(res, transport, outcome.retryAfter, tooManyFailures(outcome.retryAfter));
          }
          if (!outcome.user) security.loginFailed('current-password', login);
          return outcome.user !== null;
        },
      };
    },
    async authenticate(ems, req, res, transport) {
      const credentials = readCredentials(req.headers);
      const resolved =
        logins && credentials.kind === 'basic'
          ? await resolveActor(ems, credentials, { throttle: logins, ip: clientIp(req) })
          : await resolveActor(ems, credentials);
      if (resolved.retryAfter) {
        security.loginThrottled('basic', basicLogin(credentials), resolved.retryAfter);
        refuse(res, transport, resolved.retryAfter, tooManyFailures(resolved.retryAfter));
      }
      if (!resolved.actor && credentials.kind !== 'none')
        security.loginFailed(credentials.kind, basicLogin(credentials));
      if (resolved.actor && requests) {
        const busy = track(resolved.actor.userId, res);
        if (!unlimited(resolved.actor)) {
          const cost = transport === 'trpc' ? batchSize(req.url) : 1;
          // A sequential client's request is free; its batch's other calls are not.
          const points = sequentialFree && !busy ? cost - 1 : cost;
          if (points > 0) await charge(resolved.actor.userId, res, transport, points);
        }
      }
      return resolved;
    },
  };
}

/**
 * Migrations and administration are not limited per request: holders of IMPORT_DATA or
 * LOW_LEVEL_ADMIN (granted globally) run the importer scripts, which abort on a 429.
 */
const unlimited = (actor: Actor) => can(actor, 'IMPORT_DATA') || can(actor, 'LOW_LEVEL_ADMIN');

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

/** The login a Basic credential names (the only kind whose login is known before it is checked). */
const basicLogin = (credentials: Credentials) => (credentials.kind === 'basic' ? credentials.login : '');
