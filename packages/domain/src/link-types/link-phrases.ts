import { RESERVED_COMMAND_PHRASES } from '../commands/definitions.js';
import { DomainError } from '../errors.js';
import { DEFAULT_FIELDS } from '../issues/fields/default-fields.js';
import type { Em } from '../orm/em.js';
import { normalizeSpacing } from '../text/user-text.js';

/**
 * How link type names and phrases are stored and compared: NFC, each run of Unicode whitespace
 * made one space, ends trimmed. `relates\u00A0to` and `relates  to` are then `relates to`.
 */
export function normalizeLinkName(text: string): string {
  return normalizeSpacing(text);
}

/** The case-insensitive comparison key of a link type name or phrase. */
export function linkNameKey(text: string): string {
  return normalizeLinkName(text).toLowerCase();
}

/**
 * What a command may already mean by a phrase, lower-cased and normalized: keywords and their
 * aliases, `me`, field names, field values and empty texts (the defaults every new project
 * gets and whatever projects hold now), and the logins of assignees (bare values of user fields).
 */
export async function commandPhrases(em: Em): Promise<Set<string>> {
  const phrases = new Set<string>(RESERVED_COMMAND_PHRASES);
  for (const field of DEFAULT_FIELDS) {
    phrases.add(field.name);
    if (field.emptyText) phrases.add(field.emptyText);
    for (const value of field.values) phrases.add(value.name);
  }
  const rows = await em
    .getConnection()
    .execute<{ phrase: string | null }[]>(
      'select name as phrase from project_fields union select empty_text from project_fields ' +
        'union select name from field_values ' +
        'union select u.login from bundle_users bu join users u on u.id = bu.user_id',
    );
  for (const row of rows) if (row.phrase) phrases.add(row.phrase);
  return new Set([...phrases].map(linkNameKey));
}

/**
 * A link phrase is matched against typed words before field names and values of the same
 * length and wins over shorter ones, so one equal to, or starting with, something a command
 * already means (`fixed`, `state fixed`, `for me`) would take that command over. Refused, 400.
 */
export function assertNotCommandPhrase(reserved: ReadonlySet<string>, field: string, phrase: string) {
  const words = linkNameKey(phrase).split(' ');
  for (let length = 1; length <= words.length; length++) {
    const prefix = words.slice(0, length).join(' ');
    if (!reserved.has(prefix)) continue;
    throw DomainError.invalid(
      field,
      length === words.length
        ? `[ ${phrase} ] already means something in commands (a keyword, field or value)`
        : `[ ${phrase} ] starts with [ ${prefix} ], which already means something in commands (a keyword, field or value)`,
    );
  }
}
