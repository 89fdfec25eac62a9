import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import { toFileUrl } from '../../attachments/attachments.route.js';
import { authedProcedure, router } from '../../trpc/procedures.js';

/** Listing and deleting attachments; uploads and downloads are plain routes (`attachments.route.ts`). */
export const attachmentsRouter = router({
  list: authedProcedure
    .meta(c.listAttachmentsMeta)
    .input(c.ZListAttachmentsInput)
    .output(c.ZListAttachmentsOutput)
    .query(async ({ ctx, input }) =>
      (await d.listAttachments(ctx.em, ctx.actor, input.issue)).map((a) => toFileUrl(ctx.baseUrl, a)),
    ),

  delete: authedProcedure
    .meta(c.deleteAttachmentMeta)
    .input(c.ZDeleteAttachmentInput)
    .output(c.ZDeleteAttachmentOutput)
    .mutation(async ({ ctx, input }) => {
      await d.deleteAttachment(ctx.em, ctx.actor, input.issue, input.attachment);
      return {};
    }),
});
