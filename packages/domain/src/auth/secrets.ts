import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const sha256Hex = (value: string | Buffer): string => createHash('sha256').update(value).digest('hex');

export const randomSecret = (bytes = 24): string => randomBytes(bytes).toString('base64url');

/** Constant-time comparison of two hex digests (equal length by construction). */
export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Permanent token format, as YouTrack 2017.1+: `perm:<base64 login>.<base64 name>.<secret>`.
 * The login and name locate the row; only the secret's hash is stored.
 */
export function formatPermanentToken(login: string, name: string, secret: string): string {
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
  return `perm:${b64(login)}.${b64(name)}.${secret}`;
}

export function parsePermanentToken(token: string): { login: string; name: string; secret: string } | null {
  const match = /^perm:([A-Za-z0-9+/=]+)\.([A-Za-z0-9+/=]+)\.([A-Za-z0-9_-]{16,200})$/.exec(token);
  if (!match) return null;
  const [, login, name, secret] = match as unknown as [string, string, string, string];
  const decode = (s: string) => Buffer.from(s, 'base64').toString('utf8');
  return { login: decode(login), name: decode(name), secret };
}
