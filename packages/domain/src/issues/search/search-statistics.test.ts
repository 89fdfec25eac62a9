import { createTestOrmOnDisk, fork, TEST_DIALECT } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Orm } from '../../orm/open-orm.js';
import {
  noteBulkWrite,
  runSearchStatement,
  type SearchEngineHandle,
  startSearchEngine,
  UPKEEP_FIRST,
} from './search-engine.js';

/**
 * SQLite reads a table's statistics (`sqlite_stat1`) when a connection opens: an analysis made by
 * the indexer's process after an import changed nothing for the server's own connection or the
 * search processes, which planned with the statistics of their start until a restart (a million
 * issues imported into a running server: every page of five or more issues 150-270 ms instead of
 * 4-12). After an analysis both plan with the new statistics.
 */
describe.skipIf(TEST_DIALECT !== 'sqlite')('planner statistics on a running SQLite server', () => {
  let orm: Orm;
  let remove: () => void;
  let engine: SearchEngineHandle;
  // `a` tells nothing (two values), `b` a few rows: with statistics the planner takes `b`'s index.
  const QUERY = 'select id from skew where a = 1 and b > 5 and b < 10';
  const PLAN = `explain query plan ${QUERY}`;
  const planHere = async () =>
    (await fork(orm).execute<{ detail: string }[]>(PLAN)).map((row) => row.detail).join(' ');
  const planOfWorkers = async () =>
    (await runSearchStatement(fork(orm), { sql: PLAN, params: [] }))
      .map((row) => String(row.at(-1)))
      .join(' ');
  const numbers = (n: number) =>
    `(with recursive n(value) as (select 1 union all select value + 1 from n where value < ${n}) select value from n)`;
  const until = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 400 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  };

  beforeAll(async () => {
    let file: string | undefined;
    ({ orm, file, remove } = await createTestOrmOnDisk());
    const em = fork(orm);
    await em.execute('create table skew (id integer primary key, a integer not null, b integer not null)');
    await em.execute('create index skew_a on skew (a)');
    await em.execute('create index skew_b on skew (b)');
    // Analysed while `b` told nothing and `a` everything: the statistics of the server's start.
    await em.execute(`insert into skew (a, b) select value, 7 from ${numbers(1000)}`);
    await em.execute('analyze');
    engine = await startSearchEngine(orm, { file: file as string, workers: 1 });
    // Both ask the planner once, with those statistics (the worker process starts here).
    expect(await planHere()).toMatch(/skew_a/);
    expect(await planOfWorkers()).toMatch(/skew_a/);
    // Then a bulk write turns the distribution round.
    await em.execute(`insert into skew (a, b) select value % 2, value + 100 from ${numbers(60_000)}`);
  });
  afterAll(async () => {
    await engine?.stop();
    await orm?.close(true);
    remove?.();
  });

  it('after the analysis that an import asks for, the server’s connection and the search processes plan with the new statistics', async () => {
    // The import's note of its bulk writes, past the first threshold: the indexer analyses.
    await noteBulkWrite(fork(orm), UPKEEP_FIRST + 1);
    await until(async () => /skew_b/.test(await planHere()));
    expect(await planHere()).toMatch(/skew_b/);
    await until(async () => /skew_b/.test(await planOfWorkers()));
    expect(await planOfWorkers()).toMatch(/skew_b/);
  });
});
