import type { Em } from './em.js';
import { dialectOfEm } from './open-orm.js';
import { readRow, readRows } from './statements.js';

/**
 * Values remembered under epochs: counters in `trackline_auth_epoch` that database triggers bump
 * in the transaction that changes what the values are built from (row 1, authorisation:
 * migration 0012; row 2, command vocabulary: 0013). A value is used only while the epoch read
 * before building it is unchanged, whichever process or code path changed the rows.
 */

type Entry<T> = { epoch: string; builtAt: number; value: T; bytes: number };

/** The most bytes (estimated) of remembered values per kind, per database, per process. */
export const EPOCH_CACHE_MAX_BYTES = 32 * 1024 * 1024;

/** Values remembered per key under an epoch, bounded by an estimate of their bytes. */
export class EpochCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private bytes = 0;

  constructor(
    private readonly bytesOf: (value: T) => number,
    private readonly maxBytes = EPOCH_CACHE_MAX_BYTES,
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

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Estimated bytes held (for tests and diagnostics). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}

/** One `T` per database connection (tests open many databases in one process). */
export function perConnection<T extends object>(create: () => T): (em: Em) => T {
  const values = new WeakMap<object, T>();
  return (em) => {
    const connection = em.getConnection();
    let value = values.get(connection);
    if (!value) {
      value = create();
      values.set(connection, value);
    }
    return value;
  };
}

/** A cache of `T` per database connection, for `remembered`. */
export const epochCacheFor = <T>(bytesOf: (value: T) => number): ((em: Em) => EpochCache<T>) =>
  perConnection(() => new EpochCache(bytesOf));

// Raw reads: `trackline_auth_epoch` is a table of the migrations' triggers, outside the entities
// (and `orm` sits below `model`, where the typed builder is), so it has no typed description.

/** The authorisation and vocabulary epochs (rows 1 and 2), read now. */
async function readEpochPair(em: Em): Promise<[string, string]> {
  const rows = await readRows<{ id: number; n: unknown }>(
    em,
    'select id, n from trackline_auth_epoch where id in (1, 2) order by id',
  );
  if (rows.length !== 2)
    throw new Error('trackline_auth_epoch lacks its rows: the database is not migrated.');
  return [String(rows[0]?.n), String(rows[1]?.n)];
}

/** Per database connection: the pair read that requests of this turn share, until it is sent. */
const sharedPairs = new WeakMap<object, Promise<[string, string]>>();

/**
 * The epochs as read by one statement that every request asking in the same turn of the event
 * loop shares, on PostgreSQL. The statement is sent after the I/O phase (`setImmediate`), once
 * every request read in this turn has asked, and a request arriving after it was sent waits for
 * the next one: each request still gets epochs read after it arrived, so a change committed
 * before that (a revoked token, a grant, in any process) is seen exactly as with a read of its
 * own. Why: the epoch is read by every authenticated request, and on PostgreSQL each read is a
 * round trip and a backend's statement; under load several requests arrive per turn. SQLite and
 * transactions read at once (there a read is a function call; a transaction sees its own rows).
 */
function epochPair(em: Em): Promise<[string, string]> {
  if (em.getTransactionContext() || dialectOfEm(em) !== 'postgresql') return readEpochPair(em);
  const connection = em.getConnection();
  let shared = sharedPairs.get(connection);
  if (!shared) {
    shared = new Promise((resolve, reject) => {
      setImmediate(() => {
        sharedPairs.delete(connection);
        readEpochPair(em).then(resolve, reject);
      });
    });
    sharedPairs.set(connection, shared);
  }
  return shared;
}

/** The authorisation and vocabulary epochs, as one key part (one statement, shared by a turn's requests). */
export async function readEpochs(em: Em): Promise<string> {
  return (await epochPair(em)).join('.');
}

/**
 * The two epochs and the issues' high-water mark (the largest issue id), in the same one statement:
 * for values that also hold a sample of issues (the command vocabulary's linkable ids), which are
 * then rebuilt the moment an issue is created, by any process, at no extra round trip. (An index
 * lookup on both databases; deleting the newest issue lowers it too.)
 */
export async function readEpochsAndIssueMark(em: Em): Promise<string> {
  const rows = await readRows<{ id: number; n: unknown }>(
    em,
    'select id, n from trackline_auth_epoch where id in (1, 2) ' +
      'union all select 3 as id, coalesce(max(id), 0) as n from issues order by id',
  );
  if (rows.length !== 3)
    throw new Error('trackline_auth_epoch lacks its rows: the database is not migrated.');
  return rows.map((r) => String(r.n)).join('.');
}

/** The authorisation epoch alone (row 1; on PostgreSQL from the pair read a turn's requests share). */
export async function readAuthEpoch(em: Em): Promise<string> {
  if (dialectOfEm(em) === 'postgresql') return (await epochPair(em))[0];
  const row = await readRow<{ n: unknown }>(em, 'select n from trackline_auth_epoch where id = 1');
  if (!row) throw new Error('trackline_auth_epoch has no row: the database is not migrated.');
  return String(row.n);
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
  /** The value holds issues: new ones make it stale at once (`readEpochsAndIssueMark`). */
  options: { issueMark?: boolean } = {},
): Promise<T> {
  const epoch = options.issueMark ? await readEpochsAndIssueMark(em) : await readEpochs(em);
  const hit = cache.get(key, epoch, maxAgeMs);
  if (hit) return hit;
  const builtAt = Date.now();
  const value = await build();
  if (!em.getTransactionContext()) cache.set(key, epoch, builtAt, value);
  return value;
}
