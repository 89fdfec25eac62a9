import type { IncomingMessage } from 'node:http';
import { DomainError } from '@trackline/domain';
import { readCredentials } from '../auth/credentials.js';

/**
 * Cross-site request forgery (issue 37, item 6). A browser sends the session cookie (`JSESSIONID`,
 * SameSite=Lax) with requests that another port of the same host or a sibling subdomain makes it
 * send: a form post, `text/plain`, a `no-cors` fetch. SameSite stops other sites, not those. So a
 * state-changing request (any method but GET, HEAD and OPTIONS) authenticated by the cookie alone,
 * or carrying no credentials at all (the login form: a forged login switches the victim's console to
 * the attacker's account), must show it comes from this server's own pages:
 *
 * - `Sec-Fetch-Site: same-origin` (or `none`: typed by the user), which browsers compute themselves; or
 * - an `Origin` that is this server's: the origin of `PUBLIC_URL`, or `http(s)://` + the request's
 *   `Host`, or one listed in `TRACKLINE_ALLOWED_ORIGINS`; or
 * - the `X-Trackline-Client` header, which no form can send and no other origin can add without a
 *   CORS preflight, which this server never grants (the typed client sends it).
 *
 * A request with neither `Origin` nor `Sec-Fetch-Site` is no browser's (every browser sends `Origin`
 * on such a request to another origin): legacy clients send none, and stay as they were, like every
 * request with Basic, Bearer or `perm:` credentials. Anything else answers 403 before its body is read.
 */
export const CLIENT_HEADER = 'x-trackline-client';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type OriginPolicy = {
  /** Origins whose pages may use the session cookie too (`TRACKLINE_ALLOWED_ORIGINS`). */
  allowedOrigins?: readonly string[] | undefined;
  /** `PUBLIC_URL`: its origin is this server's. */
  publicUrl?: string | undefined;
};

/** The origin of a URL (`scheme://host[:port]`, lower-cased, default port left out), or null. */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export function createOriginCheck(policy: OriginPolicy) {
  const allowed = new Set<string>();
  for (const origin of policy.allowedOrigins ?? []) {
    const normalized = originOf(origin);
    if (normalized) allowed.add(normalized);
  }
  const own = policy.publicUrl ? originOf(policy.publicUrl) : null;
  if (own) allowed.add(own);

  /** Why the request is refused, or null when it may go on. */
  function refusal(req: IncomingMessage): string | null {
    if (SAFE_METHODS.has(req.method ?? 'GET')) return null;
    if (req.headers[CLIENT_HEADER] !== undefined) return null;
    const site = single(req.headers['sec-fetch-site'])?.toLowerCase();
    if (site === 'same-origin' || site === 'none') return null;
    const origin = single(req.headers.origin);
    if (origin === undefined) return site === undefined ? null : refused('no Origin');
    const normalized = originOf(origin);
    if (normalized === null) return refused(`Origin ${JSON.stringify(origin.slice(0, 100))}`);
    if (allowed.has(normalized)) return null;
    // This server's own origin as the browser addressed it (the Host it sent).
    const host = single(req.headers.host)?.toLowerCase();
    if (host && new URL(normalized).host === host) return null;
    return refused(`Origin ${normalized}`);
  }

  return {
    /**
     * Throws 403 for a state-changing request from another origin that relies on the session
     * cookie (or on no credentials at all); Basic, Bearer and `perm:` credentials pass unchecked.
     */
    check(req: IncomingMessage): void {
      const kind = readCredentials(req.headers).kind;
      if (kind !== 'session' && kind !== 'none') return;
      const why = refusal(req);
      if (why !== null) throw new DomainError('PERMISSION_DENIED', why);
    },
  };
}

const refused = (what: string) =>
  `Cross-site request refused (${what}): a request signed in by the session cookie, or a login, must come ` +
  "from this server's own pages; list another origin in TRACKLINE_ALLOWED_ORIGINS, or authenticate with a token or Basic credentials.";

export type OriginCheck = ReturnType<typeof createOriginCheck>;
