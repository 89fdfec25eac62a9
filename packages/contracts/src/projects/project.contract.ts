import { z } from 'zod';
import { element, list, type RouteMeta } from '../common/route-meta.js';
import { name, optionalText } from '../common/text-fields.js';

const TAGS = ['Projects'];

/** The short name doubles as the issue-id prefix (`PRJ-12`), so no dash and a letter first. */
export const ZProjectShortName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(50, 'must be at most 50 characters')
  .regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'must start with a letter and contain only letters, digits and _');

export const ZLogin = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters');
const ZStartingNumber = z
  .number()
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(1_000_000_000, 'must be at most 1000000000');

export const ZProjectRef = z.object({ id: z.string(), url: z.string() });
export const ZProject = z.object({
  id: z.string(),
  name: z.string(),
  lead: z.string(),
  description: z.string(),
  startingNumber: z.number().int(),
  assigneesUrl: z.string(),
  subsystemsUrl: z.string(),
  buildsUrl: z.string(),
  versionsUrl: z.string(),
});
export type ProjectDto = z.infer<typeof ZProject>;
const projectXml = element('project');

export const listProjectsMeta = {
  openapi: { method: 'GET', path: '/admin/project', summary: 'Get all accessible projects', tags: TAGS },
  xml: list('projectRefs', projectXml),
} satisfies RouteMeta;
export const ZListProjectsOutput = z.array(ZProjectRef);

export const getProjectMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/project/{project}',
    summary: 'Get project by its short name',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: projectXml,
} satisfies RouteMeta;
export const ZGetProjectInput = z.object({ project: ZProjectShortName });

const projectFields = {
  projectName: name(200),
  startingNumber: ZStartingNumber.optional(),
  projectLeadLogin: ZLogin.optional(),
  /** Alias of `projectLeadLogin` (the Python client sends both). */
  lead: ZLogin.optional(),
  description: optionalText(4000),
};

export const createProjectMeta = {
  openapi: {
    method: 'PUT',
    // One parameter name per path position: `{project}` as in GET and DELETE (the original's docs
    // call it projectId everywhere; the name is not on the wire).
    path: '/admin/project/{project}',
    summary: 'Create new project',
    tags: TAGS,
    errorResponses: [400, 401, 403, 409],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZCreateProjectInput = z.object({ project: ZProjectShortName, ...projectFields });
export type CreateProjectInput = z.infer<typeof ZCreateProjectInput>;

/**
 * `PUT /rest/admin/project` with an XML (`<project id name lead startingNumber description/>`)
 * or JSON body. Both spellings of each field are accepted; the procedure normalises them.
 */
export const createProjectFromBodyMeta = {
  openapi: {
    method: 'PUT',
    path: '/admin/project',
    summary: 'Create new project from XML or JSON',
    tags: TAGS,
    errorResponses: [400, 401, 403, 409],
    contentTypes: ['application/json', 'application/xml'],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZCreateProjectFromBodyInput = z.object({
  id: ZProjectShortName.optional(),
  shortName: ZProjectShortName.optional(),
  name: name(200).optional(),
  projectName: name(200).optional(),
  lead: ZLogin.optional(),
  leader: ZLogin.optional(),
  projectLeadLogin: ZLogin.optional(),
  startingNumber: ZStartingNumber.optional(),
  description: optionalText(4000),
});

export const deleteProjectMeta = {
  openapi: {
    method: 'DELETE',
    path: '/admin/project/{project}',
    summary: 'Delete project',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;

/*
 * The project trash. `DELETE /admin/project/{project}` moves a project there; it stays
 * restorable for the configured period (`TRACKLINE_TRASH_DAYS`), then it is purged. A
 * separate path (not `/admin/project/trash`) so that no short name is shadowed.
 */
export const ZTrashedProject = z.object({
  id: z.string(),
  name: z.string(),
  /** When it was deleted, and when the periodic purge removes it (ms since the epoch). */
  deleted: z.number().int(),
  purgeAfter: z.number().int(),
  issues: z.number().int(),
});
export const listProjectTrashMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/projectTrash',
    summary: 'Deleted projects that can still be restored (DELETE_PROJECT globally)',
    tags: TAGS,
    errorResponses: [401, 403],
  },
  xml: list('trashedProjects', element('project')),
} satisfies RouteMeta;
export const restoreProjectMeta = {
  openapi: {
    method: 'POST',
    path: '/admin/projectTrash/{project}/restore',
    summary: 'Restore a deleted project with its issues and links (DELETE_PROJECT globally)',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: projectXml,
} satisfies RouteMeta;
export const purgeProjectMeta = {
  openapi: {
    method: 'DELETE',
    path: '/admin/projectTrash/{project}',
    summary: 'Remove a deleted project and its issues for good (DELETE_PROJECT globally)',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;

/** tRPC only (the console's project screen): who holds which role in a project, there or everywhere. */
export const ZProjectGrantsInput = z.object({ project: ZProjectShortName });
export const ZProjectGrantsOutput = z.array(
  z.object({
    holder: z.object({ kind: z.enum(['user', 'group']), name: z.string(), fullName: z.string() }),
    role: z.string(),
    scope: z.enum(['project', 'everywhere']),
  }),
);
