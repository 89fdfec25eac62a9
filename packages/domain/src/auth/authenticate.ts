import { hasControlCharacters } from '@trackline/contracts';
import type { Em } from '../orm/em.js';
import { type AuthenticatedUser, findSessionRow, findTokenRow } from '../read-models/actor.js';
import { type IUser, User } from '../users/user.entity.js';
import { verifyPassword } from './password.js';
import { digestsEqual, parsePermanentToken, randomSecret, sha256Hex } from './secrets.js';
import { PermanentToken, Session } from './token.entity.js';

/** Accounts that can never log in with a password, whatever is stored. */
const NO_PASSWORD_LOGIN = new Set(['guest', 'system', 'workflow', 'service']);
const SESSION_TTL_MS = 14 * 24 * 3600 * 1000;
const TOKEN_TOUCH_INTERVAL_MS = 60_000;

// Control characters never occur in logins or token names (see `hasControlCharacters`); the
// SQLite driver would also cut a parameter at NUL. Such credentials are simply wrong.

export async function authenticatePassword(em: Em, login: string, password: string): Promise<IUser | null> {
  if (hasControlCharacters(login) || login.length > 100 || password.length > 1000) return null;
  const user = await em.findOne(User, { loginKey: login.toLowerCase() });
  const ok = await verifyPassword(password, user?.passwordHash);
  if (!user || !ok || NO_PASSWORD_LOGIN.has(user.type)) return null;
  return user;
}

/** The token's user (the actor read model: one prepared statement), or null when it is wrong. */
export async function authenticateToken(em: Em, token: string): Promise<AuthenticatedUser | null> {
  const parsed = parsePermanentToken(token);
  if (!parsed || hasControlCharacters(parsed.login) || hasControlCharacters(parsed.name)) return null;
  const row = await findTokenRow(em, parsed.login.toLowerCase(), parsed.name);
  if (!row || !digestsEqual(row.secretHash, sha256Hex(parsed.secret))) return null;
  // Record use at most once a minute: a write on every read request would serialise readers.
  const now = Date.now();
  if (row.lastUsedAt === null || now - row.lastUsedAt > TOKEN_TOUCH_INTERVAL_MS) {
    await em.nativeUpdate(PermanentToken, { id: row.tokenId }, { lastUsedAt: new Date(now) });
  }
  return row.user;
}

/** Creates a session and returns the cookie value (only its hash is stored). */
export async function createSession(em: Em, userId: number): Promise<string> {
  const value = randomSecret(32);
  await em.insert(Session, {
    idHash: sha256Hex(value),
    user: userId,
    createdAt: new Date(),
    expiresAt: new Date(Date.now() + SESSION_TTL_MS),
  });
  return value;
}

export async function authenticateSession(em: Em, value: string): Promise<AuthenticatedUser | null> {
  const session = await findSessionRow(em, sha256Hex(value));
  if (!session || session.expiresAt < Date.now()) return null;
  return session.user;
}
