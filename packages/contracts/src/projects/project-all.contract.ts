import { z } from 'zod';
import { QueryBool } from '../common/query-bool.js';
import type { RouteMeta } from '../common/route-meta.js';

/**
 * `GET /project/all`: the projects the caller can read, as the legacy clients read them
 * (`projects` > `project name shortName description isImporting`; with `verbose`, the children
 * `assigneesLogin`, `assigneesFullName` and `subsystems`, each a list of `sub value`).
 */
export const listAllProjectsMeta = {
  openapi: {
    method: 'GET',
    path: '/project/all',
    summary: 'Get accessible projects',
    tags: ['Projects'],
    errorResponses: [400, 401],
  },
  xml: { kind: 'custom', renderer: 'projectsAll' },
} satisfies RouteMeta;
export const ZListAllProjectsInput = z.object({ verbose: QueryBool.optional() });

/** `{sub: [{value}]}`: the legacy JSON form of a list of names (YouTrackSharp's `SubValuesArray`). */
export const ZSubValues = z.object({ sub: z.array(z.object({ value: z.string() })) });
export const ZProjectSummary = z.object({
  name: z.string(),
  shortName: z.string(),
  description: z.string(),
  isImporting: z.boolean(),
  assigneesLogin: ZSubValues.optional(),
  assigneesFullName: ZSubValues.optional(),
  subsystems: ZSubValues.optional(),
});
export type ProjectSummaryDto = z.infer<typeof ZProjectSummary>;
export const ZListAllProjectsOutput = z.array(ZProjectSummary);
