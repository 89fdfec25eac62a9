import { actorFor, createTestOrm, fork, TEST_DIALECT } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importIssues } from '../../import/import-issues.js';
import type { Em } from '../../orm/em.js';
import type { Orm } from '../../orm/open-orm.js';
import { readRows } from '../../orm/statements.js';
import { createProject } from '../../projects/projects.js';
import {
  noteBulkWrite,
  runSearchStatement,
  SEARCH_APPLICATION_NAME,
  type SearchEngineHandle,
  startSearchEngine,
  UPKEEP_FIRST,
} from './search-engine.js';

/**
 * PostgreSQL's upkeep at start and after bulk writes: `analyze` where autovacuum runs, `vacuum (analyze)` where it
 * is off (nothing else would ever mark pages all-visible for index-only counts), on the search pool.
 */
describe.skipIf(TEST_DIALECT !== 'postgresql')('search sessions and upkeep on PostgreSQL', () => {
  let orm: Orm;
  let engine: SearchEngineHandle;
  const logged: string[] = [];
  let beforeStart: Record<'issues' | 'issue_field_values', Stats>;
  beforeAll(async () => {
    orm = await createTestOrm();
    // Before the engine starts: `issues` with pages never marked all-visible (as a migration that
    // rewrites a table leaves it), `issue_field_values` vacuumed.
    const root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'UPK', name: 'Upkeep' });
    await importIssues(fork(orm), root, {
      project: 'UPK',
      issues: Array.from({ length: 60 }, (_, k) => ({
        fields: [
          { name: 'numberInProject', values: [String(k + 1)] },
          { name: 'summary', values: [`Issue ${k + 1} ${'words '.repeat(100)}`] },
          { name: 'created', values: [String(Date.UTC(2022, 0, 1) + k * 60_000)] },
          { name: 'reporterName', values: ['root'] },
          { name: 'State', values: ['Open'] },
        ],
      })),
    });
    await readRows(fork(orm) as Em, 'analyze issues');
    await readRows(fork(orm) as Em, 'vacuum (analyze) issue_field_values');
    beforeStart = { issues: await stats('issues'), issue_field_values: await stats('issue_field_values') };
    engine = await startSearchEngine(orm, { logError: (message) => logged.push(message) });
  });
  afterAll(async () => {
    await engine?.stop();
    await orm?.close(true);
  });

  type Stats = { vacuumed: number; analyzed: number; autovacuum: boolean };
  /** When `table` was last analysed and vacuumed (epoch ms, 0 for never). */
  const stats = async (table: string): Promise<Stats> => {
    const em = fork(orm) as Em;
    await readRows(em, 'select pg_stat_clear_snapshot()');
    const [row] = await readRows<Stats>(
      em,
      "select coalesce(extract(epoch from last_vacuum) * 1000, 0)::float8 as vacuumed, coalesce(extract(epoch from last_analyze) * 1000, 0)::float8 as analyzed, current_setting('autovacuum') = 'on' as autovacuum from pg_stat_user_tables where relname = ?",
      [table],
    );
    if (!row) throw new Error(`no statistics for ${table}`);
    return { ...row, vacuumed: Number(row.vacuumed), analyzed: Number(row.analyzed) };
  };
  const vacuumedAfter = async (table: string, since: number) => {
    let now = await stats(table);
    for (let waited = 0; waited < 30_000 && now.vacuumed <= since; waited += 200) {
      await new Promise((r) => setTimeout(r, 200));
      now = await stats(table);
    }
    return now;
  };

  it('at start, vacuums the search tables whose pages are mostly not marked all-visible, where autovacuum is off', async () => {
    if (beforeStart.issues.autovacuum) {
      // The server's autovacuum keeps them: the engine leaves them alone until bulk writes.
      await new Promise((r) => setTimeout(r, 500));
      expect(await stats('issues')).toEqual(beforeStart.issues);
      return;
    }
    const issues = await vacuumedAfter('issues', beforeStart.issues.vacuumed);
    expect(issues.vacuumed).toBeGreaterThan(beforeStart.issues.vacuumed);
    expect(issues.analyzed).toBeGreaterThan(beforeStart.issues.analyzed);
    expect(await stats('issue_field_values')).toEqual(beforeStart.issue_field_values);
  }, 60_000);

  it('brings the search tables up to date once an import has written enough issues', async () => {
    const before = await stats('issue_field_values');
    // The 60 issues imported before the start count too.
    await noteBulkWrite(fork(orm) as Em, UPKEEP_FIRST - 60 - 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(await stats('issue_field_values')).toEqual(before);
    await noteBulkWrite(fork(orm) as Em, 1);
    let after = await stats('issue_field_values');
    for (let waited = 0; waited < 30_000 && after.analyzed <= before.analyzed; waited += 200) {
      await new Promise((r) => setTimeout(r, 200));
      after = await stats('issue_field_values');
    }
    expect(after.analyzed).toBeGreaterThan(before.analyzed);
    if (!after.autovacuum) expect(after.vacuumed).toBeGreaterThan(before.vacuumed);
  }, 60_000);

  it('replaces a search session that the server ends, and the process carries on', async () => {
    const search = () =>
      runSearchStatement(fork(orm) as Em, { sql: 'select count(*) from issues', params: [] });
    expect(await search()).toEqual([['60']]);
    /** `what` of each search session on this test's database. */
    const sessions = (what: string) =>
      readRows<{ pid: number }>(
        fork(orm) as Em,
        `select ${what} from pg_stat_activity where datname = current_database() and application_name = ?`,
        [SEARCH_APPLICATION_NAME],
      );
    const ended = await sessions('pid');
    expect(ended.length).toBeGreaterThan(0);
    await sessions('pg_terminate_backend(pid)');
    for (let waited = 0; waited < 10_000 && logged.length < ended.length; waited += 50)
      await new Promise((r) => setTimeout(r, 50));
    expect(logged).toEqual(ended.map(() => expect.stringContaining('search session ended')));
    expect(await search()).toEqual([['60']]);
    const now = await sessions('pid');
    expect(now.filter((s) => ended.some((e) => e.pid === s.pid))).toEqual([]);
    expect(now.length).toBeGreaterThan(0);
  });

  it('runs searches in sessions that start no parallel workers', async () => {
    const [row] = await runSearchStatement(fork(orm) as Em, {
      sql: "select current_setting('max_parallel_workers_per_gather'), current_setting('enable_seqscan')",
      params: [],
    });
    expect(row).toEqual(['0', 'off']);
    // The settings are the search sessions' own: the requests' connection keeps the server's.
    const [own] = await readRows<{ seqscan: string }>(
      fork(orm) as Em,
      "select current_setting('enable_seqscan') as seqscan",
    );
    expect(own?.seqscan).toBe('on');
  });
});
