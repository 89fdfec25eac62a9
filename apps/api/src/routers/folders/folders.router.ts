import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import { z } from 'zod';
import { authedProcedure, router } from '../../trpc/procedures.js';
import { created } from '../respond.js';

const toFolder = (f: d.IssueFolder): c.IssueFolderDto => ({
  id: f.id,
  type: f.type,
  name: f.name,
  ...(f.shortName ? { shortName: f.shortName } : {}),
  query: f.query,
});
const toSearch = (s: d.SavedSearchView) => ({
  name: s.name,
  query: s.query,
  owner: s.owner,
  shared: s.shared,
});
const toTag = (t: d.TagView) => ({ name: t.name, owner: t.owner, shared: t.shared, untagOnResolve: false });

/** `start` (legacy `after`) and `max`, defaulting to the first 500 entries. */
const pageOf = (input: c.FolderPageInput): d.Page => ({
  start: input.start ?? input.after ?? 0,
  max: input.max ?? d.FOLDER_PAGE_MAX,
});

/** The literal `current` route is registered before `{issueFolder}`: the first match wins. */
export const foldersRouter = router({
  list: authedProcedure
    .meta(c.listFoldersMeta)
    .input(c.ZFolderPageInput)
    .output(c.ZListFoldersOutput)
    .query(async ({ ctx, input }) => (await d.listFolders(ctx.em, ctx.actor, pageOf(input))).map(toFolder)),

  current: authedProcedure
    .meta(c.currentFolderMeta)
    .input(z.object({}))
    .output(c.ZIssueFolder)
    .query(async ({ ctx }) => toFolder(await d.getContextFolder(ctx.em, ctx.actor))),

  setContext: authedProcedure
    .meta(c.setContextFolderMeta)
    .input(c.ZSetContextFolderInput)
    .output(c.ZIssueFolder)
    .mutation(async ({ ctx, input }) =>
      toFolder(await d.setContextFolder(ctx.em, ctx.actor, input.folderId)),
    ),

  get: authedProcedure
    .meta(c.getFolderMeta)
    .input(c.ZGetFolderInput)
    .output(c.ZIssueFolder)
    .query(async ({ ctx, input }) => toFolder(await d.getFolder(ctx.em, ctx.actor, input.issueFolder))),

  savedSearches: authedProcedure
    .meta(c.listSavedSearchesMeta)
    .input(c.ZFolderPageInput)
    .output(z.array(c.ZSavedSearch))
    .query(async ({ ctx, input }) =>
      (await d.listSavedSearches(ctx.em, ctx.actor, pageOf(input))).map(toSearch),
    ),

  savedSearch: authedProcedure
    .meta(c.getSavedSearchMeta)
    .input(c.ZNamedInput)
    .output(c.ZSavedSearch)
    .query(async ({ ctx, input }) => toSearch(await d.getSavedSearch(ctx.em, ctx.actor, input.name))),

  saveSearch: authedProcedure
    .meta(c.saveSearchMeta)
    .input(c.ZSaveSearchInput)
    .output(c.ZSavedSearch)
    .mutation(async ({ ctx, input }) => {
      const { search, created: isNew } = await d.saveSearch(ctx.em, ctx.actor, input, ctx.resourceLimits);
      return isNew ? created(ctx, `/user/search/${search.name}`, toSearch(search)) : toSearch(search);
    }),

  deleteSearch: authedProcedure
    .meta(c.deleteSavedSearchMeta)
    .input(c.ZNamedInput)
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await d.deleteSavedSearch(ctx.em, ctx.actor, input.name);
      return {};
    }),

  tags: authedProcedure
    .meta(c.listTagsMeta)
    .input(c.ZFolderPageInput)
    .output(z.array(c.ZTag))
    .query(async ({ ctx, input }) => (await d.listTags(ctx.em, ctx.actor, pageOf(input))).map(toTag)),

  tag: authedProcedure
    .meta(c.getTagMeta)
    .input(c.ZNamedInput)
    .output(c.ZTag)
    .query(async ({ ctx, input }) => toTag(await d.getTag(ctx.em, ctx.actor, input.name))),

  createTag: authedProcedure
    .meta(c.createTagMeta)
    .input(c.ZCreateTagInput)
    .output(c.ZTag)
    .mutation(async ({ ctx, input }) => {
      const tag = await d.createTag(ctx.em, ctx.actor, input, ctx.resourceLimits);
      return created(ctx, `/user/tag/${tag.name}`, toTag(tag));
    }),

  deleteTag: authedProcedure
    .meta(c.deleteTagMeta)
    .input(c.ZNamedInput)
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await d.deleteTag(ctx.em, ctx.actor, input.name);
      return {};
    }),
});
