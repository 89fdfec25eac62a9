import type { Actor } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import { oneLine } from '../issues/rows.js';
import { Tag } from '../issues/tags/tag.entity.js';
import type { Em } from '../orm/em.js';
import { listAccessibleProjects } from '../projects/projects.js';
import { User } from '../users/user.entity.js';
import { type Page, pageOverSegments, WHOLE_LIST } from './resource-limits.js';
import { SavedSearch } from './saved-search.entity.js';
import { listSavedSearches } from './saved-searches.js';
import { listTags } from './tags.js';
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
        async (p) =>
          (await listSavedSearches(em, actor, p)).map((s) => ({
            id: s.folderId,
            type: 'savedSearch' as const,
            name: s.name,
            query: s.query,
          })),
        () => em.count(SavedSearch, { $or: [{ owner: actor.userId }, { shared: true }] }),
      ),
      ownThenShared(
        async (p) =>
          (await listTags(em, actor, p)).map((t) => ({
            id: t.folderId,
            type: 'tag' as const,
            name: t.name,
            query: `tag: {${t.name}}`,
          })),
        () => em.count(Tag, { $or: [{ owner: actor.userId }, { shared: true }] }),
      ),
    ],
    page,
  );
}

/**
 * One visible folder by id (case-insensitive). As a convenience for the legacy `folder`
 * parameter, a value that is no folder id is also tried as a name: a project's short name
 * or name, then a saved search's or tag's name. NOT_FOUND when nothing visible matches.
 */
export async function getFolder(em: Em, actor: Actor, id: string): Promise<IssueFolder> {
  const key = oneLine(id).trim().toLowerCase();
  const folders = await listFolders(em, actor);
  const found =
    folders.find((f) => f.id.toLowerCase() === key) ??
    folders.find((f) => f.type === 'project' && f.shortName?.toLowerCase() === key) ??
    folders.find((f) => f.type !== 'everything' && f.name.toLowerCase() === key);
  if (!found) throw DomainError.notFound('Issue folder', id);
  return found;
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
