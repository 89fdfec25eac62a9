import type { Actor } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import { SavedSearch } from '../model/saved-search.entity.js';
import { Tag } from '../model/tag.entity.js';
import { User } from '../model/user.entity.js';
import type { Em } from '../orm/em.js';
import { listAccessibleProjects } from '../projects/projects.js';
import { oneLine } from '../text/user-text.js';
import { type Page, pageOverSegments, WHOLE_LIST } from './resource-limits.js';
import { listSavedSearches, type SavedSearchView, toSavedSearchView } from './saved-searches.js';
import { listTags, type TagView, toTagView } from './tags.js';
import { requireOwnerAccount, searchValue } from './watch-folder-rules.js';

export type IssueFolderType = 'everything' | 'project' | 'savedSearch' | 'tag';

/**
 * A search context (`/rest/issuesFolder`). Ids cannot collide across types: `everything`,
 * `p-<short name>`, `s-<saved search id>`, `t-<tag id>`. `query` is the equivalent search text.
 */
export type IssueFolder = {
  id: string;
  type: IssueFolderType;
  name: string;
  shortName?: string;
  query: string;
};

export const EVERYTHING_FOLDER: IssueFolder = {
  id: 'everything',
  type: 'everything',
  name: 'Everything',
  query: '',
};

const projectFolder = (p: { name: string; shortName: string }): IssueFolder => ({
  id: `p-${p.shortName}`,
  type: 'project',
  name: p.name,
  shortName: p.shortName,
  query: `project: ${searchValue(p.shortName)}`,
});

/**
 * The folders the actor can see, in order: Everything, readable projects, own and shared
 * saved searches, own and shared tags; a page of them when given (`start` counts Everything).
 * Each part loads only its slice of the page.
 */
export async function listFolders(em: Em, actor: Actor, page: Page = WHOLE_LIST): Promise<IssueFolder[]> {
  let projects: IssueFolder[] | undefined;
  const loadProjects = async () => {
    projects ??= (await listAccessibleProjects(em, actor)).map(projectFolder);
    return projects;
  };
  const ownThenShared = <T>(list: (p: Page) => Promise<T[]>, count: () => Promise<number>) => ({
    count,
    load: (offset: number, limit: number) => list({ start: offset, max: limit }),
  });
  return pageOverSegments<IssueFolder>(
    [
      { count: async () => 1, load: async () => [EVERYTHING_FOLDER] },
      {
        count: async () => (await loadProjects()).length,
        load: async (offset, limit) => (await loadProjects()).slice(offset, offset + limit),
      },
      ownThenShared(
        async (p) => (await listSavedSearches(em, actor, p)).map(searchFolder),
        () => em.count(SavedSearch, visibleTo(actor)),
      ),
      ownThenShared(
        async (p) => (await listTags(em, actor, p)).map(tagFolder),
        () => em.count(Tag, visibleTo(actor)),
      ),
    ],
    page,
  );
}

/**
 * One visible folder by id (case-insensitive). As a convenience for the legacy `folder`
 * parameter, a value that is no folder id is also tried as a name: a project's short name
 * or name, then a saved search's or tag's name (own first). NOT_FOUND when nothing visible
 * matches. Looked up directly, so the cost does not grow with the number of shared folders.
 */
export async function getFolder(em: Em, actor: Actor, id: string): Promise<IssueFolder> {
  const key = oneLine(id).trim().toLowerCase();
  const found = (await folderById(em, actor, key)) ?? (await folderByName(em, actor, key));
  if (!found) throw DomainError.notFound('Issue folder', id);
  return found;
}

const visibleTo = (actor: Actor) => ({ $or: [{ owner: actor.userId }, { shared: true }] });
const searchFolder = (s: SavedSearchView): IssueFolder => ({
  id: s.folderId,
  type: 'savedSearch',
  name: s.name,
  query: s.query,
});
const tagFolder = (t: TagView): IssueFolder => ({
  id: t.folderId,
  type: 'tag',
  name: t.name,
  query: `tag: {${t.name}}`,
});

async function folderById(em: Em, actor: Actor, key: string): Promise<IssueFolder | null> {
  if (key === EVERYTHING_FOLDER.id) return EVERYTHING_FOLDER;
  const [, kind, rest = ''] = /^([pst])-(.+)$/.exec(key) ?? [];
  if (kind === 'p') {
    const projects = await listAccessibleProjects(em, actor);
    const project = projects.find((p) => p.shortNameKey.toLowerCase() === rest);
    return project ? projectFolder(project) : null;
  }
  if (!kind || !/^\d{1,15}$/.test(rest)) return null;
  const where = { id: Number(rest), ...visibleTo(actor) };
  if (kind === 's') {
    const search = await em.findOne(SavedSearch, where, { populate: ['owner'] });
    return search ? searchFolder(toSavedSearchView(search)) : null;
  }
  const tag = await em.findOne(Tag, where, { populate: ['owner'] });
  return tag ? tagFolder(toTagView(tag)) : null;
}

async function folderByName(em: Em, actor: Actor, key: string): Promise<IssueFolder | null> {
  const projects = await listAccessibleProjects(em, actor);
  const project =
    projects.find((p) => p.shortNameKey.toLowerCase() === key) ?? projects.find((p) => p.nameKey === key);
  if (project) return projectFolder(project);
  const ownFirst = <T extends { owner: { id: number } }>(rows: T[]) =>
    rows.find((r) => r.owner.id === actor.userId) ?? rows[0];
  const options = { populate: ['owner'] as const, orderBy: { id: 'asc' as const } };
  const search = ownFirst(await em.find(SavedSearch, { nameKey: key, ...visibleTo(actor) }, options));
  if (search) return searchFolder(toSavedSearchView(search));
  const tag = ownFirst(await em.find(Tag, { nameKey: key, ...visibleTo(actor) }, options));
  return tag ? tagFolder(toTagView(tag)) : null;
}

/** The actor's context folder: Everything when unset, or when the stored folder is gone or invisible. */
export async function getContextFolder(em: Em, actor: Actor): Promise<IssueFolder> {
  const user = await em.findOne(User, { id: actor.userId });
  if (!user?.contextFolder) return EVERYTHING_FOLDER;
  try {
    return await getFolder(em, actor, user.contextFolder);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'NOT_FOUND') return EVERYTHING_FOLDER;
    throw error;
  }
}

/** Stores the actor's context folder (its canonical id); empty means Everything, unknown is NOT_FOUND. */
export async function setContextFolder(
  em: Em,
  actor: Actor,
  folderId: string | null | undefined,
): Promise<IssueFolder> {
  requireOwnerAccount(actor, 'save a context folder');
  const folder = folderId?.trim() ? await getFolder(em, actor, folderId) : EVERYTHING_FOLDER;
  await em.nativeUpdate(
    User,
    { id: actor.userId },
    { contextFolder: folder === EVERYTHING_FOLDER ? null : folder.id },
  );
  return folder;
}
