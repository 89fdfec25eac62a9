import { type Actor, can } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import { oneLine } from '../issues/rows.js';
import { tokenizeQuery } from '../issues/search/parse-query.js';
import type { Em } from '../orm/em.js';
import { onUniqueViolation, rejectWith } from '../orm/unique.js';
import {
  DEFAULT_RESOURCE_LIMITS,
  limitReached,
  type Page,
  pageOverSegments,
  type ResourceLimits,
  sliceOptions,
  WHOLE_LIST,
} from './resource-limits.js';
import { type ISavedSearch, SavedSearch } from './saved-search.entity.js';
import { folderName, requireOwnerAccount, requireOwnerOr, requireShare } from './watch-folder-rules.js';

export type SavedSearchView = {
  id: number;
  folderId: string;
  name: string;
  query: string;
  shared: boolean;
  owner: string;
};

/** A saved search: by id (number), or by name (string; the actor's own first, then a shared one). */
export type SavedSearchRef = number | string;

const MAX_QUERY = 2000;

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
  if (clean.length > MAX_QUERY) throw DomainError.invalid('query', `must be at most ${MAX_QUERY} characters`);
  tokenizeQuery(clean); // syntax only: names are resolved when the search runs, for whoever runs it
  return clean;
}

const notFound = (ref: SavedSearchRef) => DomainError.notFound('Saved search', String(ref));
const duplicate = (name: string) => DomainError.alreadyExists('Saved search', name);

/** Own and shared saved searches: own first, each group by name; a page of them when given. */
export async function listSavedSearches(em: Em, actor: Actor, page?: Page): Promise<SavedSearchView[]> {
  const groups = [{ owner: actor.userId }, { shared: true, owner: { $ne: actor.userId } }];
  const segments = groups.map((where) => ({
    count: () => em.count(SavedSearch, where),
    load: (offset: number, limit: number) =>
      em.find(SavedSearch, where, {
        populate: ['owner'],
        orderBy: { nameKey: 'asc', id: 'asc' },
        ...sliceOptions(offset, limit),
      }),
  }));
  const rows = await pageOverSegments(segments, page ?? WHOLE_LIST);
  return rows.map(toSavedSearchView);
}

/**
 * A saved search the actor can see (own or shared; any by id with a global
 * UPDATE_WATCH_FOLDER). An invisible one is NOT_FOUND, like a missing one.
 */
export async function findSavedSearch(em: Em, actor: Actor, ref: SavedSearchRef): Promise<ISavedSearch> {
  let found: ISavedSearch | null;
  if (typeof ref === 'number') {
    found = await em.findOne(SavedSearch, { id: ref }, { populate: ['owner'] });
    if (found && found.owner.id !== actor.userId && !found.shared && !can(actor, 'UPDATE_WATCH_FOLDER'))
      found = null;
  } else {
    const candidates = await em.find(
      SavedSearch,
      { nameKey: oneLine(ref).trim().toLowerCase(), $or: [{ owner: actor.userId }, { shared: true }] },
      { populate: ['owner'], orderBy: { id: 'asc' } },
    );
    found = candidates.find((s) => s.owner.id === actor.userId) ?? candidates[0] ?? null;
  }
  if (!found) throw notFound(ref);
  return found;
}

/** The actor's own saved search of that name (case-insensitive), if any: what a PUT updates. */
export async function findOwnSavedSearch(
  em: Em,
  actor: Actor,
  name: string,
): Promise<SavedSearchView | null> {
  const own = await em.findOne(
    SavedSearch,
    { owner: actor.userId, nameKey: oneLine(name).trim().toLowerCase() },
    { populate: ['owner'] },
  );
  return own ? toSavedSearchView(own) : null;
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
  if (await em.findOne(SavedSearch, { owner: actor.userId, nameKey: name.toLowerCase() }))
    throw duplicate(name);
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
      if (await em.findOne(SavedSearch, { owner: search.owner.id, nameKey: name.toLowerCase() }))
        throw duplicate(name);
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
