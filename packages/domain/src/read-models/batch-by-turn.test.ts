import { createTestOrm, fork } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Em } from '../orm/em.js';
import type { Orm } from '../orm/open-orm.js';
import { batchByTurn, isRowError } from './batch-by-turn.js';

let orm: Orm;
beforeAll(async () => {
  orm = await createTestOrm();
});
afterAll(() => orm.close(true));

/** An error as the drivers raise it: a message and a code. */
const driverError = (message: string, code: string) => Object.assign(new Error(message), { code });

/**
 * A writer that records each statement's items; a statement holding 'bad' breaks a constraint,
 * one holding 'busy' finds the database locked.
 */
function recordingWriter() {
  const statements: string[][] = [];
  const write = async (_em: Em, items: readonly string[]) => {
    statements.push([...items]);
    if (items.includes('bad')) throw driverError('bad row', 'SQLITE_CONSTRAINT_FOREIGNKEY');
    if (items.includes('busy')) throw driverError('database is locked', 'SQLITE_BUSY');
    return items.map((item) => `stored ${item}`);
  };
  return { statements, write };
}
const outcomes = (settled: PromiseSettledResult<string>[]) =>
  settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message));

describe('batchByTurn', () => {
  it('writes the items requested in one turn with one statement, each caller getting its own result', async () => {
    const { statements, write } = recordingWriter();
    const store = batchByTurn(write);
    const results = await Promise.all(['a', 'b', 'c'].map((item) => store(fork(orm), item)));
    expect(results).toEqual(['stored a', 'stored b', 'stored c']);
    expect(statements).toEqual([['a', 'b', 'c']]);
  });

  it('splits a turn into statements of at most maxItems', async () => {
    const { statements, write } = recordingWriter();
    const store = batchByTurn(write, 2);
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((item) => store(fork(orm), item)));
    expect(statements).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('items of later turns go to later statements', async () => {
    const { statements, write } = recordingWriter();
    const store = batchByTurn(write);
    await store(fork(orm), 'a');
    await Promise.all([store(fork(orm), 'b'), store(fork(orm), 'c')]);
    expect(statements).toEqual([['a'], ['b', 'c']]);
  });

  it('a failing batch is written again item by item: only the bad item fails its caller', async () => {
    const { statements, write } = recordingWriter();
    const store = batchByTurn(write);
    const settled = await Promise.allSettled(['a', 'bad', 'c'].map((item) => store(fork(orm), item)));
    expect(outcomes(settled)).toEqual(['stored a', 'bad row', 'stored c']);
    expect(statements).toEqual([['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
  });

  it('a batch failing for the database (busy, gone) fails its callers at once, not once each', async () => {
    const { statements, write } = recordingWriter();
    const store = batchByTurn(write);
    const settled = await Promise.allSettled(['a', 'busy', 'c'].map((item) => store(fork(orm), item)));
    expect(outcomes(settled)).toEqual(['database is locked', 'database is locked', 'database is locked']);
    expect(statements).toEqual([['a', 'busy', 'c']]);
  });

  it('tells errors of a row from errors of the database, on both drivers', () => {
    expect(isRowError(driverError('x', 'SQLITE_CONSTRAINT_UNIQUE'))).toBe(true);
    expect(isRowError(driverError('x', 'SQLITE_TOOBIG'))).toBe(true);
    expect(isRowError(driverError('x', '23503'))).toBe(true);
    expect(isRowError(driverError('x', '22001'))).toBe(true);
    expect(isRowError(driverError('x', 'SQLITE_BUSY'))).toBe(false);
    expect(isRowError(driverError('x', '57P01'))).toBe(false);
    expect(isRowError(driverError('x', '40001'))).toBe(false);
    expect(isRowError(new Error('no code'))).toBe(false);
  });

  it('inside a transaction the item is written at once, on the transaction, unbatched', async () => {
    const { statements, write } = recordingWriter();
    const seen: boolean[] = [];
    const store = batchByTurn(async (em: Em, items: readonly string[]) => {
      seen.push(em.getTransactionContext() !== undefined);
      return write(em, items);
    });
    await fork(orm).transactional(async (em) => {
      await Promise.all([store(em as Em, 'a'), store(em as Em, 'b')]);
    });
    expect(statements).toEqual([['a'], ['b']]);
    expect(seen).toEqual([true, true]);
  });
});
