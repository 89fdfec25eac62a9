/** The credentials a request carries, before any database lookup. */
export type Credentials =
  | { kind: 'none' }
  | { kind: 'token'; token: string }
  | { kind: 'basic'; login: string; password: string }
  | { kind: 'session'; value: string }
  | { kind: 'malformed'; reason: string };

export const SESSION_COOKIE = 'JSESSIONID';

/**
 * The session cookie: ONE cookie without Expires (the Python client echoes Set-Cookie back, and
 * a date's comma would break its joining); `Secure` when the request came over HTTPS.
 */
export const sessionCookie = (value: string, secure: boolean) =>
  `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

/** Clears the session cookie in the browser (`Max-Age=0`, still no Expires). */
export const clearedSessionCookie = (secure: boolean) =>
  `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

/**
 * Finds our session cookie in a Cookie header. Lenient on purpose: the legacy Python client
 * echoes the raw Set-Cookie value back (`JSESSIONID=x; Path=/`, several joined with ', ').
 */
export function findSessionCookie(header: string | undefined): string | null {
  if (!header) return null;
  const match = new RegExp(`(?:^|[;,\\s])${SESSION_COOKIE}=([A-Za-z0-9_-]{16,200})`).exec(header);
  return match?.[1] ?? null;
}

export function readCredentials(headers: {
  authorization?: string | undefined;
  cookie?: string | undefined;
}): Credentials {
  const auth = headers.authorization?.trim();
  if (auth) {
    const [scheme = '', ...rest] = auth.split(/\s+/);
    const value = rest.join(' ');
    if (scheme.toLowerCase() === 'bearer') {
      return value ? { kind: 'token', token: value } : { kind: 'malformed', reason: 'Empty bearer token.' };
    }
    if (scheme.toLowerCase() === 'basic') {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 1) return { kind: 'malformed', reason: 'Malformed Basic credentials.' };
      return { kind: 'basic', login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
    }
    return { kind: 'malformed', reason: `Unsupported authorization scheme ${scheme}.` };
  }
  const session = findSessionCookie(headers.cookie);
  return session ? { kind: 'session', value: session } : { kind: 'none' };
}
