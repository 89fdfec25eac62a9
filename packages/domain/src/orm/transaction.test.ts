import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeadlockException, LockWaitTimeoutException } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../errors.js';
import { createOrm } from '../model/create-orm.js';
import { createTestOrmOnDisk, TEST_DIALECT } from '../testing/index.js';
import type { Em } from './em.js';
import type { Orm } from './open-orm.js';
import { textIndexFile } from './text-index-file.js';
import { inTransaction, isContention, TRANSACTION_ATTEMPTS } from './transaction.js';

type RawDb = {
  exec(sql: string): void;
  pragma(sql: string): unknown;
  prepare(sql: string): { run(...params: unknown[]): unknown; get(...params: unknown[]): unknown };
  close(): void;
};
const BetterSqlite = createRequire(createRequire(import.meta.url).resolve('@mikro-orm/sqlite'))(
  'better-sqlite3',
) as new (
  file: string,
) => RawDb;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Another process holding the main file's write lock for `ms` (as the indexer's process or a
 * second server does): better-sqlite3 waits for a lock synchronously, so the holder cannot be in
 * this thread. Resolves once the lock is taken; `released` once the holder let it go.
 */
async function holdWriteLock(file: string, ms: number): Promise<{ released: Promise<void> }> {
  const driver = createRequire(createRequire(import.meta.url).resolve('@mikro-orm/sqlite')).resolve(
    'better-sqlite3',
  );
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const db = new (require(${JSON.stringify(driver)}))(${JSON.stringify(file)});
       db.exec('begin immediate'); console.log('locked');
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ms});
       db.exec('rollback'); db.close();`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const released = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the lock holder exited (${code})`)));
  });
  return { released };
}
const fork = (orm: Orm) => orm.em.fork() as Em;

describe('isContention', () => {
  it('knows the drivers’ contention codes, raw and wrapped, and nothing else', () => {
    const raw = (code: string) => Object.assign(new Error('x'), { code });
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', '40P01', '40001', '55P03'])
      expect(isContention(raw(code)), code).toBe(true);
    expect(isContention(new DeadlockException(raw('40P01')))).toBe(true);
    expect(isContention(new LockWaitTimeoutException(raw('SQLITE_BUSY')))).toBe(true);
    for (const code of ['SQLITE_CONSTRAINT_UNIQUE', '23505', '42P01', 'SQLITE_ERROR'])
      expect(isContention(raw(code)), code).toBe(false);
    expect(isContention(null)).toBe(false);
    expect(isContention('SQLITE_BUSY')).toBe(false);
  });
});

describe('no transaction outside inTransaction', () => {
  it('every transaction of the domain goes through inTransaction (its retry and its BUSY answer)', () => {
    const src = fileURLToPath(new URL('..', import.meta.url));
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (
          name.endsWith('.ts') &&
          !name.endsWith('.test.ts') &&
          !path.endsWith(join('orm', 'transaction.ts'))
        )
          if (/\.transactional\(/.test(readFileSync(path, 'utf8'))) offenders.push(path.slice(src.length));
      }
    };
    walk(src);
    expect(offenders).toEqual([]);
  });
});

