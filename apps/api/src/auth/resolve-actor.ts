import {
  type Actor,
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

/** `retryAfter` (seconds): the password was not checked because its login or IP is throttled. */
export type Resolved = { actor: Actor | null; failure: string | null; retryAfter?: number };

/** Failed-password accounting (see `limits.ts`); `ip` is the client address. */
export type LoginThrottle = {
  /** Seconds until `login` may try a password from `ip` again; 0 when it may now. */
  retryAfter(login: string, ip: string): number;
  failed(login: string, ip: string): void;
  succeeded(login: string): void;
};

/**
 * Basic auth runs scrypt (tens of ms). Clients such as the IDE plugin send it on every
 * call, so a verified login:password pair is remembered for a minute, keyed by the hash of
 * the exact pair. A hit still needs the user's current password hash to be the one the pair
 * was verified against (a password change, in any process, ends it), and the login throttle
 * is consulted before this cache (a locked login is refused even with a remembered pair).
 */
const BASIC_TTL_MS = 60_000;
const basicCache = new Map<string, { userId: number; passwordHash: string; expires: number }>();

async function userFor(em: Em, credentials: Credentials): Promise<IUser | null> {
  switch (credentials.kind) {
    case 'token':
      return authenticateToken(em, credentials.token);
    case 'session':
      return authenticateSession(em, credentials.value);
    case 'basic': {
      const key = sha256Hex(`${credentials.login}\u0000${credentials.password}`);
      const hit = basicCache.get(key);
      if (hit && hit.expires > Date.now()) {
        const user = await em.findOne(User, { id: hit.userId });
        if (user && user.passwordHash === hit.passwordHash) return user;
        basicCache.delete(key);
      }
      const user = await authenticatePassword(em, credentials.login, credentials.password);
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
    default:
      return null;
  }
}

/**
 * With `throttle`, Basic credentials of a throttled login or IP are refused before any check
 * (even a correct or cached password: a lockout must not remain an oracle), and failures count.
 */
export async function resolveActor(
  em: Em,
  credentials: Credentials,
  throttle?: LoginThrottle,
  ip = '',
): Promise<Resolved> {
  if (credentials.kind === 'none') return { actor: null, failure: null };
  if (credentials.kind === 'malformed') return { actor: null, failure: credentials.reason };
  const basic = throttle && credentials.kind === 'basic' ? credentials.login : null;
  if (basic !== null && throttle) {
    const retryAfter = throttle.retryAfter(basic, ip);
    if (retryAfter > 0) return { actor: null, failure: 'Too many failed login attempts.', retryAfter };
  }
  const user = await userFor(em, credentials);
  if (basic !== null && throttle) {
    if (user) throttle.succeeded(basic);
    else throttle.failed(basic, ip);
  }
  if (!user) return { actor: null, failure: 'Invalid credentials.' };
  return { actor: await loadActor(em, user), failure: null };
}
