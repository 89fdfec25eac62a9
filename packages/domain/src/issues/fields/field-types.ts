import { DomainError } from '../../errors.js';
import { BUNDLE_KINDS, type BundleKind, FIELD_KINDS, type FieldKind } from '../../model/field.entity.js';

/** `enum[1]`, `user[*]`, `string`...: the original's type names (state fields take one value). */
const TYPE = /^([A-Za-z]{1,20})(?:\[([1*])\])?$/;

/** Parses a field type as the original writes it; 400 naming `field` for anything else. */
export function parseFieldType(text: string, field = 'type'): { kind: FieldKind; multi: boolean } {
  const m = TYPE.exec(text.trim());
  const kind = FIELD_KINDS.find((k) => k.toLowerCase() === m?.[1]?.toLowerCase());
  const bundled = kind !== undefined && (BUNDLE_KINDS as readonly string[]).includes(kind);
  if (!m || !kind || bundled !== (m[2] !== undefined) || (kind === 'state' && m[2] === '*')) {
    throw DomainError.invalid(
      field,
      `[ ${text.slice(0, 40)} ] is not a field type (enum[1|*], state[1], version[1|*], build[1|*], ownedField[1|*], user[1|*], string, text, integer, float, date, period)`,
    );
  }
  return { kind, multi: m[2] === '*' };
}

export const formatFieldType = (kind: FieldKind, multi: boolean): string =>
  (BUNDLE_KINDS as readonly string[]).includes(kind) ? `${kind}[${multi ? '*' : '1'}]` : kind;

/** The path segment naming a bundle type in `/rest/admin/customfield/{type}`. */
export const BUNDLE_TYPES = {
  bundle: 'enum',
  stateBundle: 'state',
  versionBundle: 'version',
  buildBundle: 'build',
  ownedFieldBundle: 'ownedField',
  userBundle: 'user',
} as const satisfies Record<string, BundleKind>;
export type BundleType = keyof typeof BUNDLE_TYPES;
export const bundleTypeOf = (kind: BundleKind): BundleType =>
  (Object.keys(BUNDLE_TYPES) as BundleType[]).find((t) => BUNDLE_TYPES[t] === kind) ?? 'bundle';
