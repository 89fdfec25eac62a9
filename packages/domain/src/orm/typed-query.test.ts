import { actorFor, createTestOrm, fork } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIVOT_COLUMNS, tables } from '../model/database.js';
import { createProject } from '../projects/projects.js';
import type { Orm } from './open-orm.js';
import { readRows, storedTime } from './statements.js';
import {
  asStoredTime,
  type Param,
  perLength,
  prepareRead,
  prepareWrite,
  readQuery,
  sqlCondition,
} from './typed-query.js';

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

  const byKeys = perLength((count) =>
    prepareRead((param: Param<{ keys: string[] }>) =>
      tables
        .selectFrom('projects')
        .select('short_name')
        .where('short_name_key', 'in', param.list('keys', count))
        .orderBy('short_name_key'),
    ),
  );

  it('prepare a query with an `in` list once per length, binding the list at each run', async () => {
    expect(byKeys(2)).toBe(byKeys(2));
    expect(byKeys(2).sql).toBe(
      'select "short_name" from "projects" where "short_name_key" in (?, ?) order by "short_name_key"',
    );
    const names = async (keys: string[]) =>
      (await byKeys(keys.length).all(fork(orm), { keys })).map((r) => r.short_name);
    expect(await names(['TQB', 'TQA'])).toEqual(['TQA', 'TQB']);
    expect(await names(['TQB'])).toEqual(['TQB']);
    await expect(byKeys(1).all(fork(orm), { keys: ['TQA', 'TQB'] })).rejects.toThrow(/prepared for 1/);
  });

  it('write with a statement compiled once: rows of an insert, its returning, the rows an update changed', async () => {
    const insertTags = perLength((count) =>
      prepareWrite(
        (param: Param<{ rows: { name: string; shared: boolean }[]; owner: number; at: Date | number }>) =>
          tables
            .insertInto('tags')
            .values(
              Array.from({ length: count }, (_, i) => ({
                owner_id: param('owner'),
                name: param.item('rows', i, 'name'),
                name_key: param.item('rows', i, 'name'),
                shared: param.item('rows', i, 'shared'),
                created_at: asStoredTime(param('at')),
              })),
            )
            .returning(['id', 'name']),
      ),
    );
    expect(insertTags(2).sql).toBe(
      'insert into "tags" ("owner_id", "name", "name_key", "shared", "created_at") values (?, ?, ?, ?, ?), (?, ?, ?, ?, ?) returning "id", "name"',
    );
    const em = fork(orm);
    const root = await actorFor(orm, 'root');
    const at = await storedTime(em, new Date());
    const rows = [
      { name: 'tq-one', shared: false },
      { name: 'tq-two', shared: true },
    ];
    const inserted = await insertTags(2).returning(em, { rows, owner: root.userId, at });
    expect(inserted.map((r) => r.name)).toEqual(['tq-one', 'tq-two']);

    const share = prepareWrite((param: Param<{ owner: number; prefix: string }>) =>
      tables
        .updateTable('tags')
        .set({ shared: true })
        .where('owner_id', '=', param('owner'))
        .where('name_key', 'like', param('prefix')),
    );
    expect(await share.run(fork(orm), { owner: root.userId, prefix: 'tq-%' })).toBe(2);
    const shared = await readQuery(
      fork(orm),
      tables.selectFrom('tags').select(['name', 'shared', 'created_at']).where('name_key', 'like', 'tq-%'),
    );
    expect(shared.map((r) => Boolean(r.shared))).toEqual([true, true]);
    expect(shared.every((r) => r.created_at !== null)).toBe(true);
  });

  it('bind the parameters of a condition written as SQL text', async () => {
    const rows = await readQuery(
      fork(orm),
      tables
        .selectFrom('projects as p')
        .select('p.short_name')
        .where(
          sqlCondition({ sql: '(p.short_name_key = ? or p.short_name_key = ?)', params: ['TQA', 'none'] }),
        ),
    );
    expect(rows).toEqual([{ short_name: 'TQA' }]);
    expect(() => sqlCondition({ sql: 'p.id = ?', params: [] })).toThrow();
  });

  it('describe the pivot tables as the database has them (MikroORM types entities only)', async () => {
    for (const [table, columns] of Object.entries(PIVOT_COLUMNS)) {
      const [row] = await readRows<Record<string, unknown>>(fork(orm), `select * from ${table} limit 1`);
      expect(Object.keys(row ?? {}).sort()).toEqual([...columns].sort());
    }
  });
});
