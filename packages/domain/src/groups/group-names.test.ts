import { createTestOrm, fork } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Group } from '../model/group.entity.js';
import type { Orm } from '../orm/open-orm.js';
import { seed } from '../seed/seed.js';
import { groupNameKey, normalizeGroupName } from './group-names.js';

describe('group names', () => {
  let orm: Orm;
  beforeAll(async () => {
    orm = await createTestOrm();
  });
  afterAll(() => orm.close(true));

  it('normalise to NFC with one space for any run of Unicode whitespace', () => {
    expect(normalizeGroupName(' All\u00a0\u2003Users\t')).toBe('All Users');
    expect(normalizeGroupName('Cafe\u0301')).toBe('Café');
    expect(groupNameKey('ALL\u202fUSERS')).toBe('all users');
  });

  it('stored before normalisation are renamed at the next start; a clash keeps both apart by id', async () => {
    const em = fork(orm);
    const spaced = em.create(Group, {
      name: 'Ops\u00a0Team',
      nameKey: 'ops\u00a0team',
      description: '',
      autoJoin: false,
    });
    const clashing = em.create(Group, {
      name: 'All\u00a0Users',
      nameKey: 'all\u00a0users',
      description: '',
      autoJoin: false,
    });
    await em.flush();
    await seed(orm);
    const after = fork(orm);
    expect((await after.findOneOrFail(Group, { id: spaced.id })).name).toBe('Ops Team');
    const renamed = await after.findOneOrFail(Group, { id: clashing.id });
    expect(renamed).toMatchObject({
      name: `All Users (${clashing.id})`,
      nameKey: `all users (${clashing.id})`,
    });
    expect((await after.findOneOrFail(Group, { nameKey: 'all users' })).name).toBe('All Users');
  });
});
