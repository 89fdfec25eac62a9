import { z } from 'zod';
import { ZPageOffset, ZPageSize, ZQueryText } from '../common/paging.js';
import { QueryBool } from '../common/query-bool.js';
import { element, list, type RouteMeta } from '../common/route-meta.js';
import { name } from '../common/text-fields.js';

const TAGS = ['Issue folders'];

export const ZFolderType = z.enum(['everything', 'project', 'savedSearch', 'tag']);
export const ZIssueFolder = z.object({
  id: z.string(),
  type: ZFolderType,
  name: z.string(),
  shortName: z.string().optional(),
  /** The equivalent search text (`project: SP`, the saved query, `tag: {X}`, ''). */
  query: z.string(),
});
export type IssueFolderDto = z.infer<typeof ZIssueFolder>;
const folderXml = element('folder');

/**
 * Paging of folder lists: `start` (or the legacy `after`) entries skipped, at most `max`
 * (default and cap 500) returned. Without parameters a list of up to 500 answers as before.
 */
export const ZFolderPageInput = z.object({
  start: ZPageOffset.optional(),
  after: ZPageOffset.optional(),
  max: ZPageSize.optional(),
});
export type FolderPageInput = z.infer<typeof ZFolderPageInput>;

export const listFoldersMeta = {
  openapi: { method: 'GET', path: '/issuesFolder', summary: 'list of issue folders', tags: TAGS },
  xml: list('issuesFolders', folderXml),
} satisfies RouteMeta;
export const ZListFoldersOutput = z.array(ZIssueFolder);

// Registered before `/issuesFolder/{issueFolder}`: the literal segment must win.
export const currentFolderMeta = {
  openapi: { method: 'GET', path: '/issuesFolder/current', summary: 'the current issue folder', tags: TAGS },
  xml: folderXml,
} satisfies RouteMeta;

export const setContextFolderMeta = {
  openapi: {
    method: 'POST',
    path: '/issuesFolder/setContextFolder',
    summary: "Saves context folder into the user's profile",
    tags: TAGS,
    errorResponses: [400, 401, 404],
  },
  xml: folderXml,
} satisfies RouteMeta;
export const ZSetContextFolderInput = z.object({
  folderId: z.string().max(200, 'must be at most 200 characters').optional(),
});

export const getFolderMeta = {
  openapi: {
    method: 'GET',
    path: '/issuesFolder/{issueFolder}',
    summary: 'one issue folder',
    tags: TAGS,
    errorResponses: [401, 404],
  },
  xml: folderXml,
} satisfies RouteMeta;
export const ZGetFolderInput = z.object({ issueFolder: z.string().min(1).max(200) });

/* Saved searches and tags (legacy `/rest/user/search`, `/rest/user/tag`). */
export const ZSavedSearch = z.object({
  name: z.string(),
  query: z.string(),
  owner: z.string(),
  shared: z.boolean(),
});
/** `untagOnResolve`: the original could drop a tag from issues when they are resolved; Trackline never does. */
export const ZTag = z.object({
  name: z.string(),
  owner: z.string(),
  shared: z.boolean(),
  untagOnResolve: z.boolean(),
});

export const listSavedSearchesMeta = {
  openapi: {
    method: 'GET',
    path: '/user/search',
    summary: 'Saved searches visible to the caller',
    tags: TAGS,
  },
  xml: list('savedSearches', element('search', undefined, 'query')),
} satisfies RouteMeta;
export const getSavedSearchMeta = {
  openapi: {
    method: 'GET',
    path: '/user/search/{name}',
    summary: 'One saved search visible to the caller (own first, then shared)',
    tags: TAGS,
    errorResponses: [401, 404],
  },
  xml: element('search', undefined, 'query'),
} satisfies RouteMeta;
export const saveSearchMeta = {
  openapi: {
    method: 'PUT',
    path: '/user/search/{name}',
    summary: 'Create or update one of the caller’s saved searches',
    tags: TAGS,
    errorResponses: [400, 401, 403],
  },
  xml: element('search', undefined, 'query'),
} satisfies RouteMeta;
export const ZSaveSearchInput = z.object({
  name: name(100),
  query: ZQueryText,
  shared: QueryBool.optional(),
});
export const deleteSavedSearchMeta = {
  openapi: {
    method: 'DELETE',
    path: '/user/search/{name}',
    summary: 'Delete one of the caller’s saved searches',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZNamedInput = z.object({ name: name(100) });

export const listTagsMeta = {
  openapi: { method: 'GET', path: '/user/tag', summary: 'Tags visible to the caller', tags: TAGS },
  // The original's element name for a tag in this list is `search` (tags were saved searches).
  xml: list('tags', element('search')),
} satisfies RouteMeta;
export const getTagMeta = {
  openapi: {
    method: 'GET',
    path: '/user/tag/{name}',
    summary: 'One tag visible to the caller (own first, then shared)',
    tags: TAGS,
    errorResponses: [401, 404],
  },
  xml: element('tag'),
} satisfies RouteMeta;
export const createTagMeta = {
  openapi: {
    method: 'PUT',
    path: '/user/tag/{name}',
    summary: 'Create a tag owned by the caller',
    tags: TAGS,
    errorResponses: [400, 401, 409],
  },
  xml: element('tag'),
} satisfies RouteMeta;
export const ZCreateTagInput = z.object({ name: name(100), shared: QueryBool.optional() });
export const deleteTagMeta = {
  openapi: {
    method: 'DELETE',
    path: '/user/tag/{name}',
    summary: 'Delete one of the caller’s tags',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
