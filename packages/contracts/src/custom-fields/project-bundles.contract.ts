import { z } from 'zod';
import { QueryBool } from '../common/query-bool.js';
import { element, list, type RouteMeta } from '../common/route-meta.js';
import { name, optionalText } from '../common/text-fields.js';
import { ZTimestampMs } from '../common/timestamps.js';
import { ZProjectShortName } from '../projects/project.contract.js';

/*
 * The project sub-resources of the original (`subsystemsUrl`, `versionsUrl`, `buildsUrl` of a
 * project): views of the bundles of the project's Subsystem, Fix versions and build fields.
 */
const TAGS = ['Project subsystems, versions and builds'];
const ZDate = ZTimestampMs;

const meta = (
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  path: `/${string}`,
  summary: string,
  errors: number[],
) => ({
  method,
  path,
  summary,
  tags: TAGS,
  errorResponses: errors,
});

/** `<subsystem name isDefault defaultAssignee url/>` */
export const ZSubsystem = z.object({
  name: z.string(),
  isDefault: z.boolean(),
  defaultAssignee: z.string(),
  url: z.string(),
});
export const ZProjectValueInput = z.object({ project: ZProjectShortName, name: name(100) });

export const listSubsystemsMeta = {
  openapi: meta('GET', '/admin/project/{project}/subsystem', 'Get project subsystems', [401, 404]),
  xml: list('subsystems', element('subsystem')),
} satisfies RouteMeta;
export const getSubsystemMeta = {
  openapi: meta('GET', '/admin/project/{project}/subsystem/{name}', 'Get project subsystem', [401, 404]),
  xml: element('subsystem'),
} satisfies RouteMeta;
export const createSubsystemMeta = {
  openapi: meta(
    'PUT',
    '/admin/project/{project}/subsystem/{name}',
    'Create project subsystem',
    [400, 401, 403, 404, 409],
  ),
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZCreateSubsystemInput = ZProjectValueInput.extend({
  isDefault: QueryBool.optional(),
  defaultAssignee: optionalText(100),
});
export const deleteSubsystemMeta = {
  openapi: meta(
    'DELETE',
    '/admin/project/{project}/subsystem/{name}',
    'Delete project subsystem',
    [401, 403, 404, 409],
  ),
  xml: { kind: 'empty' },
} satisfies RouteMeta;

/** `<version name description releaseDate isReleased isArchived url/>` */
export const ZVersion = z.object({
  name: z.string(),
  description: z.string(),
  releaseDate: z.number().optional(),
  isReleased: z.boolean(),
  isArchived: z.boolean(),
  url: z.string(),
});
export const listVersionsMeta = {
  openapi: meta('GET', '/admin/project/{project}/version', 'Get project versions', [401, 404]),
  xml: list('versions', element('version')),
} satisfies RouteMeta;
export const ZListVersionsInput = z.object({
  project: ZProjectShortName,
  showReleased: QueryBool.optional(),
});
export const getVersionMeta = {
  openapi: meta('GET', '/admin/project/{project}/version/{name}', 'Get project version', [401, 404]),
  xml: element('version'),
} satisfies RouteMeta;
const versionFields = {
  description: optionalText(1000),
  isReleased: QueryBool.optional(),
  isArchived: QueryBool.optional(),
  releaseDate: ZDate.optional(),
};
export const createVersionMeta = {
  openapi: meta(
    'PUT',
    '/admin/project/{project}/version/{name}',
    'Create project version',
    [400, 401, 403, 404, 409],
  ),
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZCreateVersionInput = ZProjectValueInput.extend(versionFields);
export const updateVersionMeta = {
  openapi: meta(
    'POST',
    '/admin/project/{project}/version/{name}',
    'Update project version',
    [400, 401, 403, 404, 409],
  ),
  xml: element('version'),
} satisfies RouteMeta;
export const ZUpdateVersionInput = ZProjectValueInput.extend({
  ...versionFields,
  newName: optionalText(100),
});
export const deleteVersionMeta = {
  openapi: meta(
    'DELETE',
    '/admin/project/{project}/version/{name}',
    'Delete project version',
    [401, 403, 404, 409],
  ),
  xml: { kind: 'empty' },
} satisfies RouteMeta;

/** `<build name assembleDate url/>` */
export const ZBuild = z.object({ name: z.string(), assembleDate: z.number().optional(), url: z.string() });
export const listBuildsMeta = {
  openapi: meta('GET', '/admin/project/{project}/build', 'Get project builds', [401, 404]),
  xml: list('builds', element('build')),
} satisfies RouteMeta;
export const createBuildMeta = {
  openapi: meta(
    'PUT',
    '/admin/project/{project}/build/{name}',
    'Add a build to the project',
    [400, 401, 403, 404, 409],
  ),
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZCreateBuildInput = ZProjectValueInput.extend({ assembleDate: ZDate.optional() });
export const ZProjectOnlyInput = z.object({ project: ZProjectShortName });

/** `<assigneeList><assignee login fullName isFromGroup/>…`: the users of the project's Assignee bundle. */
export const ZAssignee = z.object({ login: z.string(), fullName: z.string(), isFromGroup: z.boolean() });
export const listAssigneesMeta = {
  openapi: meta('GET', '/admin/project/{project}/assignee', 'Get project assignees', [401, 404]),
  xml: list('assigneeList', element('assignee')),
} satisfies RouteMeta;
export const addAssigneeMeta = {
  openapi: meta(
    'PUT',
    '/admin/project/{project}/assignee/{login}',
    'Add a project assignee',
    [400, 401, 403, 404],
  ),
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const removeAssigneeMeta = {
  openapi: meta(
    'DELETE',
    '/admin/project/{project}/assignee/{login}',
    'Remove a project assignee',
    [401, 403, 404],
  ),
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZProjectAssigneeInput = z.object({
  project: ZProjectShortName,
  login: z.string().trim().min(1).max(100),
});

/** `<groups><group name url/>…`: the groups of the project's Assignee bundle. */
export const listAssigneeGroupsMeta = {
  openapi: meta('GET', '/admin/project/{project}/assignee/group', 'Get project assignee groups', [401, 404]),
  xml: list('groups', element('group')),
} satisfies RouteMeta;
