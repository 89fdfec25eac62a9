import { z } from 'zod';
import { QueryBool } from '../common/query-bool.js';
import type { RouteMeta } from '../common/route-meta.js';
import { name, optionalText } from '../common/text-fields.js';
import { ZTimestampMs } from '../common/timestamps.js';
import { ZLogin } from '../projects/project.contract.js';

const TAGS = ['Bundles'];

/** The bundle types of `/rest/admin/customfield/{bundleType}`. */
export const BUNDLE_TYPE_NAMES = [
  'bundle',
  'stateBundle',
  'versionBundle',
  'buildBundle',
  'ownedFieldBundle',
  'userBundle',
] as const;
export const ZBundleType = z.enum(BUNDLE_TYPE_NAMES);
export type BundleTypeName = z.infer<typeof ZBundleType>;

/**
 * The original's element names per bundle type: the bundle's root, its value elements, and
 * the element naming it in a list, whose root is that name + `Refs` (its pages "GET Enumerations":
 * `<enumFieldBundleRefs><enumFieldBundle name url/>`, "Get All State Bundles":
 * `<stateBundleRefs><stateBundle name url/>`; the python library's `getAllBundles` reads the items by
 * these names: `enumFieldBundle`, `userFieldBundle`, else the type's path).
 */
export const BUNDLE_XML: Record<BundleTypeName, { root: string; value: string; ref: string }> = {
  bundle: { root: 'enumeration', value: 'value', ref: 'enumFieldBundle' },
  stateBundle: { root: 'stateBundle', value: 'state', ref: 'stateBundle' },
  versionBundle: { root: 'versions', value: 'version', ref: 'versionBundle' },
  buildBundle: { root: 'buildBundle', value: 'build', ref: 'buildBundle' },
  ownedFieldBundle: { root: 'ownedFieldBundle', value: 'ownedField', ref: 'ownedFieldBundle' },
  userBundle: { root: 'userBundle', value: 'user', ref: 'userFieldBundle' },
};

export const ZBundleName = name(100);

/** A value with the attributes its type has; the text of the XML element is `name`. */
export const ZBundleValue = z.object({
  name: z.string(),
  description: z.string().optional(),
  colorIndex: z.number().int().optional(),
  isResolved: z.boolean().optional(),
  released: z.boolean().optional(),
  archived: z.boolean().optional(),
  releaseDate: z.number().optional(),
  assembleDate: z.number().optional(),
  owner: z.string().optional(),
});
export type BundleValueDto = z.infer<typeof ZBundleValue>;

export const ZBundle = z.object({
  type: ZBundleType,
  name: z.string(),
  values: z.array(ZBundleValue),
  /** User bundles: `user login url`. */
  users: z.array(z.object({ login: z.string(), url: z.string() })),
  /** User bundles: `userGroup name url`. */
  groups: z.array(z.object({ name: z.string(), url: z.string() })),
});
export type BundleDto = z.infer<typeof ZBundle>;

export const listBundlesMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/customfield/{bundleType}',
    summary: 'Get all bundles of a type (UPDATE_PROJECT globally or in a project)',
    tags: TAGS,
    errorResponses: [400, 401, 403],
  },
  xml: { kind: 'custom', renderer: 'bundleRefs' },
} satisfies RouteMeta;
export const ZBundleTypeInput = z.object({ bundleType: ZBundleType });
export const ZListBundlesOutput = z.array(z.object({ name: z.string(), url: z.string() }));

export const getBundleMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/customfield/{bundleType}/{bundle}',
    summary: 'Get a bundle with its values (UPDATE_PROJECT globally or in a project)',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404],
  },
  xml: { kind: 'custom', renderer: 'bundle' },
} satisfies RouteMeta;
export const ZBundleInput = z.object({ bundleType: ZBundleType, bundle: ZBundleName });

const ZDate = ZTimestampMs;
const valueAttributes = {
  description: optionalText(1000),
  colorIndex: z.coerce.number().int().min(0).max(1000).optional(),
  isResolved: QueryBool.optional(),
  released: QueryBool.optional(),
  archived: QueryBool.optional(),
  releaseDate: ZDate.optional(),
  assembleDate: ZDate.optional(),
  owner: optionalText(100),
};

