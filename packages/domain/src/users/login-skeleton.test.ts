import { describe, expect, it } from 'vitest';
import { loginSkeleton, loginSkeletonKey } from './login-skeleton.js';

/** The look-alike skeleton of logins (TR39's confusables, case-insensitive, small capitals and ɾ folded). */
describe('loginSkeleton', () => {
  it.each([
    ['root', 'ROOT'],
    ['root', 'ɾoot'], // U+027E, a prototype of its own in confusables.txt: folded
    ['root', 'гоот'], // Cyrillic г о о т: т's prototype is the small capital ᴛ, folded to t
    ['root', 'rооt'], // Cyrillic о
    ['mary', 'rnary'], // TR39 draws m as rn
    ['paypal', 'рауpal'], // Cyrillic р а у
    ['alice', 'ᴀlice'],
    ['josé', 'jose\u0301'], // NFD alike
  ])('%s and %s share one skeleton', (a, b) => {
    expect(loginSkeleton(a)).toBe(loginSkeleton(b));
    expect(loginSkeletonKey(a)).toBe(loginSkeletonKey(b));
  });

  it.each([
    ['root', 'r00t'],
    ['alice', 'alice2'],
    ['jose', 'josé'],
    ['bob', 'bop'],
  ])('%s and %s differ', (a, b) => {
    expect(loginSkeleton(a)).not.toBe(loginSkeleton(b));
  });

  it('keys are 64 hex characters however long the skeleton', () => {
    expect(loginSkeletonKey('m'.repeat(100))).toMatch(/^[0-9a-f]{64}$/);
    expect(loginSkeleton('m'.repeat(100))).toHaveLength(200);
  });
});
