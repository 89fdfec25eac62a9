import { hasControlCharacters } from '@trackline/contracts';
import { PermanentToken, Session } from '../model/token.entity.js';
import { type IUser, User } from '../model/user.entity.js';
import type { Em } from '../orm/em.js';
import { type AuthenticatedUser, findSessionRow, findTokenRow } from './actor-read-model.js';
import { verifyPassword } from './password.js';
import { digestsEqual, parsePermanentToken, randomSecret, sha256Hex } from './secrets.js';

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
  if (!user || !ok || NO_PASSWORD_LOGIN.has(user.type) || user.banned) return null;
  return user;
}

/** A permanent token that matched: its user, its id, and when its use was last recorded (ms). */
export type VerifiedToken = { user: AuthenticatedUser; token: { id: number; usedAt: number } };

/** The token's user and row (the actor read model: one prepared statement), or null when it is wrong. */
export async function verifyToken(em: Em, token: string): Promise<VerifiedToken | null> {
  const parsed = parsePermanentToken(token);
  if (!parsed || hasControlCharacters(parsed.login) || hasControlCharacters(parsed.name)) return null;
  const row = await findTokenRow(em, parsed.login.toLowerCase(), parsed.name);
  if (!row || !digestsEqual(row.secretHash, sha256Hex(parsed.secret))) return null;
  const used = { id: row.tokenId, usedAt: row.lastUsedAt ?? 0 };
  await recordTokenUse(em, used);
  return { user: row.user, token: used };
}

/**
 * Records a token's use at most once a minute (a write on every read request would serialise
 * readers); `token.usedAt` follows.
 */
export async function recordTokenUse(em: Em, token: { id: number; usedAt: number }): Promise<void> {
  const now = Date.now();
  if (now - token.usedAt <= TOKEN_TOUCH_INTERVAL_MS) return;
  token.usedAt = now;
  await em.nativeUpdate(PermanentToken, { id: token.id }, { lastUsedAt: new Date(now) });
}

/** The token's user, or null when it is wrong. */
export async function authenticateToken(em: Em, token: string): Promise<AuthenticatedUser | null> {
  return (await verifyToken(em, token))?.user ?? null;
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

/** A live session's user and end (ms), or null. */
export async function verifySession(
  em: Em,
  value: string,
): Promise<{ user: AuthenticatedUser; expiresAt: number } | null> {
  const session = await findSessionRow(em, sha256Hex(value));
  return session && session.expiresAt >= Date.now() ? session : null;
}

export async function authenticateSession(em: Em, value: string): Promise<AuthenticatedUser | null> {
  return (await verifySession(em, value))?.user ?? null;
}
