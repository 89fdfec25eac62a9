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
