import unhomoglyph from 'unhomoglyph';
import { sha256Hex } from '../auth/secrets.js';
import { DomainError } from '../errors.js';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { runStatement } from '../orm/statements.js';
import { readQuery } from '../orm/typed-query.js';

/**
 * Logins that look alike (issue 37, item 9): `ɾoot` (U+027E) or an all-Cyrillic `гоот` beside
 * `root`. Each login has a skeleton, after Unicode TR39 ("Unicode Security Mechanisms", section 4):
 * NFD, each character replaced by its prototype in Unicode's confusables data, NFD again. Two
 * logins with one skeleton look the same, and a new login whose skeleton an existing one has is
 * refused (account creation, the user import, the logins an issue import references).
 *
 * The confusables data is Unicode's `confusables.txt` (version 13.0) as the `unhomoglyph` package
 * ships it; the mapping is that package's documented function. Logins are compared ignoring case,
 * so the skeleton is taken of the lower-cased login, and then the letters TR39 keeps apart as
 * prototypes of their own but which are, in a case-insensitive name, the same letter are folded
 * to it and the result mapped again: the small capitals (`ᴛ`, Cyrillic `т`'s prototype, is a `t`
 * drawn at x-height) and `ɾ` (r with fishhook, an `r` without its arm's end). Stored in
 * `users.login_skeleton` (migration 0059) as its SHA-256, filled for older rows by the seed.
 */
const LOGIN_FOLDS = new Map<string, string>([
  ['\u1D00', 'a'], // ᴀ
  ['\u0299', 'b'], // ʙ
  ['\u1D04', 'c'], // ᴄ
  ['\u1D05', 'd'], // ᴅ
  ['\u1D07', 'e'], // ᴇ
  ['\uA730', 'f'], // ꜰ
  ['\u0262', 'g'], // ɢ
  ['\u029C', 'h'], // ʜ
  ['\u026A', 'i'], // ɪ
  ['\u1D0A', 'j'], // ᴊ
  ['\u1D0B', 'k'], // ᴋ
  ['\u029F', 'l'], // ʟ
  ['\u1D0D', 'm'], // ᴍ
  ['\u0274', 'n'], // ɴ
  ['\u1D0F', 'o'], // ᴏ
  ['\u1D18', 'p'], // ᴘ
  ['\uA7AF', 'q'], // ꞯ
  ['\u0280', 'r'], // ʀ
  ['\uA731', 's'], // ꜱ
  ['\u1D1B', 't'], // ᴛ
  ['\u1D1C', 'u'], // ᴜ
  ['\u1D20', 'v'], // ᴠ
  ['\u1D21', 'w'], // ᴡ
  ['\u028F', 'y'], // ʏ
  ['\u1D22', 'z'], // ᴢ
  ['\u027E', 'r'], // ɾ
]);

/** TR39's skeleton of a string: NFD, the confusables mapping, NFD. */
const tr39 = (text: string): string => unhomoglyph(text.normalize('NFD')).normalize('NFD');

/** The skeleton two look-alike logins share (see above). */
export function loginSkeleton(login: string): string {
  const skeleton = tr39(login.toLowerCase());
  let folded = '';
  for (const c of skeleton) folded += LOGIN_FOLDS.get(c) ?? c;
  return folded === skeleton ? skeleton : tr39(folded);
}

/** What `users.login_skeleton` holds: the skeleton's SHA-256, a bounded key however long the skeleton. */
export const loginSkeletonKey = (login: string): string => sha256Hex(loginSkeleton(login));

/** The existing login that `login` looks like (another account's), if any. */
export async function lookAlikeLogin(em: Em, login: string): Promise<string | null> {
  const rows = await readQuery(
    em,
    tables
      .selectFrom('users')
      .select('login')
      .where('login_skeleton', '=', loginSkeletonKey(login))
      .where('login_key', '!=', login.toLowerCase())
      .limit(1),
  );
  return rows[0]?.login ?? null;
}

/** Why a login that looks like `existing` is refused (the end of a sentence naming it). */
export const looksLike = (existing: string): string =>
  `looks like the existing login [ ${existing} ] (Unicode confusables)`;

/** 409 when `login` looks like another account's login. */
export async function requireDistinctLogin(em: Em, login: string): Promise<void> {
  const existing = await lookAlikeLogin(em, login);
  if (existing !== null) throw new DomainError('CONFLICT', `User [ ${login} ] ${looksLike(existing)}.`);
}

/**
 * Fills the skeleton of users stored before migration 0059 (the seed, at every start: a few
 * hundred rows a statement, nothing once filled).
 */
export async function fillLoginSkeletons(em: Em): Promise<void> {
  for (;;) {
    const rows = await readQuery(
      em,
      tables.selectFrom('users').select(['id', 'login']).where('login_skeleton', 'is', null).limit(500),
    );
    if (rows.length === 0) return;
    for (const row of rows)
      await runStatement(em, 'update users set login_skeleton = ? where id = ?', [
        loginSkeletonKey(row.login),
        Number(row.id),
      ]);
  }
}
