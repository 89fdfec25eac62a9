import { describe, expect, it } from 'vitest';
import { hashPassword, PASSWORD_HASH_COST, verifyPassword } from './password.js';

describe('password hashes', () => {
  it('are made at the production cost unless a cost is given, and name their parameters', async () => {
    expect(PASSWORD_HASH_COST).toEqual({ N: 32768, r: 8, p: 1 });
    const stored = await hashPassword('s3cret');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('s3cret', stored)).toBe(true);
    expect(await verifyPassword('S3cret', stored)).toBe(false);
  });

  it('verify with the parameters stored in the hash, whatever cost made it', async () => {
    const cheap = await hashPassword('s3cret', { N: 1024, r: 8, p: 1 });
    expect(cheap.startsWith('scrypt$1024$8$1$')).toBe(true);
    expect(await verifyPassword('s3cret', cheap)).toBe(true);
    expect(await verifyPassword('wrong', cheap)).toBe(false);
  });

  it('refuse malformed or absent hashes', async () => {
    expect(await verifyPassword('x', null)).toBe(false);
    expect(await verifyPassword('x', 'scrypt$1$2')).toBe(false);
  });
});
