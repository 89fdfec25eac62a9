import { importedLoginProblem } from '@trackline/contracts';
import { User } from '../model/user.entity.js';
import type { Em } from '../orm/em.js';
import { placeholders } from '../orm/sql-fragments.js';

/**
 * Logins an import may reference without knowing them (the original's authors of deleted accounts):
 * the imported-login rule of the contracts, the same as `PUT /rest/import/users` applies.
 */
export const isReferenceLogin = (login: string) => importedLoginProblem(login) === null;

/**
 * The ids of the users named by `logins` (any case), creating a placeholder for each unknown
 * one: type `system`, no password (it cannot sign in), listed by `GET /rest/admin/systemuser`
 * so a migration can see whom it referenced, and turned into an ordinary user by a later
 * `PUT /rest/import/users` naming it. Two statements, whatever the number of logins.
 */
export async function resolveUserRefs(tx: Em, logins: Iterable<string>): Promise<Map<string, number>> {
  const wanted = new Map<string, string>();
  for (const login of logins) wanted.set(login.toLowerCase(), login);
  const ids = new Map<string, number>();
  if (wanted.size === 0) return ids;
  const select = async () => {
    const keys = [...wanted.keys()];
    const rows = await tx.execute<{ id: number; login_key: string }[]>(
      `select id, login_key from users where login_key in (${placeholders(keys)})`,
      keys,
    );
    for (const row of rows) ids.set(row.login_key, Number(row.id));
  };
  await select();
  const missing = [...wanted].filter(([key]) => !ids.has(key));
  if (missing.length === 0) return ids;
  const now = new Date();
  await tx
    .createQueryBuilder(User)
    .insert(
      missing.map(([key, login]) => ({
        login,
        loginKey: key,
        fullName: login,
        email: null,
        emailKey: null,
        passwordHash: null,
        type: 'system' as const,
        contextFolder: null,
        createdAt: now,
      })),
    )
    .onConflict('loginKey')
    .ignore()
    .execute();
  await select();
  return ids;
}
