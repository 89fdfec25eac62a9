import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Orm } from '../orm/open-orm.js';
import { authenticatePassword, authenticateSession, createSession } from './authenticate.js';
import { endSession, revokeSessions, setPassword } from './sessions.js';

describe('session lifecycle', () => {
  let orm: Orm;
  beforeAll(async () => {
    orm = await createTestOrm();
    await userWithRole(orm, 'holder', 'Developer');
    await userWithRole(orm, 'helper', 'Developer');
  });
  afterAll(() => orm.close(true));

  const sessionsOf = async (login: string, count: number) => {
    const actor = await actorFor(orm, login);
    return Promise.all(Array.from({ length: count }, () => createSession(fork(orm), actor.userId)));
  };
  const alive = async (values: string[]) =>
    Promise.all(values.map(async (v) => (await authenticateSession(fork(orm), v)) !== null));

  it('endSession ends exactly one session', async () => {
    const [a, b] = (await sessionsOf('holder', 2)) as [string, string];
    expect(await endSession(fork(orm), a)).toBe(true);
    expect(await endSession(fork(orm), a)).toBe(false);
    expect(await alive([a, b])).toEqual([false, true]);
  });

  it('revokeSessions: one’s own freely, another user’s only with UPDATE_USER', async () => {
    const mine = await sessionsOf('holder', 2);
    const helper = await actorFor(orm, 'helper');
    await expect(revokeSessions(fork(orm), helper, 'holder')).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    expect(await alive(mine)).toEqual([true, true]);
    expect(await revokeSessions(fork(orm), await actorFor(orm, 'root'), 'HOLDER')).toBeGreaterThanOrEqual(2);
    expect(await alive(mine)).toEqual([false, false]);
    const own = await sessionsOf('helper', 1);
    expect(await revokeSessions(fork(orm), helper)).toBe(1);
    expect(await alive(own)).toEqual([false]);
  });

  it('setPassword changes the password and ends every session of the user', async () => {
    const holder = await actorFor(orm, 'holder');
    const sessions = await sessionsOf('holder', 2);
    await expect(setPassword(fork(orm), holder, 'holder', 'another-pass', false)).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    await expect(
      setPassword(fork(orm), await actorFor(orm, 'helper'), 'holder', 'another-pass', false),
    ).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(await alive(sessions)).toEqual([true, true]);
    await setPassword(fork(orm), holder, 'holder', 'another-pass', true);
    expect(await alive(sessions)).toEqual([false, false]);
    expect(await authenticatePassword(fork(orm), 'holder', 'another-pass')).not.toBeNull();
    expect(await authenticatePassword(fork(orm), 'holder', 'password-1')).toBeNull();
  });
});
