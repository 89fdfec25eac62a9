import { z } from 'zod';
import { QueryBool } from '../common/query-bool.js';
import { element, list, type RouteMeta } from '../common/route-meta.js';
import { ZCount, ZMessage } from '../common/small-bodies.js';
import { name } from '../common/text-fields.js';

const TAGS = ['Issue link types'];

export const ZLinkTypeName = name(100);

/** An issue link type, legacy orientation: outward is read from the source issue. */
export const ZIssueLinkType = z.object({
  name: z.string(),
  outwardName: z.string(),
  inwardName: z.string(),
  directed: z.boolean(),
  aggregation: z.boolean(),
});
export type IssueLinkTypeDto = z.infer<typeof ZIssueLinkType>;
const linkTypeXml = element('issueLinkType');

export const listLinkTypesMeta = {
  openapi: { method: 'GET', path: '/admin/issueLinkType', summary: 'Get all issue link types', tags: TAGS },
  xml: list('issueLinkTypes', linkTypeXml),
} satisfies RouteMeta;
export const ZListLinkTypesInput = z.object({});
export const ZListLinkTypesOutput = z.array(ZIssueLinkType);

export const getLinkTypeMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/issueLinkType/{name}',
    summary: 'Get issue link type by name',
    tags: TAGS,
  },
  xml: linkTypeXml,
} satisfies RouteMeta;
export const ZGetLinkTypeInput = z.object({ name: ZLinkTypeName });

export const countLinkTypeMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/issueLinkType/{name}/count',
    summary: 'Get usages count of issue link type by name',
    tags: TAGS,
  },
  xml: { kind: 'scalar', name: 'int', field: 'value' },
} satisfies RouteMeta;
export const ZCountLinkTypeOutput = ZCount;

export const createLinkTypeMeta = {
  openapi: {
    method: 'PUT',
    path: '/admin/issueLinkType/{name}',
    summary: 'Create new issue link type',
    tags: TAGS,
    errorResponses: [400, 401, 403, 409],
  },
  xml: { kind: 'empty' },
} satisfies RouteMeta;
export const ZCreateLinkTypeInput = z.object({
  name: ZLinkTypeName,
  outwardName: name(100),
  /** Not used for undirected links; defaults to `outwardName`. */
  inwardName: name(100).optional(),
  directed: QueryBool.optional(),
  aggregation: QueryBool.optional(),
});

export const updateLinkTypeMeta = {
  openapi: {
    method: 'POST',
    path: '/admin/issueLinkType/{name}',
    summary: 'Update issue link type',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404, 409],
  },
  xml: linkTypeXml,
} satisfies RouteMeta;
export const ZUpdateLinkTypeInput = z.object({
  name: ZLinkTypeName,
  newName: ZLinkTypeName.optional(),
  outwardName: name(100).optional(),
  inwardName: name(100).optional(),
  directed: QueryBool.optional(),
  aggregation: QueryBool.optional(),
});

export const deleteLinkTypeMeta = {
  openapi: {
    method: 'DELETE',
    path: '/admin/issueLinkType/{name}',
    summary: 'Delete issue link type',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: { kind: 'text', field: 'value' },
} satisfies RouteMeta;
export const ZDeleteLinkTypeOutput = ZMessage;
