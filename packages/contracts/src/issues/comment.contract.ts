import { z } from 'zod';
import { MAX_COMMENT_LENGTH } from '../common/limits.js';
import { QueryBool } from '../common/query-bool.js';
import { element, list, type RouteMeta } from '../common/route-meta.js';
import { ZEmpty } from '../common/small-bodies.js';
import { ZIssueId } from './issue.contract.js';

/*
 * Comments as the legacy clients read and change them (legacy-clients.md, "comments"):
 * `comments` > `comment id author authorFullName issueId deleted text shownForIssueAuthor created
 * updated` with `replies`; JSON also has `parentId`, `permittedGroup` and `updated` (null until edited).
 */

const TAGS = ['Issues'];

export const ZComment = z.object({
  id: z.string(),
  author: z.string(),
  authorFullName: z.string(),
  issueId: z.string(),
  /** Replies are not kept: always null. */
  parentId: z.string().nullable(),
  deleted: z.boolean(),
  text: z.string(),
  shownForIssueAuthor: z.boolean(),
  created: z.number(),
  updated: z.number().nullable(),
  /** The group the comment is visible to (with its author), or null for everyone who reads comments. */
  permittedGroup: z.string().nullable(),
  replies: z.array(z.object({ id: z.string() })),
});
export type CommentDto = z.infer<typeof ZComment>;

const commentXml = element('comment', { replies: list('replies', element('comment')) });

export const listCommentsMeta = {
  openapi: {
    method: 'GET',
    path: '/issue/{issue}/comment',
    summary: 'Get the comments of an issue (those deleted are listed as deleted to whom may see them)',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: list('comments', commentXml),
} satisfies RouteMeta;
export const ZListCommentsInput = z.object({
  issue: ZIssueId,
  /** Accepted for the original's clients; text is returned as stored. */
  wikifyContents: QueryBool.optional(),
});
export const ZListCommentsOutput = z.array(ZComment);

const ZCommentId = z.string().trim().min(1, 'must not be empty').max(40, 'must be at most 40 characters');

export const updateCommentMeta = {
  openapi: {
    method: 'PUT',
    path: '/issue/{issue}/comment/{comment}',
    summary:
      'Change a comment’s text (JSON `{"text"}`, form or query): own with UPDATE_COMMENT, others’ with UPDATE_NOT_OWN_COMMENT',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZUpdateCommentInput = z.object({
  issue: ZIssueId,
  comment: ZCommentId,
  text: z.string().max(MAX_COMMENT_LENGTH, `must be at most ${MAX_COMMENT_LENGTH} characters`),
});

export const deleteCommentMeta = {
  openapi: {
    method: 'DELETE',
    path: '/issue/{issue}/comment/{comment}',
    summary:
      'Delete a comment: marked deleted, or removed with `permanently=true` (own with DELETE_COMMENT, others’ with DELETE_NOT_OWN_COMMENT)',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZDeleteCommentInput = z.object({
  issue: ZIssueId,
  comment: ZCommentId,
  permanently: QueryBool.optional(),
});
export const ZCommentEmptyOutput = ZEmpty;
