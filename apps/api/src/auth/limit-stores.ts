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
  | { kind: 'postgres'; url: string }
  | { kind: 'redis'; url: string };

export type LimiterOptions = Required<Pick<IRateLimiterOptions, 'keyPrefix' | 'points' | 'duration'>>;

export type LimitsStore = {
  kind: LimitsStoreConfig['kind'];
  limiter(options: LimiterOptions): RateLimiterAbstract;
  /** Releases the store's connections (not the counters). */
  close(): Promise<void>;
};

/** One table for every limiter (keys carry the limiter's prefix); not an entity: the limiter owns it. */
export const LIMITS_TABLE = 'trackline_limits';

export function memoryLimitsStore(): LimitsStore {
  return { kind: 'memory', limiter: (options) => new RateLimiterMemory(options), close: async () => {} };
}

/**
 * Opens a shared store. Should it fail later (database or Redis unreachable), each limiter falls
 * back to per-process memory counters (the insurance limiter) rather than refusing everyone.
 */
export async function openLimitsStore(config: LimitsStoreConfig): Promise<LimitsStore> {
  const insured = (options: LimiterOptions) => ({
    ...options,
    insuranceLimiter: new RateLimiterMemory(options),
  });
  switch (config.kind) {
    case 'memory':
      return memoryLimitsStore();
    case 'postgres': {
      const pool = new pg.Pool({ connectionString: config.url, max: 4 });
      // The limiter's own layout, created once here rather than concurrently by each limiter.
      await pool.query(
        `create table if not exists ${LIMITS_TABLE} (key varchar(255) primary key, points integer not null default 0, expire bigint)`,
      );
      return {
        kind: 'postgres',
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
      await client.connect();
      return {
        kind: 'redis',
        limiter: (options) => new RateLimiterRedis({ ...insured(options), storeClient: client }),
        close: async () => {
          await client.quit();
        },
      };
    }
  }
}
