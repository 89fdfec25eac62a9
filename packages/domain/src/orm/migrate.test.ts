import { createTestOrm } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Orm } from './create-orm.js';
import { migrate, splitStatements } from './migrate.js';

describe('migrations', () => {
  let orm: Orm;
  beforeAll(async () => {
    orm = await createTestOrm();
  });
  afterAll(() => orm.close(true));

  it('produce exactly the schema the entities describe (no drift)', async () => {
    expect(await orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
  });

  it('are applied once: a second run applies nothing', async () => {
    expect(await migrate(orm)).toEqual([]);
  });

  it('split generated SQL into statements', () => {
    expect(splitStatements('create table a (x int);\n\ncreate index i on a (x);\n')).toEqual([
      'create table a (x int)',
      'create index i on a (x)',
    ]);
  });
});
