import { FIELD_KINDS } from '@trackline/contracts';

/**
 * The original's field types without their cardinality (`enum[*]` is `enum` + multi), as the
 * contracts list them: the first six take their values from a bundle; the others hold a typed
 * value of their own.
 */
export { FIELD_KINDS };
export type FieldKind = (typeof FIELD_KINDS)[number];

export const BUNDLE_KINDS = ['enum', 'state', 'user', 'version', 'build', 'ownedField'] as const;
export type BundleKind = (typeof BUNDLE_KINDS)[number];
export type SimpleKind = Exclude<FieldKind, BundleKind>;

export const isBundleKind = (kind: FieldKind): kind is BundleKind =>
  (BUNDLE_KINDS as readonly string[]).includes(kind);
