import { tables } from '../model/database.js';
import { Bundle, CustomField, ProjectField } from '../model/field.entity.js';
import type { Em } from '../orm/em.js';

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

/**
 * The users of every user bundle as rows `(bundle_id, user_id)`: its individual users and the
 * members of its groups, each once. For raw queries: `join (${BUNDLE_MEMBERS}) bm on bm.bundle_id = …`.
 */
export const BUNDLE_MEMBERS =
  'select bundle_id, user_id from bundle_users union ' +
  'select bg.bundle_id, gm.user_id from bundle_groups bg join group_members gm on gm.group_id = bg.group_id';

/** `BUNDLE_MEMBERS` for the typed builder: `.innerJoin(bundleMembers().as('bm'), 'bm.bundle_id', …)`. */
export const bundleMembers = () =>
  tables
    .selectFrom('bundle_users')
    .select(['bundle_id', 'user_id'])
    .union(
      tables
        .selectFrom('bundle_groups as bg')
        .innerJoin('group_members as gm', 'gm.group_id', 'bg.group_id')
        .select(['bg.bundle_id', 'gm.user_id']),
    );
