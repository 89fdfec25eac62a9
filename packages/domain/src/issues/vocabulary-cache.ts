import type { CommandVocabulary } from '../commands/vocabulary.js';
import type { Em } from '../orm/em.js';
import { readRows } from '../read-models/statements.js';

/**
 * Command vocabularies, remembered under the epochs they were built in.
 *
 * A vocabulary (fields and values of the context projects, users, tags, link types, what the
 * actor may apply) costs several queries, and its lexicon an index over every name in it;
 * suggestions, underlining and every command execution need one. Database triggers bump the
 * vocabulary epoch (migration 0013) on every change to what a vocabulary is built from, and
 * the authorisation epoch (0012) on every change to what an actor may do; a vocabulary is
 * reused only while both are the ones read before it was built. So a new value, user, tag or
 * grant, made by any process, is in the next vocabulary, and no request ever parses against
 * a stale one. Nothing built inside a transaction is kept (see `remembered`). The sample of
 * issue ids a vocabulary carries (suggestions only) is not covered by the epochs: callers
 * bound its age.
 */

type Entry<T> = { epoch: string; builtAt: number; value: T; bytes: number };

/** The most bytes (estimated) of remembered values per kind, per database, per process. */
export const VOCABULARY_CACHE_MAX_BYTES = 32 * 1024 * 1024;

/** Values remembered per key under an epoch, bounded by an estimate of their bytes. */
export class EpochCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private bytes = 0;

  constructor(
    private readonly bytesOf: (value: T) => number,
    private readonly maxBytes = VOCABULARY_CACHE_MAX_BYTES,
  ) {}

  get(key: string, epoch: string, maxAgeMs: number): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.epoch !== epoch || Date.now() - entry.builtAt > maxAgeMs) {
      this.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, epoch: string, builtAt: number, value: T): void {
    this.delete(key);
    const entry = { epoch, builtAt, value, bytes: this.bytesOf(value) };
    if (entry.bytes > this.maxBytes) return;
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.bytes;
    }
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}

function vocabularyBytes(v: CommandVocabulary): number {
  let values = 0;
  for (const field of v.fields) values += field.values.length + 1;
  return 1024 + 96 * v.users.length + 64 * (values + v.tags.length + v.linkTypes.length + v.issueIds.length);
}

/** One cache per kind per database connection (tests open many databases in one process). */
function cacheOf<T>(
  caches: WeakMap<object, EpochCache<T>>,
  em: Em,
  bytesOf: (value: T) => number,
): EpochCache<T> {
  const connection = em.getConnection();
  let cache = caches.get(connection);
  if (!cache) {
    cache = new EpochCache(bytesOf);
    caches.set(connection, cache);
  }
  return cache;
}

/** The authorisation and vocabulary epochs, as one key part (one statement). */
export async function readEpochs(em: Em): Promise<string> {
  const rows = await readRows<{ id: number; n: unknown }>(
    em,
    'select id, n from trackline_auth_epoch where id in (1, 2) order by id',
  );
  if (rows.length !== 2)
    throw new Error('trackline_auth_epoch lacks its rows: the database is not migrated.');
  return rows.map((r) => String(r.n)).join('.');
}

const vocabularies = new WeakMap<object, EpochCache<CommandVocabulary>>();

/**
 * The vocabulary remembered under `key` (what it was built for: the actor and the context
 * projects) when the epochs are unchanged and it is at most `maxAgeMs` old; else `build()`,
 * remembered.
 */
export function rememberedVocabulary(
  em: Em,
  key: string,
  maxAgeMs: number,
  build: () => Promise<CommandVocabulary>,
): Promise<CommandVocabulary> {
  return remembered(cacheOf(vocabularies, em, vocabularyBytes), em, key, maxAgeMs, build);
}

/**
 * `cache`'s value for `key` under the current epochs, else `build()`. Inside a transaction a
 * value is looked up but never kept: the epochs read there may be the transaction's own,
 * uncommitted ones, and what it builds may see its uncommitted rows. (A lookup is safe: no
 * value is ever kept under an epoch that was not committed when it was read.)
 */
export async function remembered<T>(
  cache: EpochCache<T>,
  em: Em,
  key: string,
  maxAgeMs: number,
  build: () => Promise<T>,
): Promise<T> {
  const epoch = await readEpochs(em);
  const hit = cache.get(key, epoch, maxAgeMs);
  if (hit) return hit;
  const builtAt = Date.now();
  const value = await build();
  if (!em.getTransactionContext()) cache.set(key, epoch, builtAt, value);
  return value;
}

/** A cache of `T` per database connection, for `remembered`. */
export function epochCacheFor<T>(bytesOf: (value: T) => number): (em: Em) => EpochCache<T> {
  const caches = new WeakMap<object, EpochCache<T>>();
  return (em) => cacheOf(caches, em, bytesOf);
}
