import { createTestOrm, fork } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrm } from '../model/create-orm.js';
import { readAuthEpoch, readEpochs } from './epoch-cache.js';
import { dialectOf, type Orm } from './open-orm.js';

/**
 * The epochs every request reads (on PostgreSQL one statement shared by the requests that ask in
 * the same turn of the event loop): a request sees what was committed before it asked, by this
 * process or another one, however many requests share the statement.
 */
describe('reading the epochs', () => {
  let orm: Orm;
  /** Another ORM on the same database (another server process); this one on SQLite's memory database. */
  let other: Orm;
  beforeAll(async () => {
    orm = await createTestOrm();
    other =
      dialectOf(orm) === 'postgresql'
        ? await createOrm({ kind: 'postgresql', url: String(orm.config.get('clientUrl')), poolSize: 1 })
        : orm;
  });
  afterAll(async () => {
    if (other !== orm) await other.close(true);
    await orm.close(true);
  });

  /** Moves the authorisation epoch through `other`: a committed change to role permissions. */
  const change = () =>
    fork(other)
      .getConnection()
      .execute(
        "update role_permissions set permission_key = permission_key where permission_key = 'READ_ISSUE'",
        [],
        'run',
      );

  it('gives the requests of one turn the same epochs, the authorisation one first', async () => {
    const [pair, auth, again] = await Promise.all([
      readEpochs(fork(orm)),
      readAuthEpoch(fork(orm)),
      readEpochs(fork(orm)),
    ]);
    expect(pair).toMatch(/^\d+\.\d+$/);
    expect(again).toBe(pair);
    expect(auth).toBe(pair.split('.')[0]);
  });

  it('sees a change committed elsewhere before it asked, even with an earlier read still on its way', async () => {
    const before = await readAuthEpoch(fork(orm));
    const earlier = readAuthEpoch(fork(orm));
    await new Promise((resolve) => setImmediate(resolve));
    await change();
    const after = await readAuthEpoch(fork(orm));
    expect(after).not.toBe(before);
    expect(after).toBe(await readAuthEpoch(fork(other)));
    // The earlier read saw the epoch before or after the change, never a later one.
    expect([before, after]).toContain(await earlier);
  });

  it('reads inside a transaction on its own connection (its own uncommitted change included)', async () => {
    const before = await readAuthEpoch(fork(orm));
    await fork(orm).transactional(async (tx) => {
      await tx
        .getConnection()
        .execute(
          "update role_permissions set permission_key = permission_key where permission_key = 'READ_ISSUE'",
          [],
          'run',
          tx.getTransactionContext(),
        );
      expect(await readAuthEpoch(tx)).not.toBe(before);
      // Outside the transaction the change is not committed yet.
      if (dialectOf(orm) === 'postgresql') expect(await readAuthEpoch(fork(orm))).toBe(before);
    });
  });
});
