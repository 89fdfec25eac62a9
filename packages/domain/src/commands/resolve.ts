import type { Lexicon, ValueTarget } from './lexicon.js';

export type Resolution = { ok: true; target: ValueTarget } | { ok: false; message: string };

/** How strongly a bare value belongs to a field of this kind: state words first, logins last. */
const KIND_RANK = {
  state: 0,
  enum: 1,
  version: 1,
  build: 1,
  ownedField: 1,
  user: 2,
  // Simple fields list no values, so they are never the target of a bare value.
  string: 3,
  text: 3,
  integer: 3,
  float: 3,
  date: 3,
  period: 3,
} as const;

/**
 * Picks the field a value typed without its field name belongs to (`Fixed`, `1.0`, `john.doe`).
 * `add`/`remove` consider only multi-value fields. Among the rest, a state field wins, then
 * enum, version, build and owned fields, then user fields (preferring Assignee). Anything still tied is
 * ambiguous and must be written with its field name.
 */
export function resolveBareValue(
  text: string,
  targets: readonly ValueTarget[],
  lex: Lexicon,
  mode: 'set' | 'add' | 'remove',
): Resolution {
  const [first] = targets;
  if (targets.length === 1 && first && (mode === 'set' || first.field.field.multi))
    return { ok: true, target: first };
  const byField = new Map<string, ValueTarget>();
  for (const target of targets) {
    if (!byField.has(target.field.field.name)) byField.set(target.field.field.name, target);
  }
  let candidates = [...byField.values()];
  if (candidates.length === 0) return { ok: false, message: `Unknown value: ${text}` };
  if (mode !== 'set') {
    const multi = candidates.filter((target) => target.field.field.multi);
    if (multi.length === 0) {
      const name = candidates[0]?.field.field.name ?? 'This field';
      return { ok: false, message: `${name} takes a single value: write ${name} ${text} without ${mode}` };
    }
    candidates = multi;
  }
  const best = Math.min(...candidates.map((target) => KIND_RANK[target.field.field.kind]));
  candidates = candidates.filter((target) => KIND_RANK[target.field.field.kind] === best);
  const assignee = candidates.find((target) => target.field === lex.assignee);
  const only = candidates.length === 1 ? candidates[0] : assignee;
  if (only) return { ok: true, target: only };
  const names = candidates.map((target) => target.field.field.name);
  return {
    ok: false,
    message: `Ambiguous value ${text}: it belongs to ${names.join(' and ')}; write the field name first, e.g. ${names[0]} ${text}`,
  };
}
