import { createTestOrm, fork, TEST_DIALECT } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Em } from '../../orm/em.js';
import type { Orm } from '../../orm/open-orm.js';
import { readRows } from '../../orm/statements.js';
import {
  noteBulkWrite,
  runSearchStatement,
  type SearchEngineHandle,
  startSearchEngine,
  UPKEEP_FIRST,
} from './search-engine.js';

/**
 * PostgreSQL's upkeep after bulk writes: `analyze` where autovacuum runs, `vacuum (analyze)` where it
 * is off (nothing else would ever mark pages all-visible for index-only counts), on the search pool.
 */
describe.skipIf(TEST_DIALECT !== 'postgresql')('search sessions and upkeep on PostgreSQL', () => {
  let orm: Orm;
  let engine: SearchEngineHandle;
  beforeAll(async () => {
    orm = await createTestOrm();
    engine = await startSearchEngine(orm, {});
  });
  afterAll(async () => {
    await engine?.stop();
    await orm?.close(true);
  });

  const stats = async () => {
    const em = fork(orm) as Em;
    await readRows(em, 'select pg_stat_clear_snapshot()');
    const [row] = await readRows<{ vacuumed: boolean; analyzed: boolean; autovacuum: boolean }>(
      em,
      "select last_vacuum is not null as vacuumed, last_analyze is not null as analyzed, current_setting('autovacuum') = 'on' as autovacuum from pg_stat_user_tables where relname = 'issue_field_values'",
    );
    return row;
  };

  it('brings the search tables up to date once an import has written enough issues', async () => {
    const before = await stats();
    expect(before).toMatchObject({ vacuumed: false, analyzed: false });
    await noteBulkWrite(fork(orm) as Em, UPKEEP_FIRST - 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(await stats()).toMatchObject({ vacuumed: false, analyzed: false });
    await noteBulkWrite(fork(orm) as Em, 1);
    let after = await stats();
    for (let waited = 0; waited < 30_000 && !after?.analyzed; waited += 200) {
      await new Promise((r) => setTimeout(r, 200));
      after = await stats();
    }
    expect(after).toMatchObject({ analyzed: true, vacuumed: !after?.autovacuum });
  }, 60_000);

  it('runs serial counts in sessions that start no parallel workers, the others in sessions that may', async () => {
    const setting = async (serial: boolean) => {
      const [row] = await runSearchStatement(
        fork(orm) as Em,
        { sql: "select current_setting('max_parallel_workers_per_gather')", params: [] },
        { serial },
      );
      return row?.[0];
    };
    expect(await setting(true)).toBe('0');
    const [server] = await readRows<{ n: string }>(
      fork(orm) as Em,
      "select current_setting('max_parallel_workers_per_gather') as n",
    );
    expect(await setting(false)).toBe(server?.n);
  });
});
