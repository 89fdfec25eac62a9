import { ConstraintViolationException } from '@mikro-orm/core';
import type { Em } from '../orm/em.js';

/**
 * Single-row statements requested in the same turn of the event loop (webhook deliveries
 * arriving together, say) run as one statement: a group commit for writes, which then share
 * one transaction commit instead of paying one each (on SQLite, 72 µs a row alone against
 * 16 µs a row by tens), and one lookup for reads of the same kind. Each caller still waits for
 * its own result (its row stored, its row read) before it goes on.
 *
 * `write` runs the given items as one statement and returns one result per item, in order.
 * A batch refused for one of its rows (a constraint or a value the database will not take: a
 * foreign key that vanished meanwhile) runs again item by item, so the bad row fails its own
 * caller only; any other failure (the database busy or gone) fails the batch's callers at once,
 * instead of making each of them wait for it again. Inside a transaction nothing is batched: the
 * statement must belong to the caller's transaction.
 */
export function batchByTurn<I, R>(
  write: (em: Em, items: readonly I[]) => Promise<R[]>,
  maxItems = 100,
): (em: Em, item: I) => Promise<R> {
  type Waiting = { item: I; resolve: (r: R) => void; reject: (e: unknown) => void };
  /** Per database connection: what waits for the next flush, and the em that will write it. */
  const queues = new WeakMap<object, { em: Em; waiting: Waiting[] }>();

  async function writeAlone(em: Em, entry: Waiting): Promise<void> {
    try {
      const [result] = await write(em, [entry.item]);
      entry.resolve(result as R);
    } catch (error) {
      entry.reject(error);
    }
  }

  async function flush(em: Em, batch: Waiting[]): Promise<void> {
    if (batch.length === 1) return writeAlone(em, batch[0] as Waiting);
    let results: R[];
    try {
      results = await write(
        em,
        batch.map((w) => w.item),
      );
    } catch (error) {
      if (isRowError(error)) for (const entry of batch) await writeAlone(em, entry);
      else for (const entry of batch) entry.reject(error);
      return;
    }
    batch.forEach((entry, i) => {
      entry.resolve(results[i] as R);
    });
  }

  return (em, item) => {
    if (em.getTransactionContext()) return write(em, [item]).then((results) => results[0] as R);
    const connection = em.getConnection();
    return new Promise<R>((resolve, reject) => {
      let queue = queues.get(connection);
      if (!queue) {
        queue = { em, waiting: [] };
        queues.set(connection, queue);
        const taken = queue;
        // After the I/O phase: every request read in this turn has queued its row by then.
        setImmediate(() => {
          queues.delete(connection);
          for (let i = 0; i < taken.waiting.length; i += maxItems)
            void flush(taken.em, taken.waiting.slice(i, i + maxItems));
        });
      }
      queue.waiting.push({ item, resolve, reject });
    });
  };
}

/**
 * Whether an error is about a row rather than the database: a constraint (SQLite
 * `SQLITE_CONSTRAINT_*`, PostgreSQL class 23) or a value refused (SQLite `SQLITE_TOOBIG` and
 * `SQLITE_MISMATCH`, PostgreSQL class 22), raw from the drivers or wrapped by the ORM.
 */
export function isRowError(error: unknown): boolean {
  if (error instanceof ConstraintViolationException) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return (
    code.startsWith('SQLITE_CONSTRAINT') ||
    code === 'SQLITE_TOOBIG' ||
    code === 'SQLITE_MISMATCH' ||
    /^2[23][0-9A-Z]{3}$/.test(code)
  );
}
