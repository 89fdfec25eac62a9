import { DomainError } from '../../errors.js';
import { User } from '../../model/user.entity.js';
import type { Em } from '../../orm/em.js';
import { nameKey } from '../../text/user-text.js';
import { resolutionChanges } from '../command-ops.js';
import { persistCommandState } from '../command-persist.js';
import { type CommandState, type FieldDef, type FieldSlots, loadCommandState } from '../command-state.js';
import type { IssueRef } from '../find-issues.js';
import { resolveValueText } from './resolve-value-text.js';

/** A field named as the user wrote it, with the texts of its values (several for a multi-value field). */
export type FieldValueTexts = { field: string; values: readonly string[] };

/** The slots `texts` give a field (replacing what it had); an empty map empties it. */
export async function slotsFromTexts(
  field: FieldDef,
  texts: readonly string[],
  users: Parameters<typeof resolveValueText>[2],
): Promise<FieldSlots> {
  if (texts.length > 1 && !field.multi) throw DomainError.invalid(field.name, 'takes one value');
  const slots: FieldSlots = new Map();
  for (const text of texts) {
    const resolved = await resolveValueText(field, text, users);
    if (resolved) slots.set(resolved.slot, resolved.content);
  }
  if (slots.size === 0 && !field.canBeEmpty) throw DomainError.invalid(field.name, 'cannot be empty');
  return slots;
}

/**
 * Sets fields of issues by field name from the texts of their values, for fields of any type
 * (each named field's values are replaced; no texts or the empty text empties it), with the
 * same state, persistence and resolution rules as commands; `updatedAt` moves on changed issues.
 * NO permission check: the caller has decided (the importer checks its import permission).
 * An unknown field or value throws VALIDATION_FAILED naming the field, and nothing is written
 * when the caller runs it in a transaction.
 */
export async function writeIssueFieldValues(
  em: Em,
  actorId: number,
  issues: readonly { ref: IssueRef; fields: readonly FieldValueTexts[] }[],
): Promise<void> {
  if (issues.length === 0) return;
  const state: CommandState = await loadCommandState(
    em,
    issues.map((i) => i.ref),
  );
  const userIds = new Map<string, number | null>();
  const userId = async (login: string) => {
    const key = nameKey(login);
    if (!userIds.has(key)) userIds.set(key, (await em.findOne(User, { loginKey: key }))?.id ?? null);
    return userIds.get(key) ?? null;
  };
  const byId = new Map(state.issues.map((s) => [s.ref.id, s]));
  for (const input of issues) {
    const issue = byId.get(input.ref.id);
    if (!issue) continue;
    for (const { field: name, values } of input.fields) {
      const field = state.fields.get(input.ref.projectId)?.get(nameKey(name));
      if (!field)
        throw DomainError.invalid(
          name,
          `field [ ${name} ] does not exist in project [ ${input.ref.shortName} ]`,
        );
      const slots = await slotsFromTexts(field, values, { userId, allowed: state.fieldUsers.get(field.id) });
      if (slots.size === 0) issue.current.delete(field.id);
      else issue.current.set(field.id, slots);
    }
  }
  await persistCommandState(em, actorId, state, resolutionChanges(state, new Date()));
}
