import { MAX_QUERY_LENGTH } from '@trackline/contracts';
import type { Actor } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import { type ISavedSearch, SavedSearch } from '../model/saved-search.entity.js';
import type { Em } from '../orm/em.js';
import { onUniqueViolation, rejectWith } from '../orm/unique.js';
import { checkQuerySyntax } from '../query/query-parser.js';
import { oneLine } from '../text/user-text.js';
import { findOwned, findVisible, folderName, listVisible, type OwnedNameRef } from './owned-names.js';
import { DEFAULT_RESOURCE_LIMITS, limitReached, type Page, type ResourceLimits } from './resource-limits.js';
import { requireOwnerAccount, requireOwnerOr, requireShare } from './watch-folder-rules.js';

export type SavedSearchView = {
  id: number;
  folderId: string;
  name: string;
  query: string;
  shared: boolean;
  owner: string;
};

/** A saved search: by id (number), or by name (string; the actor's own first, then a shared one). */
export type SavedSearchRef = OwnedNameRef;

export const savedSearchFolderId = (id: number) => `s-${id}`;

export const toSavedSearchView = (s: ISavedSearch): SavedSearchView => ({
  id: s.id,
  folderId: savedSearchFolderId(s.id),
  name: s.name,
  query: s.query,
  shared: s.shared,
  owner: s.owner.login,
});

function validQuery(query: string): string {
  const clean = oneLine(query).trim();
  if (clean.length > MAX_QUERY_LENGTH)
    throw DomainError.invalid('query', `must be at most ${MAX_QUERY_LENGTH} characters`);
  checkQuerySyntax(clean); // syntax only: names are resolved when the search runs, for whoever runs it
  return clean;
}

const notFound = (ref: SavedSearchRef) => DomainError.notFound('Saved search', String(ref));
const duplicate = (name: string) => DomainError.alreadyExists('Saved search', name);

/** Own and shared saved searches: own first, each group by name; a page of them when given. */
export async function listSavedSearches(em: Em, actor: Actor, page?: Page): Promise<SavedSearchView[]> {
  return (await listVisible(em, SavedSearch, actor, page)).map(toSavedSearchView);
}

/**
 * A saved search the actor can see (own or shared; any by id with a global
 * UPDATE_WATCH_FOLDER). An invisible one is NOT_FOUND, like a missing one.
 */
export async function findSavedSearch(em: Em, actor: Actor, ref: SavedSearchRef): Promise<ISavedSearch> {
  const found = await findVisible(em, SavedSearch, actor, ref);
  if (!found) throw notFound(ref);
  return found;
}

/** The actor's own saved search of that name (case-insensitive), if any: what a PUT updates. */
export async function findOwnSavedSearch(
  em: Em,
  actor: Actor,
  name: string,
): Promise<SavedSearchView | null> {
  const own = await findOwned(em, SavedSearch, actor.userId, name);
  if (!own) return null;
  await em.populate(own, ['owner']);
  return toSavedSearchView(own);
}

export async function getSavedSearch(em: Em, actor: Actor, ref: SavedSearchRef): Promise<SavedSearchView> {
  return toSavedSearchView(await findSavedSearch(em, actor, ref));
}

export type NewSavedSearch = { name: string; query: string; shared?: boolean | undefined };

export async function createSavedSearch(
  em: Em,
  actor: Actor,
  input: NewSavedSearch,
  limits: ResourceLimits = DEFAULT_RESOURCE_LIMITS,
): Promise<SavedSearchView> {
  requireOwnerAccount(actor, 'create saved searches');
  const name = folderName(input.name);
  const query = validQuery(input.query);
  if (input.shared) requireShare(actor);
  if (await findOwned(em, SavedSearch, actor.userId, name)) throw duplicate(name);
  if ((await em.count(SavedSearch, { owner: actor.userId })) >= limits.maxSavedSearchesPerUser)
    throw limitReached('saved searches', limits.maxSavedSearchesPerUser);
  return onUniqueViolation(
    async () => {
      const search = em.create(SavedSearch, {
        owner: actor.userId,
        name,
        nameKey: name.toLowerCase(),
        query,
        shared: input.shared ?? false,
      });
      await em.flush();
      await em.populate(search, ['owner']);
      return toSavedSearchView(search);
    },
    rejectWith(() => duplicate(name)),
  );
}

/**
 * PUT semantics of `/user/search/{name}`: the actor's own search of that name (case-insensitive)
 * gets the new query and sharing; otherwise a new one is created (under the resource limits).
 * A shared search of another user with the same name is never touched.
 */
export async function saveSearch(
  em: Em,
  actor: Actor,
  input: NewSavedSearch,
  limits: ResourceLimits = DEFAULT_RESOURCE_LIMITS,
): Promise<{ search: SavedSearchView; created: boolean }> {
  const own = await findOwnSavedSearch(em, actor, input.name);
  if (own) {
    const search = await updateSavedSearch(em, actor, own.id, { query: input.query, shared: input.shared });
    return { search, created: false };
  }
  return { search: await createSavedSearch(em, actor, input, limits), created: true };
}

export type SavedSearchChanges = {
  name?: string | undefined;
  query?: string | undefined;
  shared?: boolean | undefined;
};

/** Changes name, query or sharing: the owner, or another user with a global UPDATE_WATCH_FOLDER. */
export async function updateSavedSearch(
  em: Em,
  actor: Actor,
  ref: SavedSearchRef,
  changes: SavedSearchChanges,
): Promise<SavedSearchView> {
  const search = await findSavedSearch(em, actor, ref);
  requireOwnerOr(actor, search.owner.id, 'UPDATE_WATCH_FOLDER', 'change saved searches');
  if (changes.shared && !search.shared) requireShare(actor);
  if (changes.name !== undefined) {
    const name = folderName(changes.name);
    if (name.toLowerCase() !== search.nameKey) {
      if (await findOwned(em, SavedSearch, search.owner.id, name)) throw duplicate(name);
    }
    Object.assign(search, { name, nameKey: name.toLowerCase() });
  }
  if (changes.query !== undefined) search.query = validQuery(changes.query);
  if (changes.shared !== undefined) search.shared = changes.shared;
  await onUniqueViolation(
    () => em.flush(),
    rejectWith(() => duplicate(changes.name ?? search.name)),
  );
  return toSavedSearchView(search);
}

/** Deletes: the owner, or another user with a global DELETE_WATCH_FOLDER. */
export async function deleteSavedSearch(em: Em, actor: Actor, ref: SavedSearchRef): Promise<void> {
  const search = await findSavedSearch(em, actor, ref);
  requireOwnerOr(actor, search.owner.id, 'DELETE_WATCH_FOLDER', 'delete saved searches');
  await em.nativeDelete(SavedSearch, { id: search.id });
}
