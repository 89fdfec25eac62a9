// Writes the next SQL migration for each dialect: the difference between the schema that
// the existing migrations produce and the one the entities describe.
// Usage: node scripts/make-migration.mjs <name>   (after `pnpm build`; needs the local PostgreSQL)
import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { createOrm, migrate, migrationsDir } from '../dist/index.js';

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) throw new Error('usage: make-migration.mjs <snake_case_name>');
const pgBase = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432';
const tmpDb = `trackline_migration_${process.pid}`;
const psql = (sql) => execFileSync('psql', [`${pgBase}/postgres`, '-qc', sql]);

async function nextMigration(dialect, db) {
  const orm = await createOrm(db);
  try {
    await migrate(orm);
    const sql = await orm.schema.getUpdateSchemaSQL({ wrap: false });
    if (!sql.trim()) return console.log(`${dialect}: schema up to date`);
    const dir = migrationsDir(dialect);
    // One past the highest number in use: counting files collides after a gap.
    const numbers = readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .map((f) => Number.parseInt(f.slice(0, 4), 10));
    const number = String(Math.max(0, ...numbers) + 1).padStart(4, '0');
    writeFileSync(`${dir}${number}_${name}.sql`, `${sql.trim()}\n`);
    console.log(`${dialect}: wrote ${number}_${name}.sql`);
  } finally {
    await orm.close(true);
  }
}

await nextMigration('sqlite', { kind: 'sqlite', file: ':memory:' });
psql(`create database ${tmpDb}`);
try {
  await nextMigration('postgresql', { kind: 'postgresql', url: `${pgBase}/${tmpDb}` });
} finally {
  psql(`drop database ${tmpDb}`);
}
