import { actorFor, createTestOrm, fork } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIVOT_COLUMNS, tables } from '../model/database.js';
import { createProject } from '../projects/projects.js';
import type { Orm } from './open-orm.js';
import { readRows } from './statements.js';
import { type Param, prepareRead, readQuery } from './typed-query.js';

describe('typed reads', () => {
  let orm: Orm;
  beforeAll(async () => {
    orm = await createTestOrm();
    const root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'TQA', name: 'Typed A' });
    await createProject(fork(orm), root, { shortName: 'TQB', name: 'Typed B' });
  });
  afterAll(() => orm.close(true));

  const byKey = prepareRead((param: Param<{ key: string; limit: number }>) =>
    tables
      .selectFrom('projects')
      .select(['short_name', 'name'])
      .where('short_name_key', '=', param('key'))
      .where('deleted_at', 'is', null)
      .limit(param('limit')),
  );

  it('compile once, with ? placeholders in the order the parameters are named', () => {
    expect(byKey.sql).toBe(
      'select "short_name", "name" from "projects" where "short_name_key" = ? and "deleted_at" is null limit ?',
    );
  });

  it('bind the named parameters at each run, on the database under test', async () => {
    expect(await byKey.all(fork(orm), { key: 'TQB', limit: 5 })).toEqual([
      { short_name: 'TQB', name: 'Typed B' },
    ]);
    expect(await byKey.first(fork(orm), { key: 'TQA', limit: 1 })).toEqual({
      short_name: 'TQA',
      name: 'Typed A',
    });
    expect(await byKey.first(fork(orm), { key: 'none', limit: 1 })).toBeUndefined();
  });

  it('compile a query of varying shape per call', async () => {
    const rows = await readQuery(
      fork(orm),
      tables
        .selectFrom('projects')
        .select('short_name')
        .where('short_name_key', 'in', ['TQA', 'TQB'])
        .orderBy('short_name_key'),
    );
    expect(rows.map((r) => r.short_name)).toEqual(['TQA', 'TQB']);
  });

  it('describe the pivot tables as the database has them (MikroORM types entities only)', async () => {
    for (const [table, columns] of Object.entries(PIVOT_COLUMNS)) {
      const [row] = await readRows<Record<string, unknown>>(fork(orm), `select * from ${table} limit 1`);
      expect(Object.keys(row ?? {}).sort()).toEqual([...columns].sort());
    }
  });
});
