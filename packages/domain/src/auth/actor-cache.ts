import type { Em } from '../orm/em.js';
import { readRow } from '../read-models/statements.js';
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

type Entry = RememberedActor & { epoch: string; bytes: number };

/** The most bytes (estimated) of remembered actors per database, per process. */
export const ACTOR_CACHE_MAX_BYTES = 16 * 1024 * 1024;

/** An estimate of an entry's size: fixed parts, then each permission and group held. */
function bytesOf(actor: Actor): number {
  let held = actor.global.size + (actor.groups?.size ?? 0) + (actor.trash?.live.length ?? 0);
  for (const permissions of actor.byProject.values()) held += permissions.size + 4;
  return 512 + 48 * held;
}

export class ActorCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxBytes = ACTOR_CACHE_MAX_BYTES) {}

  /** The actor remembered for `key` under `epoch` (and, for a session, not yet ended). */
  get(key: string, epoch: string): RememberedActor | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.epoch !== epoch || (entry.expiresAt !== undefined && entry.expiresAt < Date.now())) {
      this.delete(key);
      return undefined;
    }
    return entry;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Remembers `value` under the epoch read before it was resolved; the oldest entries go first. */
  set(key: string, epoch: string, value: RememberedActor): void {
    this.delete(key);
    const entry: Entry = { ...value, epoch, bytes: bytesOf(value.actor) };
    if (entry.bytes > this.maxBytes) return;
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.bytes;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  /** Estimated bytes held (for tests and diagnostics). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}

/** One cache per database connection (tests open many databases in one process). */
const caches = new WeakMap<object, ActorCache>();

export function actorCacheOf(em: Em): ActorCache {
  const connection = em.getConnection();
  let cache = caches.get(connection);
  if (!cache) {
    cache = new ActorCache();
    caches.set(connection, cache);
  }
  return cache;
}

/**
 * The current authorisation epoch. Read before resolving a credential: a change committed
 * after this read bumps the epoch past it, so what was resolved is never remembered for longer
 * than the rows it came from.
 */
export async function readAuthEpoch(em: Em): Promise<string> {
  const row = await readRow<{ n: unknown }>(em, 'select n from trackline_auth_epoch where id = 1');
  if (!row) throw new Error('trackline_auth_epoch has no row: the database is not migrated.');
  return String(row.n);
}

/** The cache key of a credential: a digest of its kind and value. */
export const credentialKey = (kind: 'token' | 'session' | 'basic', value: string) =>
  sha256Hex(`${kind}\u0000${value}`);
