import { sql } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import { commandTagName, ownedNameKey } from '../../folders/owned-names.js';
import { tables } from '../../model/database.js';
import { Tag } from '../../model/tag.entity.js';
import type { Em } from '../../orm/em.js';
import { toBool } from '../../orm/row-values.js';
import { type Param, prepareRead } from '../../orm/typed-query.js';

export type VisibleTag = { id: number; name: string; ownerId: number; shared: boolean };

/** The actor's own tag of that name key, else the oldest shared one (`visibleToSql`). */
const visibleTagQuery = prepareRead((param: Param<{ nameKey: string; userId: number }>) =>
  tables
    .selectFrom('tags')
    .select(['id', 'name', 'owner_id', 'shared'])
    .where('name_key', '=', param('nameKey'))
    .where((eb) => eb.or([eb('owner_id', '=', param('userId')), eb('shared', '=', sql.lit(true))]))
    .orderBy((eb) => eb.case().when('owner_id', '=', param('userId')).then(sql.lit(0)).else(sql.lit(1)).end())
    .orderBy('id')
    .limit(sql.lit(1)),
);
const ownTagQuery = prepareRead((param: Param<{ ownerId: number; nameKey: string }>) =>
  tables
    .selectFrom('tags')
    .select(['id', 'name', 'shared'])
    .where('owner_id', '=', param('ownerId'))
    .where('name_key', '=', param('nameKey')),
);

/**
 * A tag the actor can see by name (case-insensitive): the actor's own first, then a shared
 * one (the oldest, when several users share tags of that name).
 */
export async function findVisibleTag(em: Em, actor: Actor, name: string): Promise<VisibleTag | null> {
  const row = await visibleTagQuery.first(em, { nameKey: ownedNameKey(name), userId: actor.userId });
  return row
    ? { id: Number(row.id), name: row.name, ownerId: Number(row.owner_id), shared: toBool(row.shared) }
    : null;
}

/** Inserts a tag owned by the actor; a concurrent twin makes the unique index throw (callers retry). */
export function insertOwnTag(em: Em, actor: Actor, name: string, shared = false): Promise<VisibleTag> {
  return insertTagOf(em, actor.userId, name, shared);
}

async function insertTagOf(em: Em, ownerId: number, name: string, shared: boolean): Promise<VisibleTag> {
  const clean = commandTagName(name);
  const id = (await em.insert(Tag, {
    owner: ownerId,
    name: clean,
    nameKey: clean.toLowerCase(),
    shared,
    createdAt: new Date(),
  })) as number;
  return { id, name: clean, ownerId, shared };
}

/**
 * The star, as the original keeps it: each user's own tag named `Star`, on the issues they starred
 * (beside `issue_stars`, which counts and lists watchers). Name of that tag, matched in any case.
 */
export const STAR_TAG = 'Star';

/** A user's own `Star` tag; created (private) when `create` and missing, else null. */
export async function starTagOf(em: Em, userId: number, create: boolean): Promise<VisibleTag | null> {
  const row = await ownTagQuery.first(em, { ownerId: userId, nameKey: STAR_TAG.toLowerCase() });
  if (row) return { id: Number(row.id), name: row.name, ownerId: userId, shared: toBool(row.shared) };
  return create ? insertTagOf(em, userId, STAR_TAG, false) : null;
}

/** Whether a tag is its owner's `Star` tag. */
export const isStarTag = (tag: VisibleTag): boolean => tag.name.toLowerCase() === STAR_TAG.toLowerCase();
