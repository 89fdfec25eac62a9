import { DeadlockException, LockWaitTimeoutException } from '@mikro-orm/core';
import { DomainError } from '../errors.js';
import type { Em } from './em.js';
import { dialectOfEm, WRITE_LOCK_TABLE } from './open-orm.js';

/**
 * Driver codes of contention: another connection holds what this one needs, and trying the whole
 * transaction again is the answer. SQLite: the file is locked past `busy_timeout` (`SQLITE_BUSY`
 * and its extended codes; `SQLITE_BUSY_SNAPSHOT` no longer arises for transactions, which take
 * the write lock as they begin: orm/sqlite-driver.ts). PostgreSQL: a deadlock (40P01), a
 * serialization failure (40001), a lock not available (55P03).
 */
const CONTENTION_CODES = new Set([
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_BUSY_RECOVERY',
  'SQLITE_BUSY_TIMEOUT',
  'SQLITE_LOCKED',
  'SQLITE_LOCKED_SHAREDCACHE',
  '40P01',
  '40001',
  '55P03',
]);

/** Whether an error (raw from a driver, or wrapped by the ORM) is lock contention. */
export function isContention(error: unknown): boolean {
  if (error instanceof DeadlockException || error instanceof LockWaitTimeoutException) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { code, sqlState } = error as { code?: unknown; sqlState?: unknown };
  return (
    (typeof code === 'string' && CONTENTION_CODES.has(code)) ||
    (typeof sqlState === 'string' && CONTENTION_CODES.has(sqlState))
  );
}

/** Seconds a client is told to wait (`Retry-After`) when contention outlasted every attempt. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/** The answer when contention outlasted the retries: 503 with `Retry-After`, never a 500. */
export function busyError(): DomainError {
  return new DomainError(
    'BUSY',
    'The database is busy with other writes; nothing was changed. Try again in a moment.',
  );
}

/** Attempts of one transaction before it answers BUSY. */
export const TRANSACTION_ATTEMPTS = 3;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * On SQLite, the first statement of every transaction: a write to the main file that changes
 * nothing, which takes the file's write lock there.
 *
 * A transaction begun with a plain `begin` starts as a reader; when it first writes after another
 * connection (the text indexer's process, another server process) committed to the file, SQLite
 * cannot move its snapshot and answers `SQLITE_BUSY_SNAPSHOT` at once: `busy_timeout` never
 * applies (requests failed with 500 7-8 ms after they started). `begin immediate` would take the
 * lock first, but it locks every attached file, the text index's (`fts`, text-index-file.ts)
 * included, so every request would wait for the indexer's batch on that file while holding the
 * main one. This statement takes the main file alone, waiting up to `busy_timeout`, with the
 * snapshot taken after the lock; the text index's file is only read by requests, and written by the
 * indexer alone (the lock order: docs/architecture.md, "SQLite locks"). It runs inside the
 * transaction's callback, so that a lock not had is an error the ORM rolls back and the retry
 * below catches (a failing `begin` would leave the ORM's connection taken for good).
 */
const TAKE_WRITE_LOCK = `delete from main.${WRITE_LOCK_TABLE} where 0`;

/**
 * Runs `work` in one transaction, the whole of it again when it meets contention (a deadlock, a
 * serialization failure, a lock held past the timeout), up to `TRANSACTION_ATTEMPTS` times with
 * a short random pause between attempts; a rolled-back attempt has written nothing. Past the
 * attempts: `BUSY` (503). Inside an enclosing transaction it is a savepoint and is not retried
 * alone: the enclosing one is.
 *
 * Every transaction of the domain goes through here (`transaction.test.ts` checks that no other
 * file calls `transactional`). `work` must not act outside the database before it returns (no
 * files written, nothing sent), or must be safe to repeat; and it changes entities it loads on
 * `tx` (or writes by statement): each attempt runs in a fresh fork, so what it loads again is read
 * again, where an entity loaded before the transaction and flushed by a failed attempt could pass
 * for clean in the next.
 */
export async function inTransaction<T>(em: Em, work: (tx: Em) => Promise<T>): Promise<T> {
  const nested = em.getTransactionContext() !== undefined;
  const sqlite = dialectOfEm(em) === 'sqlite';
  for (let attempt = 1; ; attempt++) {
    try {
      return await em.transactional(async (tx) => {
        if (!nested && sqlite) await (tx as Em).execute(TAKE_WRITE_LOCK);
        return work(tx as Em);
      });
    } catch (error) {
      if (!isContention(error) || nested) throw error;
      if (attempt >= TRANSACTION_ATTEMPTS) throw busyError();
      await pause(10 * attempt + Math.random() * 40 * attempt);
    }
  }
}
