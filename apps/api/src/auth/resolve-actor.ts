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

export type Resolved = { actor: Actor | null; failure: string | null };

/**
 * Basic auth runs scrypt (tens of ms). Clients such as the IDE plugin send it on every
 * call, so a verified login:password pair is remembered for a minute, keyed by its hash.
 */
const BASIC_TTL_MS = 60_000;
const basicCache = new Map<string, { userId: number; expires: number }>();

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
        return em.findOne(User, { id: hit.userId });
      }
      const user = await authenticatePassword(em, credentials.login, credentials.password);
      if (user) {
        if (basicCache.size > 10_000) basicCache.clear();
        basicCache.set(key, { userId: user.id, expires: Date.now() + BASIC_TTL_MS });
      }
      return user;
    }
    default:
      return null;
  }
}

export async function resolveActor(em: Em, credentials: Credentials): Promise<Resolved> {
  if (credentials.kind === 'none') return { actor: null, failure: null };
  if (credentials.kind === 'malformed') return { actor: null, failure: credentials.reason };
  const user = await userFor(em, credentials);
  if (!user) return { actor: null, failure: 'Invalid credentials.' };
  return { actor: await loadActor(em, user), failure: null };
}
