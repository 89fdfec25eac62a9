import { z } from 'zod';
import { MAX_ROW_ID, MAX_TEXT_LENGTH } from '../common/limits.js';
import { QueryBool } from '../common/query-bool.js';
import { element, type RouteMeta } from '../common/route-meta.js';
import { ZEmpty } from '../common/small-bodies.js';
import { MAX_TIMESTAMP_MS } from '../common/timestamps.js';
import { ZImportResults } from '../import/import.contract.js';
import { ZProjectShortName } from '../projects/project.contract.js';
import { ZIssueId } from './issue.contract.js';

/*
 * Time tracking: work items of an issue (`workItems` > `workItem url` with `id date duration
 * description worktype>name author login url`), their import, work types, and the project and
 * global settings. Durations are minutes, dates ms since the epoch.
 */

const TAGS = ['Time tracking'];
const workItemsXml = { kind: 'custom', renderer: 'workItems' } as const;

export const ZWorkItem = z.object({
  id: z.string(),
  url: z.string(),
  date: z.number().int(),
  duration: z.number().int(),
  description: z.string(),
  worktype: z.object({ name: z.string() }).optional(),
  author: z.object({ login: z.string(), url: z.string() }),
});
export type WorkItemDto = z.infer<typeof ZWorkItem>;

const ZWorkItemId = z.coerce
  .number()
  .int()
  .min(1, 'must be a work item id')
  .max(MAX_ROW_ID, 'must be a work item id');
const ZDate = z
  .number()
  .int()
  .min(0, 'must be at least 0')
  .max(MAX_TIMESTAMP_MS, 'must be a time before the year 10000');
const ZDuration = z
  .number()
  .int()
  .min(1, 'must be at least 1 minute')
  .max(527_040, 'must be at most 527040 minutes');
const ZDescription = z.string().max(MAX_TEXT_LENGTH, `must be at most ${MAX_TEXT_LENGTH} characters`);
const ZWorkTypeName = z.string().trim().max(100, 'must be at most 100 characters');

export const listWorkItemsMeta = {
  openapi: {
    method: 'GET',
    path: '/issue/{issue}/timetracking/workitem',
    summary: "An issue's work items (READ_WORK_ITEM)",
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: workItemsXml,
} satisfies RouteMeta;
export const ZListWorkItemsInput = z.object({ issue: ZIssueId });
export const ZListWorkItemsOutput = z.array(ZWorkItem);

export const createWorkItemMeta = {
  openapi: {
    method: 'POST',
    path: '/issue/{issue}/timetracking/workitem',
    summary: 'Add a work item (CREATE_WORK_ITEM); 201 with its URL',
    description:
      'Body: `<workItem><date>ms</date><duration>minutes</duration><description/><worktype><name/></worktype></workItem>`, JSON or query parameters.',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404],
    contentTypes: ['application/json', 'application/xml', 'application/x-www-form-urlencoded'],
  },
  xml: { kind: 'empty' },
  xmlBody: 'workItem',
} satisfies RouteMeta;
export const ZCreateWorkItemInput = z.object({
  issue: ZIssueId,
  date: ZDate.optional(),
  duration: ZDuration,
  description: ZDescription.optional(),
  worktype: ZWorkTypeName.optional(),
});

export const updateWorkItemMeta = {
  openapi: {
    method: 'PUT',
    path: '/issue/{issue}/timetracking/workitem/{workItem}',
    summary: "Change a work item (UPDATE_WORK_ITEM; another's: UPDATE_NOT_OWN_WORK_ITEM)",
    tags: TAGS,
    errorResponses: [400, 401, 403, 404],
    contentTypes: ['application/json', 'application/xml', 'application/x-www-form-urlencoded'],
  },
  xml: { kind: 'empty' },
  xmlBody: 'workItem',
} satisfies RouteMeta;
export const ZUpdateWorkItemInput = z.object({
  issue: ZIssueId,
  workItem: ZWorkItemId,
  date: ZDate.optional(),
  duration: ZDuration.optional(),
  description: ZDescription.optional(),
  worktype: ZWorkTypeName.optional(),
});

export const deleteWorkItemMeta = {
  openapi: {
    method: 'DELETE',
    path: '/issue/{issue}/timetracking/workitem/{workItem}',
    summary: "Delete a work item (UPDATE_WORK_ITEM; another's: UPDATE_NOT_OWN_WORK_ITEM)",
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZDeleteWorkItemInput = z.object({ issue: ZIssueId, workItem: ZWorkItemId });
export const ZWorkItemEmptyOutput = ZEmpty;

export const importWorkItemsMeta = {
  openapi: {
    method: 'PUT',
    path: '/import/issue/{issue}/workitems',
    summary: 'Import work items with their authors and dates (IMPORT_DATA)',
    description:
      'Body: `<workItems><workItem><date>ms</date><duration>minutes</duration><description/><worktype><name/></worktype><author login/></workItem></workItems>`.',
    tags: ['Import'],
    errorResponses: [400, 401, 403, 404, 413],
    contentTypes: ['application/json', 'application/xml'],
  },
  xml: { kind: 'custom', renderer: 'importReport' },
  xmlBody: 'importWorkItems',
} satisfies RouteMeta;
const loose = (max: number) => z.string().max(max, `must be at most ${max} characters`);
export const ZImportWorkItemsInput = z.object({
  issue: ZIssueId,
  workItems: z
    .array(
      z.object({
        date: loose(30),
        duration: loose(30),
        description: loose(MAX_TEXT_LENGTH).optional(),
        worktype: loose(200).optional(),
        author: loose(200).optional(),
      }),
    )
    .max(1000, 'at most 1000 work items per request')
    .default([]),
});
export const ZImportWorkItemsOutput = ZImportResults;

/** A work type: `<workType><name/><id/><url/><autoAttached/></workType>` (child elements, as the original). */
export const ZWorkType = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  autoAttached: z.boolean(),
});
export type WorkTypeDto = z.infer<typeof ZWorkType>;
/** The original's page "GET Work Types for a Project": `<workItemTypes><workType><name/><id/><url/></workType>…`. */
const workTypesXml = { kind: 'custom', renderer: 'workTypes' } as const;
export const listWorkTypesMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/timetracking/worktype',
    summary: 'Work types',
    tags: TAGS,
    errorResponses: [401],
  },
  xml: workTypesXml,
} satisfies RouteMeta;
export const ZListWorkTypesInput = z.object({});
export const ZListWorkTypesOutput = z.array(ZWorkType);

