import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { User } from '../model/user.entity.js';
import type { Em } from '../orm/em.js';
import { migrate } from '../orm/migrate.js';
import type { Orm } from '../orm/open-orm.js';
import { seed } from '../seed/seed.js';
import { createTestDatabase } from '../testing/test-database.js';
import { actorFor } from '../testing/test-orm.js';
import { isEmailFree } from './email-keys.js';
import { updateUser } from './user-admin.js';

/**
 * Migration 0058 makes e-mail addresses unique regardless of case (issue 37, item 11). Accounts
 * that shared one before keep it as written without its key: none matches a commit, nobody else
 * may take the address, and the first of them to set it again holds it.
 */
describe('migration 0058: e-mail addresses unique regardless of case', () => {
  let orm: Orm;
  const fork = () => orm.em.fork() as Em;
  const run = (sql: string, params: unknown[] = []) =>
    fork().getConnection().execute<Record<string, unknown>[]>(sql, params);
  const user = (login: string) => fork().findOneOrFail(User, { loginKey: login });

  beforeAll(async () => {
    orm = await createTestDatabase();
    await migrate(orm, { before: '0058' });
    const at = '2026-01-01T00:00:00.000Z';
    for (const [login, email] of [
      ['ann', 'Shared@Example.com'],
      ['bob', 'shared@example.com'],
      ['cy', 'cy@example.com'],
      ['dee', null],
    ] as const)
      await run(
        'insert into users (login, login_key, full_name, email, email_key, type, created_at) values (?, ?, ?, ?, ?, ?, ?)',
        [login, login, login, email, email?.toLowerCase() ?? null, 'user', at],
      );
    await migrate(orm);
    await seed(orm, { adminPassword: 'root-password-1' });
  });
  afterAll(() => orm?.close(true));

  it('keeps every address as written; the shared one loses its key, the others keep theirs', async () => {
    expect(await user('ann')).toMatchObject({ email: 'Shared@Example.com', emailKey: null });
    expect(await user('bob')).toMatchObject({ email: 'shared@example.com', emailKey: null });
    expect(await user('cy')).toMatchObject({ email: 'cy@example.com', emailKey: 'cy@example.com' });
  });

  it('the unique index refuses a second key for an address, in any case', async () => {
    await expect(
      run("update users set email_key = 'cy@example.com' where login_key = 'dee'"),
    ).rejects.toThrow(/unique/i);
  });

  it('nobody else may take the shared address; one of its holders may, and then holds it alone', async () => {
    const dee = await user('dee');
    const ann = await user('ann');
    const bob = await user('bob');
    expect(await isEmailFree(fork(), 'SHARED@example.com', dee.id)).toBe(false);
    expect(await isEmailFree(fork(), 'shared@example.com', null)).toBe(false);
    expect(await isEmailFree(fork(), 'shared@example.com', bob.id)).toBe(true);
    await updateUser(fork(), await actorFor(orm, 'bob'), 'bob', { email: 'shared@example.com' });
    expect(await user('bob')).toMatchObject({ emailKey: 'shared@example.com' });
    expect(await isEmailFree(fork(), 'Shared@Example.com', ann.id)).toBe(false);
    await expect(
      updateUser(fork(), await actorFor(orm, 'ann'), 'ann', { email: 'Shared@Example.com' }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'E-mail [ Shared@Example.com ] is used by another account.',
    });
    expect(await isEmailFree(fork(), 'cy@example.com', (await user('cy')).id)).toBe(true);
  });
});
