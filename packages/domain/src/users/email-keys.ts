import { DomainError } from '../errors.js';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { readQuery } from '../orm/typed-query.js';

/**
 * E-mail addresses are unique regardless of case: commits run as the account whose address they
 * carry, so two accounts with one address made that address match nobody (issue 37, item 11).
 * `users.email_key` holds the lower-cased address under a unique index (migration 0058); accounts
 * that shared an address before that migration kept it as written without a key, and only they
 * may claim its key again (the first to set it); nobody else may take it meanwhile.
 */
export const emailKeyOf = (email: string): string => email.toLowerCase();

export const emailTaken = (email: string) =>
  new DomainError('CONFLICT', `E-mail [ ${email} ] is used by another account.`);

/** Whether `email` is free for the account `ownerId` (null: an account not created yet). */
export async function isEmailFree(em: Em, email: string, ownerId: number | null): Promise<boolean> {
  const key = emailKeyOf(email);
  const keyed = await readQuery(
    em,
    tables
      .selectFrom('users')
      .select('id')
      .where('email_key', '=', key)
      .where('id', '!=', ownerId ?? 0),
  );
  if (keyed.length > 0) return false;
  // The accounts that shared an address before the migration (few: no writer leaves a key out).
  const unkeyed = await readQuery(
    em,
    tables
      .selectFrom('users')
      .select(['id', 'email'])
      .where('email_key', 'is', null)
      .where('email', 'is not', null),
  );
  const holders = unkeyed
    .filter((u) => u.email !== null && emailKeyOf(u.email) === key)
    .map((u) => Number(u.id));
  return holders.length === 0 || (ownerId !== null && holders.includes(ownerId));
}

/** 409 when another account holds `email` (see `isEmailFree`). */
export async function requireEmailFree(em: Em, email: string, ownerId: number | null): Promise<void> {
  if (!(await isEmailFree(em, email, ownerId))) throw emailTaken(email);
}
