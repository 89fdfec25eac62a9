// The PostgreSQL server of the benches that create databases of their own (attachments.mjs,
// processes.mjs): BENCH_PG_URL, and one administrative statement run on its `postgres` database.
import pg from 'pg';

/** The server's URL without a database: a bench's database is `${PG_BASE}/<name>`. */
export const PG_BASE = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';

/** Runs one statement (create database, drop database) on the server's `postgres` database. */
export async function pgAdmin(sql) {
  const client = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
