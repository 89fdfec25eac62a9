import type { UserType } from '@trackline/contracts';
import { importedLoginProblem } from '@trackline/contracts';
import { type Actor, covers, requirePermission } from '../auth/actor.js';
import { loadActor } from '../auth/load-actor.js';
import { DomainError } from '../errors.js';
import { type ImportItemResult, type ImportProblem, imported, refused } from '../issues/import-report.js';
import { BUILT_IN_LOGINS } from '../model/seed-data.js';
import { User } from '../model/user.entity.js';
import type { Em } from '../orm/em.js';
import { placeholders } from '../orm/sql-fragments.js';
import { inTransaction } from '../orm/transaction.js';
import { onUniqueViolation, rejectWith } from '../orm/unique.js';
import { oneLine } from '../text/user-text.js';
import { emailKeyOf, isEmailFree } from '../users/email-keys.js';
import { loginSkeletonKey, looksLike } from '../users/login-skeleton.js';
import { lookAlikeLogins } from '../users/user-refs.js';

export type ImportedUser = {
  login: string;
  fullName?: string | undefined;
  email?: string | undefined;
  jabber?: string | undefined;
};

/** Imported users' logins: the contracts' imported-login rule (`importedLoginProblem`). */
const EMAIL = /^[^\s@]{1,100}@[^\s@]{1,100}$/u;

/** What the original's UserImporter sends for a user without an e-mail. */
const NO_EMAIL = '<no email>';

type ExistingUser = { id: number; login: string; login_key: string; type: string; email: string | null };

const coversAccount = async (em: Em, actor: Actor, row: ExistingUser) =>
  row.id === actor.userId ||
  covers(actor, await loadActor(em, { id: Number(row.id), login: row.login, type: row.type as UserType }));

const builtInAccount = (login: string): ImportProblem => ({
  message: `[ ${login} ] is a built-in account and is not changed by an import`,
  fieldName: 'login',
  value: login,
});

export const requireImport = (actor: Actor) =>
  requirePermission(actor, 'IMPORT_DATA', undefined, 'import data (IMPORT_DATA)');

/**
 * `PUT /rest/import/users`: creates the missing users without passwords (they sign in once an
 * administrator sets one) and updates the names and e-mails of existing ones, including the
 * placeholders an issue import made for logins it did not know (they become ordinary users).
 * One result per user, in order; a bad entry is reported and never blocks the others.
 */
export async function importUsers(
  em: Em,
  actor: Actor,
  users: ImportedUser[],
  options: { test?: boolean | undefined } = {},
): Promise<ImportItemResult[]> {
  requireImport(actor);
  const results: ImportItemResult[] = [];
  const valid = new Map<string, { user: ImportedUser; index: number }>();
  users.forEach((user, index) => {
    const login = user.login.trim();
    const problems: ImportProblem[] = [];
    const loginProblem = importedLoginProblem(login);
    if (loginProblem) problems.push({ message: `login ${loginProblem}`, fieldName: 'login', value: login });
    // youtrack2youtrack's UserImporter sends `<no email>` for a user without one: no e-mail.
    const email = user.email?.trim() === NO_EMAIL ? undefined : user.email?.trim();
    if (email && !EMAIL.test(email))
      problems.push({ message: 'email is not an e-mail address', fieldName: 'email', value: email });
    const fullName = oneLine(user.fullName ?? '').trim();
    if (fullName.length > 200)
      problems.push({ message: 'fullName must be at most 200 characters', fieldName: 'fullName' });
    const jabber = oneLine(user.jabber ?? '').trim();
    if (jabber.length > 200)
      problems.push({ message: 'jabber must be at most 200 characters', fieldName: 'jabber' });
    const key = login.toLowerCase();
    // root, guest, system_user and deleted_user, whatever their rows say (deleted_user's type is
    // that of a placeholder, which an import does turn into the user it stood for).
    if (problems.length === 0 && BUILT_IN_LOGINS.has(key)) problems.push(builtInAccount(login));
    if (problems.length === 0 && valid.has(key))
      problems.push({
        message: `login [ ${login} ] appears twice in this request`,
        fieldName: 'login',
        value: login,
      });
    if (problems.length) results[index] = refused(login, problems);
    else {
      valid.set(key, {
        user: {
          login,
          fullName: fullName || undefined,
          email: email || undefined,
          jabber: jabber || undefined,
        },
        index,
      });
      results[index] = imported(login);
    }
  });
  // `test`: the original's dry run (checked, nothing stored).
  if (valid.size === 0 || options.test) return results;

  // A concurrent writer took a login or an address after the checks: the unique indexes refuse
  // it, and the request is answered 409 (nothing of it stored); importing again reports each user.
  await onUniqueViolation(
    () => inTransaction(em, (tx) => storeUsers(tx, actor, valid, results)),
    rejectWith(() => new DomainError('CONFLICT', CONCURRENT_CHANGE)),
  );
  return results;
}

