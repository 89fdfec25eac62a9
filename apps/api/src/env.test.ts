import { describe, expect, it } from 'vitest';
import { processCountFromEnv, readEnv } from './env.js';

describe('TRACKLINE_PROCESSES', () => {
  it('defaults to one per core on PostgreSQL and to one on SQLite; a setting wins', () => {
    const pg = 'postgres://postgres@127.0.0.1:5432/x';
    expect(processCountFromEnv(readEnv({}), 8)).toBe(1);
    expect(processCountFromEnv(readEnv({ DATABASE_URL: pg }), 8)).toBe(8);
    expect(processCountFromEnv(readEnv({ DATABASE_URL: pg, TRACKLINE_PROCESSES: '3' }), 8)).toBe(3);
    expect(processCountFromEnv(readEnv({ TRACKLINE_PROCESSES: '2' }), 8)).toBe(2);
  });

  it('refuses what is not a count from 1 to 64, naming the setting', () => {
    for (const bad of ['0', '65', 'two', '1.5'])
      expect(() => readEnv({ TRACKLINE_PROCESSES: bad })).toThrow(/TRACKLINE_PROCESSES/);
  });
});
