import { EpochCache, perConnection } from '../orm/epoch-cache.js';
import type { Actor } from './actor.js';
import { sha256Hex } from './secrets.js';

/**
 * Resolved actors, remembered per credential under the authorisation epoch.
 *
 * Every request resolves its credential to an actor: the user, their grants and their groups'
 * grants, the trash. Those rows change rarely, so a process remembers what a credential
 * resolved to, together with the epoch it read BEFORE resolving it. The epoch is one row
 * (`trackline_auth_epoch`) that database triggers bump on every change that can change a
 * resolution (migration 0012: users, tokens, sessions, grants, role permissions, group
 * membership and grants, the project trash), in the same transaction as the change. A remembered
 * actor is used only while the epoch is unchanged, so a grant, a revoked token or a logout
 * in any process, through any code path or hand-written SQL, takes effect on the next request.
 * Reading the epoch costs one prepared statement instead of three (token, grants, trash).
 *
 * Keys are SHA-256 digests of the credential (no secret is kept as a key); only successful
 * resolutions are remembered; the memory is bounded by an estimate of each entry's bytes.
 */

export type RememberedActor = {
  actor: Actor;
  /** When a session ends (ms): a remembered session still ends on time. */
  expiresAt?: number;
  /** A permanent token: its id, and when its use was last recorded (ms). */
  token?: { id: number; usedAt: number };
};

/** The most bytes (estimated) of remembered actors per database, per process. */
export const ACTOR_CACHE_MAX_BYTES = 16 * 1024 * 1024;

/** An estimate of an entry's size: fixed parts, then each permission and group held. */
function bytesOf(value: RememberedActor): number {
  const actor = value.actor;
  let held = actor.global.size + (actor.groups?.size ?? 0) + (actor.trash?.live.length ?? 0);
  for (const permissions of actor.byProject.values()) held += permissions.size + 4;
  return 512 + 48 * held;
}

/** Remembered actors: an `EpochCache` under the authorisation epoch, where a session still ends on time. */
export class ActorCache {
  private readonly cache: EpochCache<RememberedActor>;

  constructor(maxBytes = ACTOR_CACHE_MAX_BYTES) {
    this.cache = new EpochCache(bytesOf, maxBytes);
  }

  /** The actor remembered for `key` under `epoch` (and, for a session, not yet ended). */
  get(key: string, epoch: string): RememberedActor | undefined {
    const hit = this.cache.get(key, epoch, Number.POSITIVE_INFINITY);
    if (hit?.expiresAt !== undefined && hit.expiresAt < Date.now()) {
      this.cache.delete(key);
      return undefined;
    }
    return hit;
  }

  has(key: string): boolean {
    return this.cache.has(key);
  }

  /** Remembers `value` under the epoch read before it was resolved; the oldest entries go first. */
  set(key: string, epoch: string, value: RememberedActor): void {
    this.cache.set(key, epoch, Date.now(), value);
  }

  get size(): { entries: number; bytes: number } {
    return this.cache.size;
  }
}

/** The remembered actors of a database (one cache per connection). */
export const actorCacheOf = perConnection(() => new ActorCache());

/** The cache key of a credential: a digest of its kind and value. */
export const credentialKey = (kind: 'token' | 'session' | 'basic', value: string) =>
  sha256Hex(`${kind}\u0000${value}`);
