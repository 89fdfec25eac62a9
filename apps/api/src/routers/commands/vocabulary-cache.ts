import * as d from '@trackline/domain';
import { onDataChanged } from './data-changes.js';

/**
 * Suggestions and underlining run on every keystroke. A vocabulary costs a few queries and,
 * on first use, an index over every name in it (several ms for 500 users), so one is kept
 * per (actor, context projects) for a few seconds. Any mutation served by this process
 * clears the cache at once; the TTL bounds staleness from writes made by other processes.
 * Command execution never uses this cache: it parses against a fresh vocabulary.
 */
const TTL_MS = 3000;
const MAX_ENTRIES = 1000;

type Entry = { generation: number; expires: number; vocabulary: d.CommandVocabulary };
/**
 * One map per database (the ORM's connection): actor and project ids mean something only in
 * their own database. A server has one; a test process that opens many databases keeps them apart.
 */
let caches = new WeakMap<object, Map<string, Entry>>();
let generation = 0;

export function invalidateVocabularies(): void {
  generation++;
  caches = new WeakMap();
}

function cacheOf(em: d.Em): Map<string, Entry> {
  const connection = em.getConnection();
  let cache = caches.get(connection);
  if (!cache) {
    cache = new Map();
    caches.set(connection, cache);
  }
  return cache;
}
onDataChanged(invalidateVocabularies);

export async function cachedVocabulary(
  em: d.Em,
  actor: d.Actor,
  /** The context issues, already resolved (and so checked readable) by the caller. */
  context: readonly d.IssueRef[] | null,
): Promise<d.CommandVocabulary> {
  const projects =
    context === null ? 'none' : [...new Set(context.map((r) => r.projectId))].sort((a, b) => a - b).join(',');
  const key = `${actor.userId}|${projects}`;
  const now = Date.now();
  const cache = cacheOf(em);
  const hit = cache.get(key);
  if (hit && hit.generation === generation && hit.expires > now) return hit.vocabulary;
  const startedAt = generation;
  const vocabulary = await d.buildVocabulary(
    em,
    actor,
    context === null ? null : context.map((r) => r.readableId),
  );
  // A mutation that landed while building makes this result possibly stale: don't keep it.
  if (startedAt === generation) {
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(key, { generation, expires: now + TTL_MS, vocabulary });
  }
  return vocabulary;
}
