import { z } from 'zod';
import {
  MAX_COMMAND_LENGTH,
  MAX_COMMENT_LENGTH,
  MAX_SUMMARY_LENGTH,
  MAX_TEXT_LENGTH,
} from '../common/limits.js';
import { ZPageOffset, ZQueryText } from '../common/paging.js';
import { QueryBool } from '../common/query-bool.js';
import type { RouteMeta } from '../common/route-meta.js';
import { ZEmpty } from '../common/small-bodies.js';
import { name, optionalText } from '../common/text-fields.js';
import { ZProjectShortName } from '../projects/project.contract.js';

const TAGS = ['Issues'];

/**
 * The largest issue number: numbers are stored as 32-bit integers. A project may start at
 * 1,000,000,000 (`startingNumber`), so ids have up to 10 digits; beyond this number no issue exists.
 */
export const MAX_ISSUE_NUMBER = 2_147_483_647;

/** A readable issue id, `PRJ-12` (case-insensitive); the number has at most 10 digits. */
export const ISSUE_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_]*-\d{1,10}$/;

/** A readable issue id, `PRJ-12` (case-insensitive). */
export const ZIssueId = z.string().trim().regex(ISSUE_ID_PATTERN, 'must be an issue id like PRJ-12');

/** A user value of a field: the login as `value`, with the full name. */
export const ZIssueUserValue = z.object({ value: z.string(), fullName: z.string() });
/** A value of the `links` field: the other issue's id, the link type and the phrase seen from this issue. */
export const ZIssueLinkValue = z.object({ value: z.string(), type: z.string(), role: z.string() });
/** A value of the `attachments` field: the file name, and where to download it. */
export const ZIssueAttachmentValue = z.object({ value: z.string(), url: z.string() });
/** A value's colours (`bg`, `fg`: CSS colours), as the original's colour index gave them. */
export const ZValueColor = z.object({ bg: z.string(), fg: z.string() });
export type ValueColor = z.infer<typeof ZValueColor>;

/**
 * One field of the legacy issue representation, `{name, value}`. Built-in attributes
 * (`summary`, `reporterName`…) carry a string; custom fields always an array (of names, or of
 * `{value, fullName}` for users) with, for values from a bundle, `valueId` (one per value) and
 * the first value's `color`; `links` and `attachments` carry arrays of objects. In XML the
 * kind of field is its `xsi:type` (SingleField, CustomFieldValue, MultiUserField, LinkField,
 * AttachmentField).
 */
export const ZIssueField = z.object({
  name: z.string(),
  value: z.union([
    z.string(),
    z.array(z.union([z.string(), ZIssueUserValue, ZIssueLinkValue, ZIssueAttachmentValue])),
  ]),
  valueId: z.array(z.string()).optional(),
  color: ZValueColor.optional(),
});
export const ZIssueComment = z.object({
  id: z.string(),
  author: z.string(),
  authorFullName: z.string(),
  issueId: z.string(),
  deleted: z.boolean(),
  text: z.string(),
  shownForIssueAuthor: z.boolean(),
  created: z.number(),
  updated: z.number().nullable(),
});
export const ZIssueLinkView = z.object({
  typeName: z.string(),
  /** The phrase as seen from this issue: outward name on the source, inward on the target. */
  role: z.string(),
  source: z.string(),
  target: z.string(),
});
/** A tag on an issue: its name, and the CSS class of its colour (`c0`: no colour). */
export const ZIssueTag = z.object({ value: z.string(), cssClass: z.string() });
export const ZIssue = z.object({
  id: z.string(),
  entityId: z.string(),
  field: z.array(ZIssueField),
  comment: z.array(ZIssueComment),
  tag: z.array(ZIssueTag),
  /** Links in the shape of `GET /issue/{id}/link`; the legacy `links` field holds the same. */
  link: z.array(ZIssueLinkView),
});
export type IssueDto = z.infer<typeof ZIssue>;
const issueXml = { kind: 'custom', renderer: 'issue' } as const;

export const createIssueMeta = {
  openapi: {
    method: 'PUT',
    path: '/issue',
    summary: 'Create an issue',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZCreateIssueInput = z.object({
  project: ZProjectShortName,
  summary: name(MAX_SUMMARY_LENGTH),
  description: optionalText(MAX_TEXT_LENGTH),
  /** The group the issue is visible to (the original's `permittedGroup`); absent: every reader of the project. */
  permittedGroup: name(100).optional(),
});

export const getIssueMeta = {
  openapi: {
    method: 'GET',
    path: '/issue/{issue}',
    summary: 'Get an issue',
    tags: TAGS,
    errorResponses: [401, 404],
  },
  xml: issueXml,
} satisfies RouteMeta;
export const ZGetIssueInput = z.object({ issue: ZIssueId });

export const searchIssuesMeta = {
  openapi: {
    method: 'GET',
    path: '/issue',
    summary: 'Issues matching a search query, newest first',
    tags: TAGS,
    errorResponses: [400, 401],
  },
  // `<issueCompacts><issue…/>…</issueCompacts>`; JSON `{"issue": […]}`.
  xml: { kind: 'custom', renderer: 'issueCompacts' },
} satisfies RouteMeta;
export const ZSearchIssuesInput = z.object({
  filter: ZQueryText.optional(),
  after: ZPageOffset.optional(),
  /** Larger pages are capped (at `SEARCH_MAX_RESULTS` in the domain), not refused. */
  max: z
    .number()
    .int()
    .min(1, 'must be at least 1')
    .max(2_147_483_647, 'must be at most 2147483647')
    .optional(),
});
export const ZSearchIssuesOutput = z.object({ issue: z.array(ZIssue) });

export const executeCommandMeta = {
  openapi: {
    method: 'POST',
    path: '/issue/{issue}/execute',
    summary: 'Apply a command to an issue',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404, 422],
    contentTypes: ['application/json', 'application/x-www-form-urlencoded'],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZExecuteCommandInput = z.object({
  issue: ZIssueId,
  command: z.string().max(MAX_COMMAND_LENGTH, `must be at most ${MAX_COMMAND_LENGTH} characters`).optional(),
  comment: optionalText(MAX_COMMENT_LENGTH),
  /** Execute as another user; needs LOW_LEVEL_ADMIN. */
  runAs: z.string().trim().max(100, 'must be at most 100 characters').optional(),
  group: z.string().max(200).optional(),
  disableNotifications: QueryBool.optional(),
});

export const intellisenseMeta = {
  openapi: {
    method: 'GET',
    path: '/issue/{issue}/execute/intellisense',
    summary: 'Command IntelliSense for one issue (legacy XML form)',
    tags: TAGS,
    errorResponses: [400, 401, 404],
  },
  xml: { kind: 'custom', renderer: 'intellisense' },
} satisfies RouteMeta;
export const ZIntellisenseInput = z.object({
  issue: ZIssueId,
  command: z.string().max(MAX_COMMAND_LENGTH, `must be at most ${MAX_COMMAND_LENGTH} characters`).optional(),
  caret: z.number().int().min(0, 'must be at least 0').max(MAX_COMMAND_LENGTH).optional(),
  optionsLimit: z.number().int().min(1, 'must be at least 1').max(100, 'must be at most 100').optional(),
  runAs: z.string().trim().max(100).optional(),
});

export const ZExecuteCommandOutput = ZEmpty;
