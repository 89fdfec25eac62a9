import { z } from 'zod';
import { MAX_QUERY_LENGTH, MAX_ROW_ID, MAX_SUMMARY_LENGTH, MAX_TEXT_LENGTH } from '../common/limits.js';
import { ZPageOffset, ZQueryText } from '../common/paging.js';
import type { RouteMeta } from '../common/route-meta.js';
import { ZCount, ZEmpty } from '../common/small-bodies.js';
import { name, optionalText } from '../common/text-fields.js';
import { MAX_TIMESTAMP_MS } from '../common/timestamps.js';
import { ZProjectShortName } from '../projects/project.contract.js';
import { executeCommandMeta, ZCreateIssueInput, ZIssue, ZIssueId } from './issue.contract.js';

/*
 * The rest of the legacy issue surface the public clients call (count, exists, byproject,
 * the POST spellings of create and update, delete). Paths with a literal segment where
 * `{issue}` could stand (`count`, `byproject`, `execute`) must be served before
 * `/issue/{issue}`: the router lists these procedures first (first match wins).
 */

const TAGS = ['Issues'];

/** The legacy `filter` search text (same limits as `GET /issue`). */
const ZFilter = ZQueryText.optional();

export const countIssuesMeta = {
  openapi: {
    method: 'GET',
    path: '/issue/count',
    summary: 'How many readable issues match a search query',
    tags: TAGS,
    errorResponses: [400, 401],
  },
  xml: { kind: 'scalar', name: 'int', field: 'value' },
  // JSON (`{"value": n}`) unless XML is asked for: the original's count answered JSON by default
  // (its page: "XML or JSON or JSONP"; pyyoutrack, written in 2014 against it with no Accept
  // header, reads `{"value": n}`); `Accept: application/xml` still gives `<int>n</int>`.
  defaultFormat: 'json',
} satisfies RouteMeta;
export const ZCountIssuesInput = z.object({ filter: ZFilter });

export const countIssuesBulkMeta = {
  openapi: {
    method: 'POST',
    path: '/issue/counts',
    summary:
      'How many readable issues match each of several queries (the original\'s "Get Number of Issues for Several Queries")',
    description:
      'Body: `<queries><query>#Resolved</query><query>#Unresolved</query></queries>`, or JSON `{"query": ["#Resolved", "#Unresolved"]}`. ' +
      'Answer: `<counts><count>3</count><count>5</count></counts>` (JSON `{"count": [3, 5]}`), in the order of the queries. ' +
      '`rough` and `sync` are accepted; counts are always exact and synchronous.',
    tags: TAGS,
    errorResponses: [400, 401],
  },
  xml: { kind: 'custom', renderer: 'issueCounts' },
} satisfies RouteMeta;
export const ZCountIssuesBulkInput = z.object({
  query: z.union([ZQueryText, z.array(ZQueryText).max(100, 'at most 100 queries')]).optional(),
  rough: z.string().max(10).optional(),
  sync: z.string().max(10).optional(),
});
export const ZCountIssuesBulkOutput = z.object({ count: z.array(z.number().int()) });
export const ZCountIssuesOutput = ZCount;

export const searchIntellisenseMeta = {
  openapi: {
    method: 'GET',
    path: '/issue/intellisense',
    summary: 'Search query IntelliSense: highlighting and completions (legacy XML form)',
    tags: TAGS,
    errorResponses: [400, 401],
  },
  xml: { kind: 'custom', renderer: 'intellisense' },
} satisfies RouteMeta;
export const ZSearchIntellisenseInput = z.object({
  filter: ZFilter,
  caret: z
    .number()
    .int()
    .min(0, 'must be at least 0')
    .max(MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH}`)
    .optional(),
  optionsLimit: z.number().int().min(1, 'must be at least 1').max(100, 'must be at most 100').optional(),
  /** The project the query is typed in; accepted for the original's clients, completions cover every readable project. */
  project: z.string().max(200, 'must be at most 200 characters').optional(),
});

export const issueExistsMeta = {
  openapi: {
    method: 'GET',
    path: '/issue/{issue}/exists',
    summary: 'Whether an issue exists (200) or not (404)',
    tags: TAGS,
    errorResponses: [401, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZIssueExistsInput = z.object({ issue: ZIssueId });

export const listProjectIssuesMeta = {
  openapi: {
    method: 'GET',
    path: '/issue/byproject/{project}',
    summary: 'Issues of one project matching a search query, newest first',
    tags: TAGS,
    errorResponses: [400, 401, 404],
  },
  // `<issues xmlns:xsi>`: the namespace declared once, on the root, as the original did.
  xml: { kind: 'custom', renderer: 'issues' },
} satisfies RouteMeta;
export const ZListProjectIssuesInput = z.object({
  project: ZProjectShortName,
  filter: ZFilter,
  after: ZPageOffset.optional(),
  /** Larger pages are capped (one legacy client asks for 1000000), not refused. */
  max: z.number().int().min(1, 'must be at least 1').max(MAX_ROW_ID).optional(),
  /** Only issues updated after this time (ms since the epoch). */
  // Up to the last millisecond of year 9999: PostgreSQL's timestamps end there, JavaScript's much later.
  updatedAfter: z
    .number()
    .int()
    .min(0, 'must be at least 0')
    .max(MAX_TIMESTAMP_MS, 'must be a time before the year 10000')
    .optional(),
  wikifyDescription: z.string().max(10).optional(),
});
export const ZListProjectIssuesOutput = z.array(ZIssue);

export const createIssueByPostMeta = {
  openapi: {
    method: 'POST',
    path: '/issue',
    summary: 'Create an issue (the POST spelling of PUT /issue)',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404],
    contentTypes: ['application/json', 'application/x-www-form-urlencoded'],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZCreateIssueByPostInput = ZCreateIssueInput;

export const updateIssueMeta = {
  openapi: {
    method: 'POST',
    path: '/issue/{issue}',
    summary: 'Update the summary and description of an issue',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404],
    contentTypes: ['application/json', 'application/x-www-form-urlencoded'],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZUpdateIssueInput = z.object({
  issue: ZIssueId,
  summary: name(MAX_SUMMARY_LENGTH).optional(),
  description: optionalText(MAX_TEXT_LENGTH),
});

export const deleteIssueMeta = {
  openapi: {
    method: 'DELETE',
    path: '/issue/{issue}',
    summary: 'Delete an issue with its comments, links, tags, stars, votes and recorded commits',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZDeleteIssueInput = z.object({ issue: ZIssueId });

/** `POST /issue/execute/{issue}`: the spelling both JetBrains IDE integrations use. */
export const executeCommandAliasMeta = {
  ...executeCommandMeta,
  openapi: {
    ...executeCommandMeta.openapi,
    path: '/issue/execute/{issue}',
    summary: 'Apply a command to an issue (the IDE plugins’ spelling)',
  },
} satisfies RouteMeta;

export const ZIssueEmptyOutput = ZEmpty;
