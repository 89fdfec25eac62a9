import { Redis } from 'ioredis';
import pg from 'pg';
import {
  type IRateLimiterOptions,
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
} from 'rate-limiter-flexible';

/**
 * Where the limiters of `limits.ts` keep their counters (rate-limiter-flexible stores):
 * memory (one process), PostgreSQL or Redis (shared by every process using the same one).
 */
export type LimitsStoreConfig =
  | { kind: 'memory' }
  | { kind: 'postgres'; url: string; namespace?: string }
  | { kind: 'redis'; url: string; namespace?: string };

export type LimiterOptions = Required<Pick<IRateLimiterOptions, 'keyPrefix' | 'points' | 'duration'>>;

export type LimitsStore = {
  kind: LimitsStoreConfig['kind'];
  /** Prefix of every key (`trackline`): deployments or test runs sharing one Redis stay apart. */
  namespace: string;
  limiter(options: LimiterOptions): RateLimiterAbstract;
  /** Releases the store's connections (not the counters). */
  close(): Promise<void>;
};

/** One table for every limiter (keys carry the limiter's prefix); not an entity: the limiter owns it. */
export const LIMITS_TABLE = 'trackline_limits';

export function memoryLimitsStore(): LimitsStore {
  return {
    kind: 'memory',
    namespace: 'trackline',
    limiter: (options) => new RateLimiterMemory(options),
    close: async () => {},
  };
}

/**
 * Opens a shared store. Should it fail later (database or Redis unreachable), each limiter falls
 * back to per-process memory counters (the insurance limiter) rather than refusing everyone.
 */
export async function openLimitsStore(
  config: LimitsStoreConfig,
  logError: (error: unknown) => void = console.error,
): Promise<LimitsStore> {
  const insured = (options: LimiterOptions) => ({
    ...options,
    insuranceLimiter: new RateLimiterMemory(options),
  });
  switch (config.kind) {
    case 'memory':
      return memoryLimitsStore();
    case 'postgres': {
      const pool = new pg.Pool({ connectionString: config.url, max: 4 });
      // An idle connection that breaks (database restart) must not crash the process.
      pool.on('error', logError);
      // The limiter's own layout, created once here rather than concurrently by each limiter.
      await createLimitsTable(pool);
      return {
        kind: 'postgres',
        namespace: config.namespace ?? 'trackline',
        limiter: (options) =>
          new RateLimiterPostgres({
            ...insured(options),
            storeClient: pool,
            storeType: 'pool',
            tableName: LIMITS_TABLE,
            tableCreated: true,
          }),
        close: () => pool.end(),
      };
    }
    case 'redis': {
      const client = new Redis(config.url, { maxRetriesPerRequest: 1, lazyConnect: true });
      client.on('error', logError);
      await client.connect();
      return {
        kind: 'redis',
        namespace: config.namespace ?? 'trackline',
        limiter: (options) => new RateLimiterRedis({ ...insured(options), storeClient: client }),
        close: async () => {
          await client.quit();
        },
      };
    }
  }
}

/**
 * `create table if not exists` is not safe against itself on PostgreSQL: two processes starting
 * at once can both pass the check and one fails on the catalogue's unique index. An advisory lock
 * held for the transaction makes the second wait and then find the table.
 */
async function createLimitsTable(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock(727004)');
    await client.query(
      `create table if not exists ${LIMITS_TABLE} (key varchar(255) primary key, points integer not null default 0, expire bigint)`,
    );
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
