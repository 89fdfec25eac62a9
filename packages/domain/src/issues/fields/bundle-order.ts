import type { Actor } from '../../auth/actor.js';
import { DomainError } from '../../errors.js';
import { FieldValue } from '../../model/field.entity.js';
import type { Em } from '../../orm/em.js';
import { inTransaction } from '../../orm/transaction.js';
import { nameKey } from '../../text/user-text.js';
import { findBundle } from './bundles.js';
import { requireFieldsAdmin } from './custom-fields.js';
import { BUNDLE_TYPES, type BundleType } from './field-types.js';

/**
 * Moves a value of a bundle to `position` (0 first; past the end: last), the others keeping their
 * order (fields admin). The bundle's order is what pickers, completions and `sort by` on the field
 * follow. Answers the values' names in their new order.
 */
export async function moveBundleValue(
  em: Em,
  actor: Actor,
  type: BundleType,
  bundleName: string,
  valueName: string,
  position: number,
): Promise<string[]> {
  requireFieldsAdmin(actor);
  if (BUNDLE_TYPES[type] === 'user')
    throw DomainError.invalid('bundleType', 'user bundles have no order of values');
  const bundle = await findBundle(em, type, bundleName);
  return inTransaction(em, async (tx) => {
    const values = await tx.find(
      FieldValue,
      { bundle: bundle.id },
      { orderBy: { ordinal: 'asc', id: 'asc' } },
    );
    const index = values.findIndex((v) => v.nameKey === nameKey(valueName));
    if (index < 0) throw DomainError.notFound('Value', valueName);
    const [moved] = values.splice(index, 1) as [(typeof values)[number]];
    values.splice(Math.max(0, Math.min(position, values.length)), 0, moved);
    values.forEach((v, i) => {
      v.ordinal = i;
    });
    await tx.flush();
    return values.map((v) => v.name);
  });
}
