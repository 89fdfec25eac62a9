import { importedLoginProblem } from '@trackline/contracts';
import { tables } from '../model/database.js';
import { bulkInsert } from '../orm/bulk-insert.js';
import type { Em } from '../orm/em.js';
import { paddedInList } from '../orm/sql-fragments.js';
import { type Param, perLength, prepareRead } from '../orm/typed-query.js';

/**
 * Logins an import may reference without knowing them (the original's authors of deleted accounts):
 * the imported-login rule of the contracts, the same as `PUT /rest/import/users` applies.
 */
export const isReferenceLogin = (login: string) => importedLoginProblem(login) === null;

/**
 * The ids of the users named by `logins` (any case), creating a placeholder for each unknown
 * one: type `system`, no password (it cannot sign in), listed by `GET /rest/admin/systemuser`
 * so a migration can see whom it referenced, and turned into an ordinary user by a later
 * `PUT /rest/import/users` naming it. One statement when every login exists (an import's
 * usual case), three otherwise, whatever the number of logins; all prepared once per shape.
 */
/** Users by login key, one prepared statement per (padded) length of the list. */
const usersByKey = perLength((count) =>
  prepareRead((param: Param<{ keys: string[] }>) =>
    tables
      .selectFrom('users')
      .select(['id', 'login_key'])
      .where('login_key', 'in', param.list('keys', count)),
  ),
);

export async function resolveUserRefs(tx: Em, logins: Iterable<string>): Promise<Map<string, number>> {
  const wanted = new Map<string, string>();
  for (const login of logins) wanted.set(login.toLowerCase(), login);
  const ids = new Map<string, number>();
  if (wanted.size === 0) return ids;
  const select = async () => {
    const keys = paddedInList([...wanted.keys()]);
    const rows = await usersByKey(keys.length).all(tx, { keys });
    for (const row of rows) ids.set(row.login_key, Number(row.id));
  };
  await select();
  const missing = [...wanted].filter(([key]) => !ids.has(key));
  if (missing.length === 0) return ids;
  const now = new Date();
  // A concurrent import may create the same placeholder first: then its row is the one read.
  await bulkInsert(
    tx,
    'users',
    ['login', 'login_key', 'full_name', 'type', 'created_at'],
    missing.map(([key, login]) => [login, key, login, 'system', now]),
    { ignoreConflicts: true },
  );
  await select();
  return ids;
}
