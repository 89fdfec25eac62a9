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