export const createBundleMeta = {
  openapi: {
    method: 'PUT',
    path: '/admin/customfield/{bundleType}',
    summary: 'Create a bundle',
    description:
      'Body: the bundle as the original writes it, e.g. `<enumeration name="Severities"><value colorIndex="3">Blocker</value></enumeration>`, or JSON `{"name", "values": [{"name", …}], "users": ["login"]}`.',
    tags: TAGS,
    errorResponses: [400, 401, 403, 409],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
/** A child element of an XML body: its attributes and its text (`$text`). */
export const ZXmlChild = z.record(z.string(), z.string());
/** A value given when creating a bundle (JSON, or an XML child read by the API). */
export const ZNewBundleValue = z.object({ name: name(100), ...valueAttributes });
export const ZCreateBundleInput = z.object({
  bundleType: ZBundleType,
  name: ZBundleName,
  values: z.array(ZNewBundleValue).max(5000).optional(),
  users: z.array(ZLogin).max(5000).optional(),
  groups: z.array(name(100)).max(5000).optional(),
  /** Filled by the REST bridge from an XML body: child elements by tag (`value`, `state`, `user`...). */
  xmlChildren: z.record(z.string(), z.array(ZXmlChild).max(5000)).optional(),
});

export const deleteBundleMeta = {
  openapi: {
    method: 'DELETE',
    path: '/admin/customfield/{bundleType}/{bundle}',
    summary: 'Delete a bundle',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404, 409],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;

export const renameBundleMeta = {
  openapi: {
    method: 'POST',
    path: '/admin/customfield/{bundleType}/{bundle}',
    summary: 'Rename a bundle (`newName`)',
    description:
      'As the original answers: 200 with an empty body for an enumeration (`bundle`), 301 with `Location` (the renamed ' +
      "bundle's URL) and an empty body for state, version, build, owned-field and user bundles. 409 when the type has " +
      'a bundle of that name.',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404, 409],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZRenameBundleInput = z.object({
  bundleType: ZBundleType,
  bundle: ZBundleName,
  newName: ZBundleName,
});

export const addBundleValueMeta = {
  openapi: {
    method: 'PUT',
    path: '/admin/customfield/{bundleType}/{bundle}/{value}',
    summary: 'Add a value to a bundle',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404, 409],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZBundleValueInput = z.object({
  bundleType: ZBundleType,
  bundle: ZBundleName,
  value: name(100),
  ...valueAttributes,
  /** The python library's name for `isResolved` (its StateField keeps `is_resolved` and sends it back). */
  is_resolved: QueryBool.optional(),
});

export const updateBundleValueMeta = {
  openapi: {
    method: 'POST',
    path: '/admin/customfield/{bundleType}/{bundle}/{value}',
    summary: 'Update a bundle value',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404, 409],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZUpdateBundleValueInput = ZBundleValueInput.extend({ newName: optionalText(100) });

export const deleteBundleValueMeta = {
  openapi: {
    method: 'DELETE',
    path: '/admin/customfield/{bundleType}/{bundle}/{value}',
    summary: 'Remove a bundle value (refused while issues hold it)',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404, 409],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZDeleteBundleValueInput = z.object({
  bundleType: ZBundleType,
  bundle: ZBundleName,
  value: name(100),
});

export const addBundleUserMeta = {
  openapi: {
    method: 'PUT',
    path: '/admin/customfield/userBundle/{bundle}/individual/{login}',
    summary: 'Add a user to a user bundle',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZBundleUserInput = z.object({ bundle: ZBundleName, login: ZLogin });

export const addBundleGroupMeta = {
  openapi: {
    method: 'PUT',
    path: '/admin/customfield/userBundle/{bundle}/group/{group}',
    summary: 'Add a group to a user bundle',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const removeBundleGroupMeta = {
  openapi: {
    method: 'DELETE',
    path: '/admin/customfield/userBundle/{bundle}/group/{group}',
    summary: 'Remove a group from a user bundle',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZBundleGroupInput = z.object({ bundle: ZBundleName, group: name(100) });

export const removeBundleUserMeta = {
  openapi: {
    method: 'DELETE',
    path: '/admin/customfield/userBundle/{bundle}/individual/{login}',
    summary: 'Remove a user from a user bundle',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;

/** tRPC only (the console): moves a value of a bundle to `position` (0 first), the others keeping their order. */
export const ZMoveBundleValueInput = z.object({
  bundleType: ZBundleType,
  bundle: ZBundleName,
  value: name(100),
  position: z.number().int().min(0, 'must not be negative').max(100_000),
});
/** The bundle's values in their new order. */
export const ZMoveBundleValueOutput = z.object({ values: z.array(z.string()) });
