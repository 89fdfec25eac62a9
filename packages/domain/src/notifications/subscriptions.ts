import { type Actor, requirePermission } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import { findSavedSearch } from '../folders/saved-searches.js';
import { findTag } from '../folders/tags.js';
import { findVisibilityGroup } from '../issues/comments/comments.js';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { toBool } from '../orm/row-values.js';
import { type Param, prepareRead, prepareWrite } from '../orm/typed-query.js';
import { getReadableProject } from '../projects/projects.js';

/** One "Notify on changes" of the caller: a saved search or a tag they see (their own or a shared one). */
export type SubscriptionView = { kind: 'savedSearch' | 'tag'; name: string; owner: string; shared: boolean };

const listQuery = prepareRead((param: Param<{ userId: number }>) =>
  tables
    .selectFrom('notification_subscriptions as s')
    .leftJoin('saved_searches as q', 'q.id', 's.saved_search_id')
    .leftJoin('tags as t', 't.id', 's.tag_id')
    .leftJoin('users as qo', 'qo.id', 'q.owner_id')
    .leftJoin('users as tow', 'tow.id', 't.owner_id')
    .select([
      's.id',
      'q.name as search_name',
      'q.shared as search_shared',
      'qo.login as search_owner',
      't.name as tag_name',
      't.shared as tag_shared',
      'tow.login as tag_owner',
    ])
    .where('s.user_id', '=', param('userId'))
    .orderBy('s.id'),
);

/** The caller's subscriptions (one whose search or tag is no longer shared with them is left out). */
export async function listSubscriptions(em: Em, actor: Actor): Promise<SubscriptionView[]> {
  const rows = await listQuery.all(em, { userId: actor.userId });
  return rows.flatMap((r): SubscriptionView[] => {
    if (r.search_name !== null) {
      const shared = toBool(r.search_shared);
      if (!shared && r.search_owner?.toLowerCase() !== actor.login.toLowerCase()) return [];
      return [{ kind: 'savedSearch', name: r.search_name, owner: r.search_owner ?? '', shared }];
    }
    if (r.tag_name !== null) {
      const shared = toBool(r.tag_shared);
      if (!shared && r.tag_owner?.toLowerCase() !== actor.login.toLowerCase()) return [];
      return [{ kind: 'tag', name: r.tag_name, owner: r.tag_owner ?? '', shared }];
    }
    return [];
  });
}

const subscribeSearch = prepareWrite((param: Param<{ userId: number; id: number }>) =>
  tables
    .insertInto('notification_subscriptions')
    .values({ user_id: param('userId'), saved_search_id: param('id') })
    .onConflict((oc) => oc.columns(['user_id', 'saved_search_id']).doNothing()),
);
const subscribeTag = prepareWrite((param: Param<{ userId: number; id: number }>) =>
  tables
    .insertInto('notification_subscriptions')
    .values({ user_id: param('userId'), tag_id: param('id') })
    .onConflict((oc) => oc.columns(['user_id', 'tag_id']).doNothing()),
);
const unsubscribeSearch = prepareWrite((param: Param<{ userId: number; id: number }>) =>
  tables
    .deleteFrom('notification_subscriptions')
    .where('user_id', '=', param('userId'))
    .where('saved_search_id', '=', param('id')),
);
const unsubscribeTag = prepareWrite((param: Param<{ userId: number; id: number }>) =>
  tables
    .deleteFrom('notification_subscriptions')
    .where('user_id', '=', param('userId'))
    .where('tag_id', '=', param('id')),
);

/**
 * Switches "Notify on changes" of a saved search or a tag the caller sees (their own, or one
 * shared with everyone) on or off; one they do not see is NOT_FOUND. Idempotent.
 */
export async function setSubscription(
  em: Em,
  actor: Actor,
  target: { savedSearch?: string | undefined; tag?: string | undefined },
  notify: boolean,
): Promise<SubscriptionView[]> {
  if ((target.savedSearch === undefined) === (target.tag === undefined))
    throw DomainError.invalid('savedSearch', 'name either a saved search or a tag');
  if (target.savedSearch !== undefined) {
    const search = await findSavedSearch(em, actor, target.savedSearch);
    await (notify ? subscribeSearch : unsubscribeSearch).run(em, { userId: actor.userId, id: search.id });
  } else {
    const tag = await findTag(em, actor, target.tag as string);
    await (notify ? subscribeTag : unsubscribeTag).run(em, { userId: actor.userId, id: tag.id });
  }
  return listSubscriptions(em, actor);
}

const groupOfProject = prepareRead((param: Param<{ id: number }>) =>
  tables
    .selectFrom('projects as p')
    .leftJoin('user_groups as g', 'g.id', 'p.notification_group_id')
    .select('g.name')
    .where('p.id', '=', param('id')),
);
const setGroup = prepareWrite((param: Param<{ id: number; group: number | null }>) =>
  tables
    .updateTable('projects')
    .set({ notification_group_id: param('group') })
    .where('id', '=', param('id')),
);

/** The group told of every change of the project's issues (READ_PROJECT); null when none. */
export async function getProjectNotificationGroup(
  em: Em,
  actor: Actor,
  shortName: string,
): Promise<string | null> {
  const project = await getReadableProject(em, actor, shortName);
  return (await groupOfProject.first(em, { id: project.id }))?.name ?? null;
}

/** Sets (or, with an empty name, clears) the project's notification group: UPDATE_PROJECT there. */
export async function setProjectNotificationGroup(
  em: Em,
  actor: Actor,
  shortName: string,
  group: string,
): Promise<string | null> {
  const project = await getReadableProject(em, actor, shortName);
  requirePermission(actor, 'UPDATE_PROJECT', project.id, `update project [ ${project.shortName} ]`);
  const groupId = await findVisibilityGroup(em, actor, group, [project.id]);
  await setGroup.run(em, { id: project.id, group: groupId });
  return getProjectNotificationGroup(em, actor, shortName);
}
