import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth/actor.js';
import type { Orm } from '../../orm/open-orm.js';
import { moveBundleValue } from './bundle-order.js';
import { addBundleValue, createBundle, getBundle } from './bundles.js';

describe('moveBundleValue', () => {
  let orm: Orm;
  let root: Actor;
  const names = async () => (await getBundle(fork(orm), root, 'bundle', 'Sizes')).values.map((v) => v.name);

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createBundle(fork(orm), root, 'bundle', { name: 'Sizes', values: [] });
    for (const name of ['S', 'M', 'L', 'XL'])
      await addBundleValue(fork(orm), root, 'bundle', 'Sizes', { name });
    await userWithRole(orm, 'dev', 'Developer');
  });
  afterAll(() => orm.close(true));

  it('moves a value to a position, the others keeping their order', async () => {
    expect(await moveBundleValue(fork(orm), root, 'bundle', 'Sizes', 'xl', 0)).toEqual(['XL', 'S', 'M', 'L']);
    expect(await names()).toEqual(['XL', 'S', 'M', 'L']);
    expect(await moveBundleValue(fork(orm), root, 'bundle', 'Sizes', 'XL', 99)).toEqual([
      'S',
      'M',
      'L',
      'XL',
    ]);
    expect(await moveBundleValue(fork(orm), root, 'bundle', 'Sizes', 'S', 1)).toEqual(['M', 'S', 'L', 'XL']);
    expect(await names()).toEqual(['M', 'S', 'L', 'XL']);
  });

  it('refuses an unknown value, a user bundle, and a caller who is not a fields administrator', async () => {
    await expect(moveBundleValue(fork(orm), root, 'bundle', 'Sizes', 'XXL', 0)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(moveBundleValue(fork(orm), root, 'userBundle', 'Sizes', 'S', 0)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(
      moveBundleValue(fork(orm), await actorFor(orm, 'dev'), 'bundle', 'Sizes', 'S', 0),
    ).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(await names()).toEqual(['M', 'S', 'L', 'XL']);
  });
});
