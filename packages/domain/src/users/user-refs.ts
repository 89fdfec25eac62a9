import { importedLoginProblem } from '@trackline/contracts';
import { tables } from '../model/database.js';
import { bulkInsert } from '../orm/bulk-insert.js';
import type { Em } from '../orm/em.js';
import { paddedInList } from '../orm/sql-fragments.js';
import { type Param, perLength, prepareRead, readQuery } from '../orm/typed-query.js';
import { loginSkeletonKey } from './login-skeleton.js';

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
    ['login', 'login_key', 'login_skeleton', 'full_name', 'type', 'created_at'],
    missing.map(([key, login]) => [login, key, loginSkeletonKey(login), login, 'system', now]),
    { ignoreConflicts: true },
  );
  await select();
  return ids;
}

/**
 * The logins among `logins` (any case) that no account has yet and that look like another
 * account's login, or like an earlier login of the list (`login-skeleton.ts`): by lower-cased
 * login, the existing login each looks like. What an import names is refused for them.
 */
export async function lookAlikeLogins(em: Em, logins: Iterable<string>): Promise<Map<string, string>> {
  const byKey = new Map<string, string>();
  for (const login of logins) if (!byKey.has(login.toLowerCase())) byKey.set(login.toLowerCase(), login);
  const found = new Map<string, string>();
  if (byKey.size === 0) return found;
  const skeletons = new Map([...byKey].map(([key, login]) => [key, loginSkeletonKey(login)]));
  const rows = await readQuery(
    em,
    tables
      .selectFrom('users')
      .select(['login', 'login_key', 'login_skeleton'])
      .where('login_skeleton', 'in', [...new Set(skeletons.values())]),
  );
  const existingKeys = new Set(rows.map((r) => r.login_key));
  const taken = new Map<string, string>();
  for (const row of rows) if (row.login_skeleton) taken.set(row.login_skeleton, row.login);
  for (const [key, login] of byKey) {
    if (existingKeys.has(key)) continue;
    const skeleton = skeletons.get(key) as string;
    const other = taken.get(skeleton);
    if (other !== undefined) found.set(key, other);
    else taken.set(skeleton, login);
  }
  return found;
}
