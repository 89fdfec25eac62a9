import { z } from 'zod';
import { QueryBool } from '../common/query-bool.js';
import type { RouteMeta } from '../common/route-meta.js';
import { ZProjectShortName } from '../projects/project.contract.js';

/*
 * The import API of the legacy service (`/rest/import/...`), used by every migration script.
 * Bodies are the original's XML documents, turned into these inputs by the named `xmlBody`
 * reader of the REST bridge (tRPC callers send the same inputs as JSON). Item strings are
 * loosely typed on purpose: a bad issue is reported in its own result, not as a 400 for the
 * whole batch; only the shape and the sizes are checked here.
 */

const TAGS = ['Import'];
const loose = (max: number) => z.string().max(max, `must be at most ${max} characters`);
/** One body is at most 1 MiB; these bound what a tRPC caller may send the same way. */
const BIG_TEXT = 1_048_576;

export const MAX_IMPORT_ISSUES_PER_REQUEST = 100;
export const MAX_IMPORT_USERS_PER_REQUEST = 1000;
export const MAX_IMPORT_LINKS_PER_REQUEST = 10_000;

export const ZImportProblem = z.object({
  message: z.string(),
  fieldName: z.string().optional(),
  value: z.string().optional(),
});
/** One item of the original's `importReport`/`importResult`: `id`, `imported`, `error` children. */
export const ZImportItemResult = z.object({
  id: z.string(),
  imported: z.boolean(),
  errors: z.array(ZImportProblem).optional(),
});
export const ZImportResults = z.array(ZImportItemResult);

const test = QueryBool.optional();

export const importUsersMeta = {
  openapi: {
    method: 'PUT',
    path: '/import/users',
    summary:
      'Import users: create missing ones (without passwords), update names and e-mails of existing ones',
    description: 'Body: `<list><user login fullName email jabber/></list>`. Answers one `item` per user.',
    tags: TAGS,
    errorResponses: [400, 401, 403, 413],
    contentTypes: ['application/json', 'application/xml'],
  },
  xml: { kind: 'custom', renderer: 'importReport' },
  xmlBody: 'importUsers',
} satisfies RouteMeta;
export const ZImportUsersInput = z.object({
  test,
  users: z
    .array(
      z.object({
        login: loose(200),
        fullName: loose(1000).optional(),
        email: loose(500).optional(),
        jabber: loose(500).optional(),
      }),
    )
    .max(MAX_IMPORT_USERS_PER_REQUEST, `at most ${MAX_IMPORT_USERS_PER_REQUEST} users per request`)
    .default([]),
});

export const ZImportedIssue = z.object({
  fields: z
    .array(z.object({ name: loose(200), values: z.array(loose(BIG_TEXT)).max(1000, 'at most 1000 values') }))
    .max(500, 'at most 500 fields per issue'),
  comments: z
    .array(
      z.object({
        author: loose(200),
        text: loose(BIG_TEXT),
        created: loose(30),
        updated: loose(30).optional(),
        markdown: loose(10).optional(),
      }),
    )
    .max(10_000, 'at most 10000 comments per issue')
    .optional(),
});

export const importIssuesMeta = {
  openapi: {
    method: 'PUT',
    path: '/import/{project}/issues',
    summary: 'Import up to 100 issues keeping their numbers, times, reporters, comments and field values',
    description:
      'Body: `<issues><issue><field name="numberInProject"><value>5</value></field>…<comment author text created/></issue></issues>`. ' +
      'Importing a number that exists updates that issue. Answers `importResult` with one `item` per issue.',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404, 413],
    contentTypes: ['application/json', 'application/xml'],
  },
  xml: { kind: 'custom', renderer: 'importResult' },
  xmlBody: 'importIssues',
} satisfies RouteMeta;
export const ZImportIssuesInput = z.object({
  project: ZProjectShortName,
  assigneeGroup: loose(200).optional(),
  test,
  issues: z
    .array(ZImportedIssue)
    .max(MAX_IMPORT_ISSUES_PER_REQUEST, `at most ${MAX_IMPORT_ISSUES_PER_REQUEST} issues per request`)
    .default([]),
});

export const importLinksMeta = {
  openapi: {
    method: 'PUT',
    path: '/import/links',
    summary: 'Import issue links; unknown issues or link types are reported per link',
    description: 'Body: `<list><link typeName source target/></list>`.',
    tags: TAGS,
    errorResponses: [400, 401, 403, 413],
    contentTypes: ['application/json', 'application/xml'],
  },
  xml: { kind: 'custom', renderer: 'importReport' },
  xmlBody: 'importLinks',
} satisfies RouteMeta;
export const ZImportLinksInput = z.object({
  test,
  links: z
    .array(z.object({ typeName: loose(200), source: loose(200), target: loose(200) }))
    .max(MAX_IMPORT_LINKS_PER_REQUEST, `at most ${MAX_IMPORT_LINKS_PER_REQUEST} links per request`)
    .default([]),
});
