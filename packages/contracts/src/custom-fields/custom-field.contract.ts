import { z } from 'zod';
import { QueryBool } from '../common/query-bool.js';
import { element, list, type RouteMeta } from '../common/route-meta.js';
import { name, optionalText } from '../common/text-fields.js';
import { ZProjectShortName } from '../projects/project.contract.js';

const TAGS = ['Custom fields'];
const PROJECT_TAGS = ['Project custom fields'];

export const ZFieldName = name(100);
const ZRef = z.object({ name: z.string(), url: z.string() });

/** One `defaultParam name value` child of a prototype (`defaultBundle`, `attachBundlePolicy`). */
const ZParam = z.object({ name: z.string(), value: z.string() });

/** `<customFieldPrototype name type isPrivate visibleByDefault autoAttached><defaultParam name value/>…` */
export const ZFieldPrototype = z.object({
  name: z.string(),
  type: z.string(),
  isPrivate: z.boolean(),
  visibleByDefault: z.boolean(),
  autoAttached: z.boolean(),
  defaultParam: z.array(ZParam),
});
export type FieldPrototypeDto = z.infer<typeof ZFieldPrototype>;

export const listFieldPrototypesMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/customfield/field',
    summary: 'Get all custom field prototypes (UPDATE_PROJECT globally or in a project)',
    tags: TAGS,
    errorResponses: [401, 403],
  },
  xml: list('customFieldPrototypes', element('customFieldPrototype')),
} satisfies RouteMeta;
export const ZListFieldPrototypesOutput = z.array(ZRef);

export const getFieldPrototypeMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/customfield/field/{name}',
    summary: 'Get custom field prototype (UPDATE_PROJECT globally or in a project)',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: { kind: 'custom', renderer: 'customFieldPrototype' },
} satisfies RouteMeta;
export const ZFieldNameInput = z.object({ name: ZFieldName });

export const createFieldPrototypeMeta = {
  openapi: {
    method: 'PUT',
    path: '/admin/customfield/field/{name}',
    summary: 'Create custom field prototype',
    description:
      '`attachBundlePolicy`: 0 projects share the default bundle, 1 each project gets a copy of it, 2 each project gets a new empty bundle.',
    tags: TAGS,
    errorResponses: [400, 401, 403, 409],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZCreateFieldPrototypeInput = z.object({
  name: ZFieldName,
  type: z.string().max(40, 'must be at most 40 characters'),
  isPrivate: QueryBool.optional(),
  defaultVisibility: QueryBool.optional(),
  autoAttached: QueryBool.optional(),
  defaultBundle: optionalText(100),
  attachBundlePolicy: z.coerce.number().int().min(0).max(2).optional(),
  emptyFieldText: optionalText(100),
  canBeEmpty: QueryBool.optional(),
  /** Other names of the field, comma-separated (`affects`); absent: the original's for its predefined fields. */
  aliases: z.string().max(1100, 'must be at most 1100 characters').optional(),
});

export const updateFieldPrototypeMeta = {
  openapi: {
    method: 'POST',
    path: '/admin/customfield/field/{name}',
    summary:
      "Change a custom field prototype's aliases, or whether its users are told of changes as assignees",
    description:
      '`aliases`: other names of the field in commands, search and suggestions, comma-separated (empty: none); each must not be a command keyword or name another field.',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZUpdateFieldPrototypeInput = z.object({
  name: ZFieldName,
  aliases: z.string().max(1100, 'must be at most 1100 characters').optional(),
  /** A user field whose users are told of changes as assignees (docs/notifications.md). */
  isAssignee: QueryBool.optional(),
});

export const deleteFieldPrototypeMeta = {
  openapi: {
    method: 'DELETE',
    path: '/admin/customfield/field/{name}',
    summary: 'Delete custom field prototype',
    tags: TAGS,
    errorResponses: [401, 403, 404, 409],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;

/** `<projectCustomField name type emptyText canBeEmpty url><param name="bundle" value/><defaultValue>…` */
export const ZProjectCustomField = z.object({
  name: z.string(),
  type: z.string(),
  emptyText: z.string(),
  canBeEmpty: z.boolean(),
  url: z.string(),
  param: z.array(ZParam),
  defaultValue: z.array(z.string()),
});
export type ProjectCustomFieldDto = z.infer<typeof ZProjectCustomField>;

export const listProjectCustomFieldsMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/project/{project}/customfield',
    summary: 'Get project custom fields (UPDATE_PROJECT in the project)',
    tags: PROJECT_TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: list('projectCustomFieldRefs', element('projectCustomField')),
} satisfies RouteMeta;
export const ZProjectInput = z.object({ project: ZProjectShortName });
export const ZListProjectCustomFieldsOutput = z.array(ZRef);

export const getProjectCustomFieldMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/project/{project}/customfield/{name}',
    summary: 'Get project custom field (UPDATE_PROJECT in the project)',
    tags: PROJECT_TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: { kind: 'custom', renderer: 'projectCustomField' },
} satisfies RouteMeta;
export const ZProjectFieldInput = z.object({ project: ZProjectShortName, name: ZFieldName });

export const attachProjectCustomFieldMeta = {
  openapi: {
    method: 'PUT',
    path: '/admin/project/{project}/customfield/{name}',
    summary: 'Add custom field to project',
    tags: PROJECT_TAGS,
    errorResponses: [400, 401, 403, 404, 409],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
const projectFieldSettings = {
  emptyFieldText: optionalText(100),
  canBeEmpty: QueryBool.optional(),
  bundle: optionalText(100),
};
export const ZAttachProjectCustomFieldInput = z.object({
  project: ZProjectShortName,
  name: ZFieldName,
  ...projectFieldSettings,
});

export const updateProjectCustomFieldMeta = {
  openapi: {
    method: 'POST',
    path: '/admin/project/{project}/customfield/{name}',
    summary: 'Update project custom field',
    tags: PROJECT_TAGS,
    errorResponses: [400, 401, 403, 404, 409],
  },
  xml: { kind: 'custom', renderer: 'projectCustomField' },
} satisfies RouteMeta;
export const ZUpdateProjectCustomFieldInput = z.object({
  project: ZProjectShortName,
  name: ZFieldName,
  ...projectFieldSettings,
  /** A value of the field's bundle new issues get; empty clears it. */
  defaultValue: z.string().max(100, 'must be at most 100 characters').optional(),
});

export const detachProjectCustomFieldMeta = {
  openapi: {
    method: 'DELETE',
    path: '/admin/project/{project}/customfield/{name}',
    summary: 'Remove custom field from project',
    tags: PROJECT_TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
