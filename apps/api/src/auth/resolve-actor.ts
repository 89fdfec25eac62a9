import {
  type Actor,
  type AuthenticatedUser,
  actorCacheOf,
  credentialKey,
  type Em,
  findUserWithPassword,
  loadActor,
  perConnection,
  type RememberedActor,
  readAuthEpoch,
  recordTokenUse,
  verifySession,
  verifyToken,
} from '@trackline/domain';
import type { Credentials } from './credentials.js';
import { checkPasswordOnce } from './password-check.js';

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
  /** A reserved check ended, either way (after `succeeded` when it found the password right). */
  ended(login: string): Promise<void>;
};

/**
 * The entity managers authentication uses: `reads`, the ORM's shared one, for what every
 * authenticated request does (the epoch, the actor cache, noting a token's use: statements, no
 * entities); `fork()`, the request's own (forked on first use), for the rest: entities, password
 * checks. A request whose caller is remembered forks none here (a fork was 3% of a computed read).
 */
export type AuthEms = { reads: Em; fork: () => Em };

/**
 * Every kind of credential resolves through the actor cache (`actorCacheOf`, in the domain):
 * what a credential resolved to is remembered under the authorisation epoch read before
 * resolving it, and used while no change to users, tokens, sessions, grants, groups or the
 * trash has bumped the epoch (database triggers do, whichever process or code path changes
 * them). Basic auth runs scrypt (tens of ms) and clients such as the IDE plugin send it on
 * every call, so this also spares them the password check.
 */
async function remembered(em: Em, key: string): Promise<{ epoch: string; hit: RememberedActor | undefined }> {
  const epoch = await readAuthEpoch(em);
  return { epoch, hit: actorCacheOf(em).get(key, epoch) };
}

function remember(em: Em, key: string, epoch: string, value: RememberedActor): Actor {
  // Inside a transaction the epoch read may be the transaction's own, uncommitted one.
  if (!em.getTransactionContext()) actorCacheOf(em).set(key, epoch, value);
  return value.actor;
}

const throttled = (retryAfter: number): Resolved => ({
  actor: null,
  failure: 'Too many failed login attempts.',
  retryAfter,
});

/**
 * A Basic pair whose password was checked is remembered for a minute (keyed by the digest of
 * the pair) with the password hash it was checked against: while the user's hash is that one,
 * the pair needs no scrypt again even after the epoch moved (a grant elsewhere, a new project),
 * and takes no throttle attempt. A password change, in any process, ends it.
 */
const VERIFIED_PAIR_TTL_MS = 60_000;
type VerifiedPairs = Map<string, { userId: number; passwordHash: string; expires: number }>;
/**
 * One map per database (the ORM's connection), like the actor cache: a user id means something
 * only in its own database. A server has one; a test process that opens many keeps them apart.
 */
const verifiedPairsOf = perConnection((): VerifiedPairs => new Map());

async function verifiedPairUser(em: Em, key: string): Promise<AuthenticatedUser | null> {
  const verifiedPairs = verifiedPairsOf(em);
  const pair = verifiedPairs.get(key);
  if (!pair) return null;
  const user = pair.expires > Date.now() ? await findUserWithPassword(em, pair.userId) : null;
  if (user && user.passwordHash === pair.passwordHash) return user;
  verifiedPairs.delete(key);
  return null;
}

function rememberPair(em: Em, key: string, user: { id: number; passwordHash?: string | null | undefined }) {
  if (!user.passwordHash) return;
  const verifiedPairs = verifiedPairsOf(em);
  if (verifiedPairs.size > 10_000) verifiedPairs.clear();
  verifiedPairs.set(key, {
    userId: user.id,
    passwordHash: user.passwordHash,
    expires: Date.now() + VERIFIED_PAIR_TTL_MS,
  });
}

/**
 * Basic credentials under a throttle: the lockout is consulted first, even for a remembered
 * pair (a lockout must not remain an oracle); a pair that needs scrypt first reserves an
 * attempt, so parallel guesses are counted before any of them is checked.
 */
async function basicActor(
  ems: AuthEms,
  credentials: Extract<Credentials, { kind: 'basic' }>,
  limit?: { throttle: LoginThrottle; ip: string },
): Promise<Actor | Resolved | null> {
  const { login, password } = credentials;
  const key = credentialKey('basic', `${login}\u0000${password}`);
  const { reads } = ems;
  if (limit && (verifiedPairsOf(reads).has(key) || actorCacheOf(reads).has(key))) {
    const wait = await limit.throttle.check(login, limit.ip);
    if (wait > 0) return throttled(wait);
  }
  // No password check happens on a hit, so nothing is reserved or reset (and no store write).
  const { epoch, hit } = await remembered(reads, key);
  if (hit) return hit.actor;
  const em = ems.fork();
  const known = await verifiedPairUser(em, key);
  if (known) return remember(em, key, epoch, { actor: await loadActor(em, known) });
  // Parallel requests with this pair share one check (see `checkPasswordOnce`).
  const outcome = await checkPasswordOnce(em, login, password, limit, (user) => rememberPair(em, key, user));
  if ('retryAfter' in outcome) return throttled(outcome.retryAfter);
  if (!outcome.user) return null;
  return remember(em, key, epoch, { actor: await loadActor(em, outcome.user) });
}

async function tokenActor(ems: AuthEms, token: string): Promise<Actor | null> {
  const key = credentialKey('token', token);
  const { epoch, hit } = await remembered(ems.reads, key);
  if (hit?.token) {
    await recordTokenUse(ems.reads, hit.token);
    return hit.actor;
  }
  const em = ems.fork();
  const verified = await verifyToken(em, token);
  if (!verified) return null;
  return remember(em, key, epoch, { actor: await loadActor(em, verified.user), token: verified.token });
}

async function sessionActor(ems: AuthEms, value: string): Promise<Actor | null> {
  const key = credentialKey('session', value);
  const { epoch, hit } = await remembered(ems.reads, key);
  if (hit) return hit.actor;
  const em = ems.fork();
  const session = await verifySession(em, value);
  if (!session) return null;
  return remember(em, key, epoch, {
    actor: await loadActor(em, session.user),
    expiresAt: session.expiresAt,
  });
}

function actorFor(
  ems: AuthEms,
  credentials: Credentials,
  limit?: { throttle: LoginThrottle; ip: string },
): Promise<Actor | Resolved | null> {
  switch (credentials.kind) {
    case 'token':
      return tokenActor(ems, credentials.token);
    case 'session':
      return sessionActor(ems, credentials.value);
    case 'basic':
      return basicActor(ems, credentials, limit);
    default:
      return Promise.resolve(null);
  }
}

/**
 * Resolves the caller. With `limit`, Basic password checks are throttled (see `basicActor`);
 * `retryAfter` in the result means the password was not checked.
 */
export async function resolveActor(
  ems: AuthEms,
  credentials: Credentials,
  limit?: { throttle: LoginThrottle; ip: string },
): Promise<Resolved> {
  if (credentials.kind === 'none') return { actor: null, failure: null };
  if (credentials.kind === 'malformed') return { actor: null, failure: credentials.reason };
  const actor = await actorFor(ems, credentials, limit);
  if (!actor) return { actor: null, failure: 'Invalid credentials.' };
  if ('failure' in actor) return actor;
  return credentials.kind === 'session'
    ? { actor, failure: null, session: credentials.value }
    : { actor, failure: null };
}