// The lock order and the retries, on a real file (SQLite) or the scratch database (PostgreSQL).
describe(`transactions under contention (${TEST_DIALECT})`, () => {
  let orm: Orm;
  let file: string | undefined;
  let remove: () => void;
  beforeAll(async () => {
    ({ orm, file, remove } = await createTestOrmOnDisk());
    await fork(orm).execute('create table contention_notes (id integer primary key, body text not null)');
    await fork(orm).execute("insert into contention_notes (id, body) values (1, 'a'), (2, 'b')");
  });
  afterAll(async () => {
    await orm.close(true);
    remove();
  });

  const count = async () =>
    Number((await fork(orm).execute<{ n: number }[]>('select count(*) as n from contention_notes'))[0]?.n);

  describe.runIf(TEST_DIALECT === 'sqlite')('SQLite', () => {
    let other: RawDb;
    let index: RawDb;
    beforeAll(() => {
      other = new BetterSqlite(file as string);
      other.pragma('busy_timeout = 0');
      index = new BetterSqlite(textIndexFile(file as string));
      index.pragma('busy_timeout = 0');
    });
    afterAll(() => {
      other.close();
      index.close();
    });

    it('a transaction holds the main file from its start: another connection cannot commit between its read and its write', async () => {
      // Before, the transaction began as a reader; another process's commit between its read and
      // its write made the write fail at once with SQLITE_BUSY_SNAPSHOT (a 500 under load).
      let otherWrite: string | undefined;
      await inTransaction(fork(orm), async (tx) => {
        await tx.execute('select count(*) as n from contention_notes');
        try {
          other.prepare("insert into contention_notes (body) values ('other')").run();
          otherWrite = 'committed';
        } catch (error) {
          otherWrite = (error as { code?: string }).code;
        }
        await tx.execute("insert into contention_notes (body) values ('mine')");
      });
      expect(otherWrite).toBe('SQLITE_BUSY');
      expect(await count()).toBe(3);
    });

    it('a transaction does not lock the text index’s file: the indexer writes it meanwhile', async () => {
      let indexWrite: string | undefined;
      await inTransaction(fork(orm), async (tx) => {
        await tx.execute("insert into contention_notes (body) values ('while indexing')");
        try {
          index.exec('begin immediate');
          index.exec('update issue_fts_state set through = through');
          index.exec('commit');
          indexWrite = 'committed';
        } catch (error) {
          indexWrite = (error as { code?: string }).code;
          index.exec('rollback');
        }
      });
      expect(indexWrite).toBe('committed');
    });

    it('waits for a writer that holds the lock for a while (busy_timeout), instead of failing', async () => {
      const holder = await holdWriteLock(file as string, 300);
      const before = await count();
      await inTransaction(fork(orm), (tx) =>
        tx.execute("insert into contention_notes (body) values ('after')"),
      );
      await holder.released;
      expect(await count()).toBe(before + 1);
    });

    it('tries the whole transaction again when the lock outlasts the timeout, then answers BUSY with nothing written', async () => {
      const connection = orm.em.getConnection();
      await connection.execute('pragma busy_timeout = 100');
      try {
        // Held past the first attempt's wait: a later attempt takes it.
        const holder = await holdWriteLock(file as string, 150);
        let runs = 0;
        const before = await count();
        await inTransaction(fork(orm), async (tx) => {
          runs++;
          await tx.execute("insert into contention_notes (body) values ('retried')");
        });
        await holder.released;
        // The attempts that met the lock failed before the work: it ran once.
        expect(runs).toBe(1);
        expect(await count()).toBe(before + 1);

        // Held past every attempt: the answer is BUSY, and nothing was written.
        const longHolder = await holdWriteLock(file as string, 3000);
        let attempts = 0;
        const refused = await inTransaction(fork(orm), async (tx) => {
          attempts++;
          await tx.execute("insert into contention_notes (body) values ('never')");
        }).catch((error: unknown) => error);
        await longHolder.released;
        expect(refused).toBeInstanceOf(DomainError);
        expect((refused as DomainError).code).toBe('BUSY');
        expect(attempts).toBe(0);
        expect(await count()).toBe(before + 1);
      } finally {
        await connection.execute('pragma busy_timeout = 5000');
      }
    });
  });

  describe.runIf(TEST_DIALECT === 'postgresql')('PostgreSQL', () => {
    it('a deadlock between two transactions is retried: both commit, each once', async () => {
      let runsA = 0;
      let runsB = 0;
      const bothLocked = { a: false, b: false };
      const until = async (check: () => boolean) => {
        for (let i = 0; i < 500 && !check(); i++) await pause(5);
      };
      // A locks row 1 then 2; B locks row 2 then 1: PostgreSQL ends one with 40P01.
      const a = inTransaction(fork(orm), async (tx) => {
        runsA++;
        await tx.execute("update contention_notes set body = 'a' where id = 1");
        bothLocked.a = true;
        if (runsA === 1) await until(() => bothLocked.b);
        await tx.execute("update contention_notes set body = 'a' where id = 2");
      });
      const b = inTransaction(fork(orm), async (tx) => {
        runsB++;
        await tx.execute("update contention_notes set body = 'b' where id = 2");
        bothLocked.b = true;
        if (runsB === 1) await until(() => bothLocked.a);
        await tx.execute("update contention_notes set body = 'b' where id = 1");
      });
      await Promise.all([a, b]);
      expect(runsA + runsB).toBe(3);
      const rows = await fork(orm).execute<{ body: string }[]>(
        'select body from contention_notes where id in (1, 2) order by id',
      );
      // The one that ran again ran last: both rows carry its letter.
      expect(new Set(rows.map((r) => r.body)).size).toBe(1);
    });
  });

  it(`gives up after ${TRANSACTION_ATTEMPTS} attempts only for contention; other errors are not retried`, async () => {
    let runs = 0;
    const error = await inTransaction(fork(orm), async () => {
      runs++;
      throw new Error('not contention');
    }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('not contention');
    expect(runs).toBe(1);
  });
});

// The write-lock table exists on every SQLite database, an in-memory one included (tests, tools).
it.runIf(TEST_DIALECT === 'sqlite')(
  'opens an in-memory SQLite database with the write-lock table in place',
  async () => {
    const orm = await createOrm({ kind: 'sqlite', file: ':memory:' });
    try {
      await inTransaction(fork(orm), (tx) => tx.execute('select 1'));
      const [row] = await fork(orm).execute<{ n: number }[]>(
        "select count(*) as n from sqlite_master where name = 'trackline_write_lock'",
      );
      expect(Number(row?.n)).toBe(1);
    } finally {
      await orm.close(true);
    }
  },
);
