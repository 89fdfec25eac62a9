import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.js';
import { onUniqueViolation, rejectWith } from './unique.js';

const clash = () => new UniqueConstraintViolationException(new Error('UNIQUE constraint failed'));

describe('onUniqueViolation: the one "insert or report existing" rule', () => {
  it('returns what the write returns when nothing clashes', async () => {
    await expect(
      onUniqueViolation(
        async () => 7,
        rejectWith(() => new Error('no')),
      ),
    ).resolves.toBe(7);
  });

  it('turns a unique violation into the site’s own error', async () => {
    const outcome = onUniqueViolation(
      async () => {
        throw clash();
      },
      rejectWith(() => DomainError.alreadyExists('Tag', 'mine')),
    );
    await expect(outcome).rejects.toMatchObject({ code: 'ALREADY_EXISTS' });
  });

  it('lets an idempotent add answer a value instead', async () => {
    const outcome = onUniqueViolation(
      async (): Promise<string> => {
        throw clash();
      },
      () => 'already there',
    );
    await expect(outcome).resolves.toBe('already there');
  });

  it('lets every other error through unchanged', async () => {
    const other = new Error('disk full');
    const outcome = onUniqueViolation(
      async () => {
        throw other;
      },
      () => 'never',
    );
    await expect(outcome).rejects.toBe(other);
  });
});