export const listProjectWorkTypesMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/project/{project}/timetracking/worktype',
    summary: "A project's work types (every work type is available in every project)",
    tags: TAGS,
    errorResponses: [401, 404],
  },
  xml: workTypesXml,
} satisfies RouteMeta;
export const ZListProjectWorkTypesInput = z.object({ project: ZProjectShortName });

const ZWorkTypeRef = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');
export const attachProjectWorkTypeMeta = {
  openapi: {
    method: 'PUT',
    path: '/admin/project/{project}/timetracking/worktype/{workType}',
    summary: 'Use a work type in a project (UPDATE_PROJECT); by id or name',
    description:
      'Every work type is available in every project: this checks the type and the right, and changes nothing.',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZAttachProjectWorkTypeInput = z.object({ project: ZProjectShortName, workType: ZWorkTypeRef });

export const getWorkTypeMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/timetracking/worktype/{name}',
    summary: 'One work type, by id or name',
    tags: TAGS,
    errorResponses: [401, 404],
  },
  xml: { kind: 'custom', renderer: 'workType' },
} satisfies RouteMeta;

export const createWorkTypeByPostMeta = {
  openapi: {
    method: 'POST',
    path: '/admin/timetracking/worktype',
    summary:
      'Create a work type from `<workType><name/></workType>` (UPDATE_PROJECT globally); 201 with its URL',
    tags: TAGS,
    errorResponses: [400, 401, 403, 409],
    contentTypes: ['application/json', 'application/xml', 'application/x-www-form-urlencoded'],
  },
  xml: { kind: 'empty' },
  xmlBody: 'workType',
} satisfies RouteMeta;
export const ZCreateWorkTypeInput = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  autoAttached: QueryBool.optional(),
});

export const createWorkTypeMeta = {
  openapi: {
    method: 'PUT',
    path: '/admin/timetracking/worktype/{name}',
    summary: 'Create a work type (UPDATE_PROJECT globally)',
    tags: TAGS,
    errorResponses: [400, 401, 403, 409],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZWorkTypeNameInput = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
});

export const deleteWorkTypeMeta = {
  openapi: {
    method: 'DELETE',
    path: '/admin/timetracking/worktype/{name}',
    summary: 'Delete a work type (its work items keep no type)',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;

export const ZProjectTimeTracking = z.object({
  enabled: z.boolean(),
  estimation: z.object({ name: z.string() }).optional(),
  spentTime: z.object({ name: z.string() }).optional(),
});
const projectTimeTrackingXml = element('settings', {
  estimation: element('estimation'),
  spentTime: element('spentTime'),
});
export const getProjectTimeTrackingMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/project/{project}/timetracking',
    summary: "A project's time tracking settings",
    tags: TAGS,
    errorResponses: [401, 404],
  },
  xml: projectTimeTrackingXml,
} satisfies RouteMeta;
export const ZProjectTimeTrackingInput = z.object({ project: ZProjectShortName });

export const setProjectTimeTrackingMeta = {
  openapi: {
    method: 'PUT',
    path: '/admin/project/{project}/timetracking',
    summary: "Change a project's time tracking settings (UPDATE_PROJECT)",
    description:
      "Query parameters `enabled`, `estimation`, `spentTime`, or the original's body " +
      '`<settings enabled="true"><estimation name="Estimation"/><spentTime name="Spent time"/></settings>`.',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404],
  },
  xml: projectTimeTrackingXml,
  xmlBody: 'projectTimeTracking',
} satisfies RouteMeta;
export const ZSetProjectTimeTrackingInput = z.object({
  project: ZProjectShortName,
  enabled: QueryBool.optional(),
  estimation: z.string().max(100, 'must be at most 100 characters').optional(),
  spentTime: z.string().max(100, 'must be at most 100 characters').optional(),
});

export const ZTimeSettings = z.object({ hoursADay: z.number().int(), daysAWeek: z.number().int() });
export const getTimeSettingsMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/timetracking',
    summary: 'The working time',
    tags: TAGS,
    errorResponses: [401],
  },
  xml: element('timesettings'),
} satisfies RouteMeta;
export const ZGetTimeSettingsInput = z.object({});

export const setTimeSettingsMeta = {
  openapi: {
    method: 'PUT',
    path: '/admin/timetracking',
    summary: 'Change the working time (LOW_LEVEL_ADMIN)',
    tags: TAGS,
    errorResponses: [400, 401, 403],
  },
  xml: element('timesettings'),
} satisfies RouteMeta;
export const ZSetTimeSettingsInput = z.object({
  hoursADay: z.number().int().min(1, 'must be at least 1').max(24, 'must be at most 24').optional(),
  daysAWeek: z.number().int().min(1, 'must be at least 1').max(7, 'must be at most 7').optional(),
});
