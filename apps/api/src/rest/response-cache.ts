/**
 * The hot read path of `/rest`: a GET answered before from the same credentials, URL and
 * Accept header is replayed from memory, skipping authentication queries, the ORM and the
 * OpenAPI adapter. This is what lets single-entity reads approach the bare `node:http`
 * baseline (see README, Benchmarks).
 *
 * Correctness rests on invalidation, not on expiry: every entry carries the data generation
 * it was computed under, and any change (a mutation, a stored delivery, a worker unit, or a
 * NOTIFY from another process) moves the generation on and empties the cache. A response is
 * only stored if no change happened while it was being computed. The TTL is a safety net
 * for changes this process cannot see (another process without a change feed).
 * Only 200 answers to authenticated callers are kept; keys include the exact credential, so
 * one caller's answer is never served to another.
 */
export type CachedResponse = { userId: number; headers: Record<string, string>; body: Buffer };
type Entry = CachedResponse & { generation: number; expires: number };

export type ResponseCacheOptions = { ttlMs?: number; maxEntries?: number; maxBodyBytes?: number };

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private current = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  readonly maxBodyBytes: number;

  constructor(options: ResponseCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 2000;
    this.maxEntries = options.maxEntries ?? 5000;
    this.maxBodyBytes = options.maxBodyBytes ?? 256 * 1024;
  }

  /** The generation to pass back to `set`: a change in between voids the store. */
  get generation(): number {
    return this.current;
  }

  invalidate(): void {
    this.current++;
    this.entries.clear();
  }

  get(key: string, now = Date.now()): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.generation !== this.current || entry.expires <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  set(key: string, generation: number, response: CachedResponse, now = Date.now()): void {
    if (generation !== this.current || response.body.length > this.maxBodyBytes) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { ...response, generation, expires: now + this.ttlMs });
  }
}

/**
 * The cache key of a GET, or null when it must not be cached (no credentials). The raw
 * Authorization or Cookie header is part of the key: different credentials never share.
 */
export function responseCacheKey(
  headers: {
    authorization?: string | undefined;
    cookie?: string | undefined;
    accept?: string | undefined;
  },
  url: string,
): string | null {
  const credential = headers.authorization ?? headers.cookie;
  if (!credential) return null;
  return `${credential}\u0001${headers.accept ?? ''}\u0001${url}`;
}
