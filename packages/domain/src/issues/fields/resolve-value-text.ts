import { DomainError } from '../../errors.js';
import { isBundleKind } from '../../model/field.entity.js';
import { nameKey } from '../../text/user-text.js';
import { parseSimpleValue } from '../../values/simple-values.js';
import type { FieldDef, SlotValue } from '../command-state.js';

const EMPTY: SlotValue = { value: null, user: null, text: null, number: null };

/**
 * The slot and content one value text takes in a field of any type, or null for the field's
 * empty value: a bundle value by name, a user by login (who must be in the field's bundle),
 * or a simple value parsed by type (`values/simple-values.ts`). Bad text throws VALIDATION_FAILED
 * naming the field. Used by the command executor and by `writeIssueFieldValues`.
 */
export async function resolveValueText(
  field: FieldDef,
  text: string,
  users: { userId: (login: string) => Promise<number | null>; allowed: Set<number> | undefined },
): Promise<{ slot: number; content: SlotValue } | null> {
  const key = nameKey(text);
  if (!key || (field.emptyText && key === field.emptyText.toLowerCase())) return null;
  const bad = (message: string) => DomainError.invalid(field.name, message);
  if (!isBundleKind(field.kind)) {
    const parsed = parseSimpleValue(field.kind, text);
    if ('error' in parsed) throw bad(parsed.error);
    return { slot: 0, content: { ...EMPTY, ...parsed } };
  }
  if (field.kind === 'user') {
    const userId = await users.userId(text.trim());
    if (userId === null) throw bad(`user [ ${text.trim()} ] not found`);
    if (!users.allowed?.has(userId))
      throw bad(`user [ ${text.trim()} ] is not among the values of the field`);
    return { slot: field.multi ? userId : 0, content: { ...EMPTY, user: userId } };
  }
  const value = field.values.get(key);
  if (!value) throw bad(`[ ${text.trim()} ] is not a value of the field`);
  return { slot: field.multi ? value.id : 0, content: { ...EMPTY, value: value.id } };
}
