import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import { authedProcedure } from '../../trpc/procedures.js';

const toCommentDto = (v: d.CommentView): c.CommentDto => ({
  id: String(v.id),
  author: v.author.login,
  authorFullName: v.author.fullName,
  issueId: v.issueId,
  parentId: null,
  deleted: v.deleted,
  text: v.text,
  shownForIssueAuthor: false,
  created: v.created,
  updated: v.updated,
  permittedGroup: v.permittedGroup,
  replies: [],
});

/**
 * What hangs off one issue: `/issue/{issue}/comment[/{comment}]` (list, edit, delete: soft by
 * default), `/issue/{issue}/link`, `/issue/{issue}/changes` (its history) and `/event/issueEvents/{issue}`.
 */
export const issueThreadProcedures = {
  comments: authedProcedure
    .meta(c.listCommentsMeta)
    .input(c.ZListCommentsInput)
    .output(c.ZListCommentsOutput)
    .query(async ({ ctx, input }) =>
      (await d.listComments(ctx.em, ctx.actor, input.issue)).map(toCommentDto),
    ),

  updateComment: authedProcedure
    .meta(c.updateCommentMeta)
    .input(c.ZUpdateCommentInput)
    .output(c.ZCommentEmptyOutput)
    .mutation(async ({ ctx, input }) => {
      await d.updateComment(ctx.em, ctx.actor, input.issue, input.comment, input.text);
      return {};
    }),

  links: authedProcedure
    .meta(c.listIssueLinksMeta)
    .input(c.ZListIssueLinksInput)
    .output(c.ZListIssueLinksOutput)
    .query(({ ctx, input }) => d.listIssueLinks(ctx.em, ctx.actor, input.issue)),

  exportLinks: authedProcedure
    .meta(c.exportLinksMeta)
    .input(c.ZExportLinksInput)
    .output(c.ZExportLinksOutput)
    .query(async ({ ctx, input }) =>
      (await d.exportIssueLinks(ctx.em, ctx.actor, input)).map(({ typeName, source, target }) => ({
        typeName,
        source,
        target,
      })),
    ),

  /**
   * The console's history (fields, comments, attachments, links and tags, by full name), also
   * served at the JetBrains library's `getEvents` address.
   */
  activity: authedProcedure
    .meta(c.issueEventsMeta)
    .input(c.ZIssueActivityInput)
    .output(c.ZIssueActivityOutput)
    .query(({ ctx, input }) => d.listIssueActivity(ctx.em, ctx.actor, input.issue)),

  changes: authedProcedure
    .meta(c.listIssueChangesMeta)
    .input(c.ZListIssueChangesInput)
    .output(c.ZListIssueChangesOutput)
    .query(async ({ ctx, input }) =>
      (await d.listIssueChanges(ctx.em, ctx.actor, input.issue)).map(
        (change): c.IssueChangeDto => ({
          field: [
            ...change.fields.map((f) => ({ name: f.name, oldValue: f.oldValues, newValue: f.newValues })),
            { name: 'updated', value: String(change.updated) },
            { name: 'updaterName', value: change.updater.login },
          ],
        }),
      ),
    ),

  deleteComment: authedProcedure
    .meta(c.deleteCommentMeta)
    .input(c.ZDeleteCommentInput)
    .output(c.ZCommentEmptyOutput)
    .mutation(async ({ ctx, input }) => {
      await d.deleteComment(ctx.em, ctx.actor, input.issue, input.comment, input.permanently ?? false);
      return {};
    }),
};
