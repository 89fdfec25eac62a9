import { z } from 'zod';
import { element, list, type RouteMeta } from '../common/route-meta.js';
import { ZIssueId } from './issue.contract.js';

/** `issueLinks` > `issueLink typeName source target typeInward typeOutward` (legacy-clients.md, "links"). */
export const ZIssueLinkEntry = z.object({
  typeName: z.string(),
  source: z.string(),
  target: z.string(),
  typeInward: z.string(),
  typeOutward: z.string(),
});

export const listIssueLinksMeta = {
  openapi: {
    method: 'GET',
    path: '/issue/{issue}/link',
    summary: 'Get the links of an issue, in both directions (only to issues the caller can read)',
    tags: ['Issues'],
    errorResponses: [401, 404],
  },
  xml: list('issueLinks', element('issueLink')),
} satisfies RouteMeta;
export const ZListIssueLinksInput = z.object({ issue: ZIssueId });
export const ZListIssueLinksOutput = z.array(ZIssueLinkEntry);

/**
 * One field of a recorded change: `value` for the change's `updated` and `updaterName`,
 * `oldValue`/`newValue` (each value one element, none when empty) for a changed field.
 */
export const ZChangeField = z.object({
  name: z.string(),
  value: z.string().optional(),
  oldValue: z.array(z.string()).optional(),
  newValue: z.array(z.string()).optional(),
});
export const ZIssueChangeDto = z.object({ field: z.array(ZChangeField) });
export type IssueChangeDto = z.infer<typeof ZIssueChangeDto>;

export const listIssueChangesMeta = {
  openapi: {
    method: 'GET',
    path: '/issue/{issue}/changes',
    summary:
      'Get the recorded changes of an issue, oldest first: `changes` > `change` > `field name` with `oldValue`/`newValue`, then `updated` and `updaterName`',
    tags: ['Issues'],
    errorResponses: [401, 404],
  },
  xml: { kind: 'custom', renderer: 'issueChanges' },
} satisfies RouteMeta;
export const ZListIssueChangesInput = z.object({ issue: ZIssueId });
export const ZListIssueChangesOutput = z.array(ZIssueChangeDto);

export const exportLinksMeta = {
  openapi: {
    method: 'GET',
    path: '/export/links',
    summary:
      'Every issue link both of whose ends the caller may read (the original\'s "Export Links"): all when `max` is absent, else the page after `after`',
    tags: ['Issues'],
    errorResponses: [400, 401],
  },
  xml: list('links', element('link')),
} satisfies RouteMeta;
export const ZExportLinksInput = z.object({
  max: z.number().int().min(1, 'must be at least 1').max(100_000, 'must be at most 100000').optional(),
  after: z.number().int().min(0, 'must not be negative').max(2_147_483_647).optional(),
});
export const ZExportLinksOutput = z.array(
  ZIssueLinkEntry.pick({ typeName: true, source: true, target: true }),
);

/**
 * The console's history (and the legacy `getEvents` feed below): an issue's activity, oldest first: recorded field changes,
 * comments, attachments, links and tags added or removed, each with who (and their full name) and
 * when (milliseconds since the epoch).
 */
export const ZIssueActivityInput = z.object({ issue: ZIssueId });
const ZActivityBase = z.object({
  at: z.number(),
  by: z.object({ login: z.string(), fullName: z.string() }),
});
export const ZIssueActivityEntry = z.discriminatedUnion('kind', [
  ZActivityBase.extend({
    kind: z.literal('change'),
    fields: z.array(
      z.object({ name: z.string(), oldValues: z.array(z.string()), newValues: z.array(z.string()) }),
    ),
  }),
  ZActivityBase.extend({ kind: z.literal('comment'), text: z.string() }),
  ZActivityBase.extend({ kind: z.literal('attachment'), name: z.string() }),
  ZActivityBase.extend({
    kind: z.enum(['link-added', 'link-removed']),
    phrase: z.string(),
    issue: z.object({ id: z.string(), summary: z.string() }),
  }),
  ZActivityBase.extend({ kind: z.enum(['tag-added', 'tag-removed']), tag: z.string() }),
]);
export type IssueActivityEntry = z.infer<typeof ZIssueActivityEntry>;
export const ZIssueActivityOutput = z.array(ZIssueActivityEntry);

/**
 * `GET /event/issueEvents/{issue}`: the JetBrains library's `getEvents` (0.1.12 and its Python 3
 * port), an event feed of the original that its documentation never described. The library hands
 * the parsed XML to its caller untouched, so any shape parses; Trackline answers the issue's
 * activity (the console's history): `events` > `event kind at author authorFullName` with the
 * change's `field`s (as in `/changes`), the comment's `text`, or an `attachment`, `link` or `tag`
 * element. JSON: the activity entries.
 */
export const issueEventsMeta = {
  openapi: {
    method: 'GET',
    path: '/event/issueEvents/{issue}',
    summary:
      "An issue's events, oldest first (the JetBrains library's `getEvents`): field changes, comments, attachments, and links and tags added or removed, each with who and when; only what the caller may read",
    tags: ['Issues'],
    errorResponses: [401, 404],
  },
  xml: { kind: 'custom', renderer: 'issueEvents' },
} satisfies RouteMeta;
