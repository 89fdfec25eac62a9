import { RESERVED_COMMAND_PHRASES } from '../../commands/definitions.js';
import { DomainError } from '../../errors.js';
import { nameKey, oneLine } from '../../text/user-text.js';

/**
 * A field prototype's aliases: other names of the field, as data on the prototype
 * (`custom_fields.aliases`, comma-separated), editable with it (`PUT|POST
 * /rest/admin/customfield/field/{name}?aliases=`), and read by the command language (a field name
 * like any other: `add affects 1.0`), by search (`affects: 1.0`) and by both suggesters.
 */
export const MAX_ALIASES = 10;

/**
 * The original's documented aliases of its predefined fields, given to a prototype of that name
 * created without aliases (migration 0034 gives them to existing ones): `affects` (Command Grammar
 * page: `add affects 1.0`), `fixed in` (offered beside `Fixed in build` for `Fixed`).
 */
export const DOCUMENTED_ALIASES: Readonly<Record<string, readonly string[]>> = {
  'affected versions': ['affects'],
  'fix versions': ['fixed in'],
};

/** The aliases stored on a prototype. */
export function parseAliases(stored: string | null | undefined): string[] {
  return (stored ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
}

const RESERVED = new Set(RESERVED_COMMAND_PHRASES.map((p) => nameKey(p)));

/**
 * Checks aliases typed for the prototype `fieldName` (comma-separated; empty clears them), given the
 * names and aliases other prototypes already have (by key → their field's name): each one line,
 * 1–100 characters, no braces, not a command keyword, not another field's name or alias (400 naming
 * `aliases`). Duplicates (any case) and the field's own name are dropped. Returns the stored text.
 */
export function checkAliases(text: string, fieldName: string, taken: ReadonlyMap<string, string>): string {
  const aliases: string[] = [];
  const seen = new Set([nameKey(fieldName)]);
  for (const raw of text.split(',')) {
    const alias = oneLine(raw).trim().replace(/\s+/g, ' ');
    if (!alias) continue;
    if (alias.length > 100)
      throw DomainError.invalid('aliases', `[ ${alias.slice(0, 40)}… ] is longer than 100 characters`);
    if (/[{}]/.test(alias)) throw DomainError.invalid('aliases', `[ ${alias} ] must not contain braces`);
    const key = nameKey(alias);
    if (RESERVED.has(key)) throw DomainError.invalid('aliases', `[ ${alias} ] is a command keyword`);
    const other = taken.get(key);
    if (other !== undefined)
      throw DomainError.invalid('aliases', `[ ${alias} ] already names field [ ${other} ]`);
    if (seen.has(key)) continue;
    seen.add(key);
    aliases.push(alias);
  }
  if (aliases.length > MAX_ALIASES) throw DomainError.invalid('aliases', `at most ${MAX_ALIASES} aliases`);
  return aliases.join(', ');
}
