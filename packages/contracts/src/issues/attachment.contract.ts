import { z } from 'zod';
import { MAX_ROW_ID } from '../common/limits.js';
import { element, list, type RouteMeta } from '../common/route-meta.js';
import { ZEmpty } from '../common/small-bodies.js';
import { ZIssueId } from './issue.contract.js';

/*
 * Attachments: the list and delete procedures. Uploads (`POST /issue/{issue}/attachment`,
 * `POST /import/{issue}/attachment`) and the download URL are plain HTTP routes of the API
 * (multipart in, bytes out); they are added to the OpenAPI document by hand.
 */

const TAGS = ['Attachments'];

/** One `fileUrl` of the legacy list: `url name authorLogin group created id`. */
export const ZFileUrl = z.object({
  url: z.string(),
  name: z.string(),
  authorLogin: z.string(),
  group: z.string().optional(),
  created: z.number().int(),
  id: z.string(),
});
export type FileUrlDto = z.infer<typeof ZFileUrl>;

export const listAttachmentsMeta = {
  openapi: {
    method: 'GET',
    path: '/issue/{issue}/attachment',
    summary: "An issue's attachments, each with its download URL",
    tags: TAGS,
    errorResponses: [401, 404],
  },
  xml: list('fileUrls', element('fileUrl')),
} satisfies RouteMeta;
export const ZListAttachmentsInput = z.object({ issue: ZIssueId });
export const ZListAttachmentsOutput = z.array(ZFileUrl);

export const deleteAttachmentMeta = {
  openapi: {
    method: 'DELETE',
    path: '/issue/{issue}/attachment/{attachment}',
    summary: 'Delete an attachment (DELETE_ATTACHMENT_ISSUE)',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZDeleteAttachmentInput = z.object({
  issue: ZIssueId,
  attachment: z.coerce
    .number()
    .int()
    .min(1, 'must be an attachment id')
    .max(MAX_ROW_ID, 'must be an attachment id'),
});
export const ZDeleteAttachmentOutput = ZEmpty;
