import type { EntityName, FilterQuery } from '@mikro-orm/core';
import { type Actor, can } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import type { Em } from '../orm/em.js';
import { nameKey, oneLine } from '../text/user-text.js';
import { type Page, pageOverSegments, sliceOptions, WHOLE_LIST } from './resource-limits.js';

/**
 * Tags and saved searches are "owned names": each belongs to a user, names are unique per owner
 * regardless of case, and a shared one is visible to everyone. This module is the one place for
 * how such a name is normalised and who sees which; tags.ts, saved-searches.ts and the command
 * path's tag lookup (issues/tags/tag-lookup.ts) all go through it.
 */
export type OwnedName = {
  id: number;
  owner: { id: number; login: string };
  shared: boolean;
  nameKey: string;
};

/** By id (number), or by name (string: the actor's own first, then a shared one). */
export type OwnedNameRef = number | string;

/** The lookup key of a name: one line, trimmed, lower-cased (what `nameKey` columns store). */
export const ownedNameKey = (name: string): string => nameKey(name);

/**
 * A name given to the REST/tRPC folder routes: control characters become spaces, then trimmed,
 * 1-100 characters. Names typed in a command go through `commandTagName`, which refuses control
 * characters instead; both produce the same `ownedNameKey` for any name they accept. Only the
 * handling of control characters differs; making either side stricter or looser would change
 * existing answers (a REST name with a tab is accepted today), so both stay, side by side, here.
 */
export function folderName(name: string): string {
  const clean = oneLine(name).trim();
  if (!clean) throw DomainError.invalid('name', 'must not be empty');
  if (clean.length > 100) throw DomainError.invalid('name', 'must be at most 100 characters');
  return clean;
}

/** A tag name typed in a command: trimmed, 1-100 characters, control characters refused. */
export function commandTagName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw DomainError.invalid('name', 'must not be empty');
  if (trimmed.length > 100) throw DomainError.invalid('name', 'must be at most 100 characters');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(trimmed))
    throw DomainError.invalid('name', 'must not contain control characters');
  return trimmed;
}

/** Visible to the actor: own or shared (ORM condition). */
export const visibleTo = (actor: Actor) => ({ $or: [{ owner: actor.userId }, { shared: true }] });

/** The same condition for raw SQL over a table with `owner_id` and `shared`; binds the actor's id. */
export const visibleToSql = (actor: Actor) => ({
  sql: '(owner_id = ? or shared = true)',
  params: [actor.userId],
});

/** Listing order: the actor's own first, then those others share. */
const listingGroups = (actor: Actor) => [
  { owner: actor.userId },
  { shared: true, owner: { $ne: actor.userId } },
];

/** Own and shared rows: own first, each group by name; a page of them when given. */
export async function listVisible<T extends OwnedName>(
  em: Em,
  entity: EntityName<T>,
  actor: Actor,
  page?: Page,
): Promise<T[]> {
  const segments = listingGroups(actor).map((group) => {
    const where = group as FilterQuery<T>;
    return {
      count: () => em.count(entity, where),
      load: (offset: number, limit: number) =>
        em.find(entity, where, {
          populate: ['owner'] as never,
          orderBy: { nameKey: 'asc', id: 'asc' } as never,
          ...sliceOptions(offset, limit),
        }) as Promise<T[]>,
    };
  });
  return pageOverSegments(segments, page ?? WHOLE_LIST);
}

/**
 * A row the actor can see (own or shared; any by id with a global UPDATE_WATCH_FOLDER), or
 * null: an invisible one is indistinguishable from a missing one.
 */
export async function findVisible<T extends OwnedName>(
  em: Em,
  entity: EntityName<T>,
  actor: Actor,
  ref: OwnedNameRef,
): Promise<T | null> {
  if (typeof ref === 'number') {
    const found = (await em.findOne(entity, { id: ref } as FilterQuery<T>, {
      populate: ['owner'] as never,
    })) as T | null;
    if (found && found.owner.id !== actor.userId && !found.shared && !can(actor, 'UPDATE_WATCH_FOLDER'))
      return null;
    return found;
  }
  const candidates = (await em.find(
    entity,
    { nameKey: ownedNameKey(ref), ...visibleTo(actor) } as unknown as FilterQuery<T>,
    { populate: ['owner'] as never, orderBy: { id: 'asc' } as never },
  )) as T[];
  return candidates.find((row) => row.owner.id === actor.userId) ?? candidates[0] ?? null;
}

/** The owner's row of that name (case-insensitive), if any: what a duplicate check or an upsert finds. */
export async function findOwned<T extends OwnedName>(
  em: Em,
  entity: EntityName<T>,
  ownerId: number,
  name: string,
): Promise<T | null> {
  return (await em.findOne(entity, {
    owner: ownerId,
    nameKey: ownedNameKey(name),
  } as FilterQuery<T>)) as T | null;
}
