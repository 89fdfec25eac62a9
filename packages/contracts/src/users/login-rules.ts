/**
 * What a login may be when it arrives by an import (`PUT /rest/import/users`, and the logins an
 * issue import names: reporter, updater, voters, watchers, user-field values, comment and work
 * item authors, which become placeholder users). Wider than account creation (letters, digits and
 * `_ . @ + -`), because a migration brings the logins another tracker had; never wider than what
 * shows unambiguously: no control, format (zero-width, bidirectional) or private-use characters,
 * no compatibility forms (fullwidth `ｒｏｏｔ`), and no Latin letters mixed with Cyrillic, Greek or
 * other look-alike scripts (`rооt` with Cyrillic o's). Checked in one linear pass.
 */
export const MAX_LOGIN_LENGTH = 100;

const FORBIDDEN = /[\s/\\?#%&<>"'\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Cn}]/u;
/** Scripts whose letters pass for Latin ones. */
const LOOK_ALIKE_SCRIPTS = [
  /\p{Script=Cyrillic}/u,
  /\p{Script=Greek}/u,
  /\p{Script=Armenian}/u,
  /\p{Script=Cherokee}/u,
];
const LATIN = /\p{Script=Latin}/u;

/** Why `login` cannot be an imported login, or null when it can. */
export function importedLoginProblem(login: string): string | null {
  if (login.length === 0 || login.length > MAX_LOGIN_LENGTH)
    return `must be 1 to ${MAX_LOGIN_LENGTH} characters`;
  if (FORBIDDEN.test(login))
    return 'must not contain spaces, control or invisible characters, or / \\ ? # % & < > " \'';
  if (login.normalize('NFKC') !== login)
    return 'must be in Unicode normal form (no compatibility characters such as fullwidth letters)';
  const scripts =
    LOOK_ALIKE_SCRIPTS.filter((script) => script.test(login)).length + (LATIN.test(login) ? 1 : 0);
  if (scripts > 1) return 'must not mix Latin, Cyrillic, Greek or other look-alike letters';
  return null;
}
