import type { Em } from '../../orm/em.js';
import { Bundle, CustomField, ProjectField } from './field.entity.js';

/**
 * Removes those of `bundleIds` that were made for the project (`PRJ: Field`, see
 * `attachPrototype`) when no project field uses them and no prototype offers them as its
 * default; shared bundles always stay. Their values and users go with them.
 */
export async function deleteUnusedBundles(
  em: Em,
  bundleIds: number[],
  projectShortName: string,
): Promise<void> {
  const own = `${projectShortName.toLowerCase()}: `;
  bundleIds = (await em.find(Bundle, { id: { $in: bundleIds } }))
    .filter((b) => b.nameKey.startsWith(own))
    .map((b) => b.id);
  if (bundleIds.length === 0) return;
  const used = new Set<number>([
    ...(await em.find(ProjectField, { bundle: { $in: bundleIds } })).flatMap((f) =>
      f.bundle ? [f.bundle.id] : [],
    ),
    ...(await em.find(CustomField, { defaultBundle: { $in: bundleIds } })).flatMap((f) =>
      f.defaultBundle ? [f.defaultBundle.id] : [],
    ),
  ]);
  const unused = bundleIds.filter((id) => !used.has(id));
  if (unused.length) await em.nativeDelete(Bundle, { id: { $in: unused } });
}
