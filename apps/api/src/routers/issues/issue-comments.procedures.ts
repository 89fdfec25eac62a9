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

/** `/issue/{issue}/comment[/{comment}]` (list, edit, delete: soft by default) and `/issue/{issue}/link`. */
export const issueCommentProcedures = {
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

  deleteComment: authedProcedure
    .meta(c.deleteCommentMeta)
    .input(c.ZDeleteCommentInput)
    .output(c.ZCommentEmptyOutput)
    .mutation(async ({ ctx, input }) => {
      await d.deleteComment(ctx.em, ctx.actor, input.issue, input.comment, input.permanently ?? false);
      return {};
    }),
};
