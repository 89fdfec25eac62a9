import { readdirSync } from 'node:fs';
import { createTestOrm } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DIALECT } from '../testing/test-database.js';
import { migrate, migrationsDir, orderedMigrationFiles, splitStatements } from './migrate.js';
import { RENAMED_MIGRATIONS } from './migration-renames.js';
import type { Orm } from './open-orm.js';

describe('migrations', () => {
  let orm: Orm;
  beforeAll(async () => {
    orm = await createTestOrm();
  });
  afterAll(() => orm.close(true));

  it('produce exactly the schema the entities describe (no drift)', async () => {
    // The entities describe the main file; the text index's file (orm/text-index-file.ts) is not
    // theirs, and with a second schema attached the generator would compare schema by schema.
    const sqlite = TEST_DIALECT === 'sqlite';
    if (sqlite) await orm.em.getConnection().execute('detach database fts');
    try {
      expect(await orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
    } finally {
      if (sqlite) await orm.em.getConnection().execute("attach database ':memory:' as fts");
    }
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

  it('record names that the migration files of both dialects still carry', async () => {
    const recorded = await orm.em
      .fork()
      .getConnection()
      .execute<{ name: string }[]>('select name from trackline_migrations order by name');
    expect(recorded.map((r: { name: string }) => r.name)).toEqual(
      orderedMigrationFiles(readdirSync(migrationsDir('sqlite'))),
    );
  });
});

describe('migration file names', () => {
  const sqlite = readdirSync(migrationsDir('sqlite'));
  const postgresql = readdirSync(migrationsDir('postgresql'));

  it('start with unique, strictly increasing numbers, the same files for both dialects', () => {
    const files = orderedMigrationFiles(sqlite);
    const numbers = files.map((f) => Number(f.slice(0, 4)));
    numbers.forEach((n, i) => {
      if (i > 0) expect(n).toBeGreaterThan(numbers[i - 1] ?? 0);
    });
    expect(orderedMigrationFiles(postgresql)).toEqual(files);
  });

  it('refuse two files sharing a number, and names not of the form NNNN_name.sql', () => {
    expect(() => orderedMigrationFiles(['0001_a.sql', '0002_b.sql', '0002_c.sql'])).toThrow(
      /0002_b\.sql and 0002_c\.sql share the number 0002/,
    );
    expect(() => orderedMigrationFiles(['1_a.sql'])).toThrow(/1_a\.sql is not named NNNN_snake_case\.sql/);
    expect(() => orderedMigrationFiles(['0001_A b.sql'])).toThrow(/not named/);
    expect(orderedMigrationFiles(['0003_c.sql', 'notes.txt', '0001_a.sql'])).toEqual([
      '0001_a.sql',
      '0003_c.sql',
    ]);
  });

  it('rename only to files that exist, from names that no longer do', () => {
    for (const [oldName, newName] of Object.entries(RENAMED_MIGRATIONS)) {
      expect(sqlite).toContain(newName);
      expect(sqlite).not.toContain(oldName);
    }
  });
});

describe('a database that recorded the names before the renaming', () => {
  let orm: Orm;
  beforeAll(async () => {
    orm = await createTestDatabase();
    await migrate(orm);
    const conn = orm.em.fork().getConnection();
    for (const [oldName, newName] of Object.entries(RENAMED_MIGRATIONS)) {
      await conn.execute('update trackline_migrations set name = ? where name = ?', [oldName, newName]);
    }
  });
  afterAll(() => orm.close(true));

  it('applies nothing again and records the new names', async () => {
    expect(await migrate(orm)).toEqual([]);
    const recorded = await orm.em
      .fork()
      .getConnection()
      .execute<{ name: string }[]>('select name from trackline_migrations order by name');
    expect(recorded.map((r: { name: string }) => r.name)).toEqual(
      orderedMigrationFiles(readdirSync(migrationsDir('sqlite'))),
    );
  });
});