const CONCURRENT_CHANGE = 'A concurrent change took a login or an e-mail of this import; import again.';

/**
 * Stores the valid users of an import in one transaction, refusing (in `results`) a new login that
 * looks like another account's, an e-mail another account holds, an e-mail change of an account the
 * caller does not cover, and the built-in accounts.
 */
async function storeUsers(
  tx: Em,
  actor: Actor,
  valid: Map<string, { user: ImportedUser; index: number }>,
  results: ImportItemResult[],
): Promise<void> {
  const keys = [...valid.keys()];
  const existing = await tx.execute<ExistingUser[]>(
    `select id, login, login_key, type, email from users where login_key in (${placeholders(keys)})`,
    keys,
  );
  const byKey = new Map(existing.map((row) => [row.login_key, row]));
  // E-mail addresses are unique regardless of case: one held by another account (or by an
  // earlier user of this request) is refused for its user.
  const claimed = new Set<string>();
  const emailFree = async (email: string, ownerId: number | null) => {
    const free = !claimed.has(emailKeyOf(email)) && (await isEmailFree(tx, email, ownerId));
    if (free) claimed.add(emailKeyOf(email));
    return free;
  };
  const problem = (login: string, fieldName: string, message: string, value: string) =>
    refused(login, [{ message, fieldName, value }]);
  // A new login that looks like another account's (or an earlier new one's) is refused.
  const lookAlikes = await lookAlikeLogins(
    tx,
    [...valid].filter(([key]) => !byKey.has(key)).map(([, { user }]) => user.login),
  );
  const fresh = [];
  for (const [key, { user, index }] of valid) {
    const row = byKey.get(key);
    if (!row) {
      const lookAlike = lookAlikes.get(key);
      if (lookAlike !== undefined) {
        results[index] = problem(user.login, 'login', `login ${looksLike(lookAlike)}`, user.login);
        continue;
      }
      if (user.email && !(await emailFree(user.email, null))) {
        results[index] = problem(user.login, 'email', EMAIL_TAKEN, user.email);
        continue;
      }
      fresh.push({
        login: user.login,
        loginKey: key,
        loginSkeleton: loginSkeletonKey(user.login),
        fullName: user.fullName ?? user.login,
        email: user.email ?? null,
        emailKey: user.email ? emailKeyOf(user.email) : null,
        emailSetBy: user.email ? actor.userId : null,
        jabber: user.jabber ?? null,
        passwordHash: null,
        type: 'user' as const,
        contextFolder: null,
        createdAt: new Date(),
      });
    } else if (row.type === 'user' || row.type === 'system') {
      // Commits are matched to accounts by e-mail: an import changes an existing account's
      // e-mail only for a caller holding everything that account holds (as updating it would).
      const newEmail = user.email && user.email !== row.email ? user.email : undefined;
      if (newEmail && !(await coversAccount(tx, actor, row))) {
        results[index] = problem(
          user.login,
          'email',
          `the e-mail of [ ${row.login} ] is changed only by who holds every permission it holds`,
          newEmail,
        );
        continue;
      }
      if (newEmail && !(await emailFree(newEmail, Number(row.id)))) {
        results[index] = problem(user.login, 'email', EMAIL_TAKEN, newEmail);
        continue;
      }
      // A placeholder an issue import left ('system') becomes the user it stood for.
      await tx.nativeUpdate(
        User,
        { id: row.id },
        {
          ...(user.fullName ? { fullName: user.fullName } : {}),
          ...(user.jabber ? { jabber: user.jabber } : {}),
          ...(newEmail ? { email: newEmail, emailKey: emailKeyOf(newEmail), emailSetBy: actor.userId } : {}),
          type: 'user',
        },
      );
    } else {
      results[index] = refused(user.login, [builtInAccount(user.login)]);
    }
  }
  // A concurrent import of the same login wins the insert: the user exists either way.
  if (fresh.length) await tx.createQueryBuilder(User).insert(fresh).onConflict('loginKey').ignore().execute();
}

const EMAIL_TAKEN = 'email is used by another account';
