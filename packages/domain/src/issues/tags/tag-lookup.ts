import type { Actor } from '../../auth/actor.js';
import { commandTagName, ownedNameKey, visibleToSql } from '../../folders/owned-names.js';
import { Tag } from '../../model/tag.entity.js';
import type { Em } from '../../orm/em.js';
import { toBool } from '../../orm/row-values.js';
import { readRows } from '../../orm/statements.js';

export type VisibleTag = { id: number; name: string; ownerId: number; shared: boolean };

/**
 * A tag the actor can see by name (case-insensitive): the actor's own first, then a shared
 * one (the oldest, when several users share tags of that name).
 */
export async function findVisibleTag(em: Em, actor: Actor, name: string): Promise<VisibleTag | null> {
  const visible = visibleToSql(actor);
  const rows = await readRows<{ id: number; name: string; owner_id: number; shared: unknown }>(
    em,
    `select id, name, owner_id, shared from tags where name_key = ? and ${visible.sql} ` +
      'order by case when owner_id = ? then 0 else 1 end, id limit 1',
    [ownedNameKey(name), ...visible.params, actor.userId],
  );
  const row = rows[0];
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
  const rows = await readRows<{ id: number; name: string; shared: unknown }>(
    em,
    'select id, name, shared from tags where owner_id = ? and name_key = ?',
    [userId, STAR_TAG.toLowerCase()],
  );
  const row = rows[0];
  if (row) return { id: Number(row.id), name: row.name, ownerId: userId, shared: toBool(row.shared) };
  return create ? insertTagOf(em, userId, STAR_TAG, false) : null;
}

/** Whether a tag is its owner's `Star` tag. */
export const isStarTag = (tag: VisibleTag): boolean => tag.name.toLowerCase() === STAR_TAG.toLowerCase();
