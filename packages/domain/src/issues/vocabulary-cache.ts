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
 * a stale one. Inside a transaction nothing is read from or kept in the cache (the epochs
 * there may be the transaction's own, uncommitted). The sample of issue ids a vocabulary
 * carries (suggestions only) is not covered by the epochs: callers bound its age.
 */

type Entry = { epoch: string; builtAt: number; vocabulary: CommandVocabulary; bytes: number };

/** The most bytes (estimated) of vocabularies per database, per process. */
export const VOCABULARY_CACHE_MAX_BYTES = 32 * 1024 * 1024;

function bytesOf(v: CommandVocabulary): number {
  let values = 0;
  for (const field of v.fields) values += field.values.length + 1;
  return 1024 + 96 * v.users.length + 64 * (values + v.tags.length + v.linkTypes.length + v.issueIds.length);
}

export class VocabularyCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxBytes = VOCABULARY_CACHE_MAX_BYTES) {}

  get(key: string, epoch: string, maxAgeMs: number): CommandVocabulary | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.epoch !== epoch || Date.now() - entry.builtAt > maxAgeMs) {
      this.delete(key);
      return undefined;
    }
    return entry.vocabulary;
  }

  set(key: string, epoch: string, builtAt: number, vocabulary: CommandVocabulary): void {
    this.delete(key);
    const entry = { epoch, builtAt, vocabulary, bytes: bytesOf(vocabulary) };
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

const caches = new WeakMap<object, VocabularyCache>();

function cacheOf(em: Em): VocabularyCache {
  const connection = em.getConnection();
  let cache = caches.get(connection);
  if (!cache) {
    cache = new VocabularyCache();
    caches.set(connection, cache);
  }
  return cache;
}

/** The authorisation and vocabulary epochs, as one key part (one statement). */
async function readEpochs(em: Em): Promise<string> {
  const rows = await readRows<{ id: number; n: unknown }>(
    em,
    'select id, n from trackline_auth_epoch where id in (1, 2) order by id',
  );
  if (rows.length !== 2)
    throw new Error('trackline_auth_epoch lacks its rows: the database is not migrated.');
  return rows.map((r) => String(r.n)).join('.');
}

/**
 * The vocabulary remembered under `key` (what it was built for: the actor and the context
 * projects) when the epochs are unchanged and it is at most `maxAgeMs` old; else `build()`,
 * remembered.
 */
export async function rememberedVocabulary(
  em: Em,
  key: string,
  maxAgeMs: number,
  build: () => Promise<CommandVocabulary>,
): Promise<CommandVocabulary> {
  if (em.getTransactionContext()) return build();
  const epoch = await readEpochs(em);
  const cache = cacheOf(em);
  const hit = cache.get(key, epoch, maxAgeMs);
  if (hit) return hit;
  const builtAt = Date.now();
  const vocabulary = await build();
  cache.set(key, epoch, builtAt, vocabulary);
  return vocabulary;
}
