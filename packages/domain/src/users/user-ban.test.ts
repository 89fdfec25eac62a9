import { actorFor, createTestOrm, fork, USER_PASSWORD, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUser, findUserWithPassword } from '../auth/actor-read-model.js';
import {
  authenticatePassword,
  authenticateSession,
  authenticateToken,
  createSession,
} from '../auth/authenticate.js';
import { createPermanentToken } from '../auth/tokens.js';
import type { Orm } from '../orm/open-orm.js';
import { getUserAccount, setUserBanned } from './user-ban.js';

describe('setUserBanned', () => {
  let orm: Orm;
  beforeAll(async () => {
    orm = await createTestOrm();
    await userWithRole(orm, 'target', 'Developer');
    await userWithRole(orm, 'admin', 'Developer');
  });
  afterAll(() => orm.close(true));

  it('stops every way a banned account authenticates, and lets it in again when lifted', async () => {
    const target = await actorFor(orm, 'target');
    const root = await actorFor(orm, 'root');
    const session = await createSession(fork(orm), target.userId);
    const token = (await createPermanentToken(fork(orm), target, 'ci')).token;
    expect(await authenticateToken(fork(orm), token)).not.toBeNull();

    expect(await setUserBanned(fork(orm), root, 'target', true)).toMatchObject({
      login: 'target',
      banned: true,
    });
    expect(await authenticatePassword(fork(orm), 'target', USER_PASSWORD)).toBeNull();
    expect(await authenticateSession(fork(orm), session)).toBeNull();
    expect(await authenticateToken(fork(orm), token)).toBeNull();
    expect(await findUser(fork(orm), target.userId)).toBeNull();
    expect(await findUserWithPassword(fork(orm), target.userId)).toBeNull();
    expect((await getUserAccount(fork(orm), root, 'target')).banned).toBe(true);

    await setUserBanned(fork(orm), root, 'target', false);
    expect(await authenticatePassword(fork(orm), 'target', USER_PASSWORD)).not.toBeNull();
    expect(await authenticateToken(fork(orm), token)).not.toBeNull();
    // The ban ended its sessions for good.
    expect(await authenticateSession(fork(orm), session)).toBeNull();
  });

  it('needs UPDATE_USER, and never bans oneself or a built-in account', async () => {
    const root = await actorFor(orm, 'root');
    await expect(
      setUserBanned(fork(orm), await actorFor(orm, 'admin'), 'target', true),
    ).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    await expect(setUserBanned(fork(orm), root, 'root', true)).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    await expect(setUserBanned(fork(orm), root, 'guest', true)).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    await expect(setUserBanned(fork(orm), root, 'nobody', true)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await getUserAccount(fork(orm), root, 'target')).banned).toBe(false);
  });
});
