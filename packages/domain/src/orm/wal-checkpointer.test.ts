import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrm } from '../model/create-orm.js';
import type { Em } from './em.js';
import type { Orm } from './open-orm.js';
import { startWalCheckpointer } from './wal-checkpointer.js';

// A file database of its own (the suite's are in memory or on PostgreSQL).
let dir: string;
let orm: Orm;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trackline-wal-'));
  orm = await createOrm({ kind: 'sqlite', file: join(dir, 'wal.sqlite') });
  await orm.em.getConnection().execute('create table notes (id integer primary key, body text not null)');
});
afterAll(async () => {
  await orm.close(true);
  rmSync(dir, { recursive: true, force: true });
});

const pragma = async (name: string) =>
  Object.values((await orm.em.getConnection().execute<Record<string, number>[]>(`pragma ${name}`))[0] ?? {});
const until = async (check: () => boolean) => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('startWalCheckpointer', () => {
  it('checkpoints from its own thread while the main connection writes, and hands checkpoints back when stopped', async () => {
    const checkpointer = await startWalCheckpointer(orm, join(dir, 'wal.sqlite'), { intervalMs: 5 });
    expect(await pragma('wal_autocheckpoint')).toEqual([10_000]);
    // About 2,000 pages of commits: the main connection, at 10,000, never checkpoints them itself.
    const body = 'x'.repeat(3000);
    for (let batch = 0; batch < 200; batch++) {
      await (orm.em.fork() as Em).transactional(async (em) => {
        for (let i = 0; i < 10; i++)
          await em
            .getConnection()
            .execute('insert into notes (body) values (?)', [body], 'run', em.getTransactionContext());
      });
    }
    await until(() => checkpointer.checkpointedFrames() >= 2000);
    expect(checkpointer.checkpointedFrames()).toBeGreaterThanOrEqual(2000);
    await checkpointer.stop();
    expect(await pragma('wal_autocheckpoint')).toEqual([1000]);
    const [row] = await orm.em.getConnection().execute<{ n: number }[]>('select count(*) as n from notes');
    expect(row?.n).toBe(2000);
  });

  it('a thread that cannot work hands checkpoints back to the main connection, says why, and still stops', async () => {
    const errors: string[] = [];
    const checkpointer = await startWalCheckpointer(orm, join(dir, 'missing', 'nowhere.sqlite'), {
      intervalMs: 5,
      logError: (message) => errors.push(message),
    });
    await until(() => errors.length > 0);
    expect(errors[0]).toMatch(/^WAL checkpoint thread: /);
    for (let i = 0; i < 50 && (await pragma('wal_autocheckpoint'))[0] !== 1000; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await pragma('wal_autocheckpoint')).toEqual([1000]);
    await checkpointer.stop();
  });
});
