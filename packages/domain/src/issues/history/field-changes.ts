import { tables } from '../../model/database.js';
import type { Em } from '../../orm/em.js';
import { type Param, perLength, prepareRead } from '../../orm/typed-query.js';
import type { CommandState, FieldDef, FieldSlots, IssueState } from '../command-state.js';
import type { FieldChange } from './history.js';

const slotIds = (slots: FieldSlots | undefined) =>
  [...(slots ?? new Map())].sort(([a], [b]) => a - b).map(([, v]) => v);

const changed = (before: FieldSlots | undefined, after: FieldSlots | undefined) => {
  const a = slotIds(before);
  const b = slotIds(after);
  return (
    a.length !== b.length ||
    a.some(
      (v, i) =>
        v.value !== b[i]?.value ||
        v.user !== b[i]?.user ||
        v.text !== b[i]?.text ||
        v.number !== b[i]?.number,
    )
  );
};

/**
 * The custom-field changes a command made to one issue, by field and value names (users by
 * login, simple fields by their text or number), read from the command state the persistence writes: what is recorded is exactly
 * what is written. `logins` resolves user ids; see `loginsOf`.
 */
export function commandFieldChanges(
  state: CommandState,
  issue: IssueState,
  logins: ReadonlyMap<number, string>,
): FieldChange[] {
  const defs = new Map<number, FieldDef>();
  for (const field of state.fields.get(issue.ref.projectId)?.values() ?? []) defs.set(field.id, field);
  const names = (def: FieldDef | undefined, slots: FieldSlots | undefined) =>
    slotIds(slots).map((v) => {
      if (v.user !== null) return logins.get(v.user) ?? String(v.user);
      if (v.value !== null) return def?.valuesById.get(v.value)?.name ?? String(v.value);
      // Simple fields (string, text, integer, float, date, period) keep their text or number.
      return v.text ?? (v.number !== null ? String(v.number) : '');
    });
  const changes: FieldChange[] = [];
  for (const fieldId of new Set([...issue.initial.keys(), ...issue.current.keys()])) {
    const before = issue.initial.get(fieldId);
    const after = issue.current.get(fieldId);
    if (!changed(before, after)) continue;
    const def = defs.get(fieldId);
    changes.push({
      name: def?.name ?? String(fieldId),
      oldValues: names(def, before),
      newValues: names(def, after),
    });
  }
  return changes;
}

const loginsQuery = perLength((count) =>
  prepareRead((param: Param<{ ids: number[] }>) =>
    tables.selectFrom('users').select(['id', 'login']).where('id', 'in', param.list('ids', count)),
  ),
);

/** Logins of every user a command's field slots name, before or after, with one query. */
export async function loginsOf(em: Em, state: CommandState): Promise<Map<number, string>> {
  const ids = new Set<number>();
  for (const issue of state.issues)
    for (const fields of [issue.initial, issue.current])
      for (const slots of fields.values())
        for (const v of slots.values()) if (v.user !== null) ids.add(v.user);
  if (ids.size === 0) return new Map();
  const list = [...ids];
  const rows = await loginsQuery(list.length).all(em, { ids: list });
  return new Map(rows.map((r) => [Number(r.id), r.login]));
}
