import type { Em } from '../../orm/em.js';
import { Bundle, CustomField, ProjectField } from './field.entity.js';

/**
 * Removes those of `bundleIds` no project field uses and no prototype offers as its default
 * (a purged project's own copies); shared bundles stay. Their values and users go with them.
 */
export async function deleteUnusedBundles(em: Em, bundleIds: number[]): Promise<void> {
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
