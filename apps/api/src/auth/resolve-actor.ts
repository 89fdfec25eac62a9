import {
  type Actor,
  type AuthenticatedUser,
  authenticatePassword,
  authenticateSession,
  authenticateToken,
  type Em,
  type IUser,
  loadActor,
  sha256Hex,
  User,
} from '@trackline/domain';
import type { Credentials } from './credentials.js';

/**
 * `retryAfter` (seconds): the password was not checked because its login or IP is throttled.
 * `session`: the cookie value when the actor came from a session.
 */
export type Resolved = { actor: Actor | null; failure: string | null; retryAfter?: number; session?: string };

/** Password-check accounting (see `limits.ts`); `ip` is the client address. Results in seconds. */
export type LoginThrottle = {
  /** Takes one attempt before a password check: 0 when taken, else seconds until one is free. */
  reserve(login: string, ip: string): Promise<number>;
  /** Seconds until `login` from `ip` may be checked again, without taking an attempt; 0 when it may. */
  check(login: string, ip: string): Promise<number>;
  /** A reserved check found the password right: the login's count restarts, the IP gets its attempt back. */
  succeeded(login: string, ip: string): Promise<void>;
};

/**
 * Basic auth runs scrypt (tens of ms). Clients such as the IDE plugin send it on every
 * call, so a verified login:password pair is remembered for a minute, keyed by the hash of
 * the exact pair. A hit still needs the user's current password hash to be the one the pair
 * was verified against (a password change, in any process, ends it), and the login throttle
 * is consulted before this cache (a locked login is refused even with a remembered pair).
 */
const BASIC_TTL_MS = 60_000;
type RememberedPairs = Map<string, { userId: number; passwordHash: string; expires: number }>;
/**
 * One map per database (the ORM's connection): a user id means something only in its own
 * database. A server has one; a test process that opens many databases keeps them apart.
 */
const basicCaches = new WeakMap<object, RememberedPairs>();

function basicCacheOf(em: Em): RememberedPairs {
  const connection = em.getConnection();
  let cache = basicCaches.get(connection);
  if (!cache) {
    cache = new Map();
    basicCaches.set(connection, cache);
  }
  return cache;
}

const basicKey = (login: string, password: string) => sha256Hex(`${login}\u0000${password}`);

/** The user of a remembered pair whose password is unchanged, else null (and the pair is forgotten). */
async function rememberedBasic(em: Em, key: string): Promise<IUser | null> {
  const basicCache = basicCacheOf(em);
  const hit = basicCache.get(key);
  if (!hit) return null;
  const user = hit.expires > Date.now() ? await em.findOne(User, { id: hit.userId }) : null;
  if (user && user.passwordHash === hit.passwordHash) return user;
  basicCache.delete(key);
  return null;
}

async function checkBasic(em: Em, key: string, login: string, password: string): Promise<IUser | null> {
  const user = await authenticatePassword(em, login, password);
  const basicCache = basicCacheOf(em);
  if (user?.passwordHash) {
    if (basicCache.size > 10_000) basicCache.clear();
    basicCache.set(key, {
      userId: user.id,
      passwordHash: user.passwordHash,
      expires: Date.now() + BASIC_TTL_MS,
    });
  }
  return user;
}

const throttled = (retryAfter: number): Resolved => ({
  actor: null,
  failure: 'Too many failed login attempts.',
  retryAfter,
});

/**
 * Basic credentials under a throttle: the lockout is consulted first, even for a remembered
 * pair (a lockout must not remain an oracle); a pair that needs scrypt first reserves an
 * attempt, so parallel guesses are counted before any of them is checked.
 */
async function basicUser(
  em: Em,
  credentials: Extract<Credentials, { kind: 'basic' }>,
  limit?: { throttle: LoginThrottle; ip: string },
): Promise<IUser | Resolved | null> {
  const { login, password } = credentials;
  const key = basicKey(login, password);
  if (!limit) return (await rememberedBasic(em, key)) ?? checkBasic(em, key, login, password);
  const { throttle, ip } = limit;
  if (basicCacheOf(em).has(key)) {
    const wait = await throttle.check(login, ip);
    if (wait > 0) return throttled(wait);
    // No password check happens here, so nothing is reserved or reset (and no store write).
    const user = await rememberedBasic(em, key);
    if (user) return user;
  }
  const wait = await throttle.reserve(login, ip);
  if (wait > 0) return throttled(wait);
  const user = await checkBasic(em, key, login, password);
  if (user) await throttle.succeeded(login, ip);
  return user;
}

async function userFor(
  em: Em,
  credentials: Credentials,
  limit?: { throttle: LoginThrottle; ip: string },
): Promise<AuthenticatedUser | IUser | Resolved | null> {
  switch (credentials.kind) {
    case 'token':
      return authenticateToken(em, credentials.token);
    case 'session':
      return authenticateSession(em, credentials.value);
    case 'basic':
      return basicUser(em, credentials, limit);
    default:
      return null;
  }
}

/**
 * Resolves the caller. With `limit`, Basic password checks are throttled (see `basicUser`);
 * `retryAfter` in the result means the password was not checked.
 */
export async function resolveActor(
  em: Em,
  credentials: Credentials,
  limit?: { throttle: LoginThrottle; ip: string },
): Promise<Resolved> {
  if (credentials.kind === 'none') return { actor: null, failure: null };
  if (credentials.kind === 'malformed') return { actor: null, failure: credentials.reason };
  const found = await userFor(em, credentials, limit);
  if (!found) return { actor: null, failure: 'Invalid credentials.' };
  if ('failure' in found) return found;
  const actor = await loadActor(em, found);
  return credentials.kind === 'session'
    ? { actor, failure: null, session: credentials.value }
    : { actor, failure: null };
}
