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
/** The limits of one imported issue (the schema below and `importIssuesInputAsIs` share them). */
const MAX_NAME = 200;
const MAX_VALUES = 1000;
const MAX_FIELDS = 500;
const MAX_COMMENTS = 10_000;
const MAX_TIME = 30;
const MAX_MARKDOWN = 10;
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
    .array(
      z.object({
        name: loose(MAX_NAME),
        values: z.array(loose(BIG_TEXT)).max(MAX_VALUES, `at most ${MAX_VALUES} values`),
      }),
    )
    .max(MAX_FIELDS, `at most ${MAX_FIELDS} fields per issue`),
  comments: z
    .array(
      z.object({
        author: loose(MAX_NAME),
        text: loose(BIG_TEXT),
        created: loose(MAX_TIME),
        updated: loose(MAX_TIME).optional(),
        markdown: loose(MAX_MARKDOWN).optional(),
      }),
    )
    .max(MAX_COMMENTS, `at most ${MAX_COMMENTS} comments per issue`)
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
  assigneeGroup: loose(MAX_NAME).optional(),
  test,
  issues: z
    .array(ZImportedIssue)
    .max(MAX_IMPORT_ISSUES_PER_REQUEST, `at most ${MAX_IMPORT_ISSUES_PER_REQUEST} issues per request`)
    .default([]),
});

export type ImportIssuesInput = z.output<typeof ZImportIssuesInput>;

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};
/** Whether `object` has no key beyond `allowed` (the schema would drop one), none of them set to undefined. */
function onlyKeys(object: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in object) if (!allowed.has(key) || object[key] === undefined) return false;
  return true;
}
const isText = (value: unknown, max: number) => typeof value === 'string' && value.length <= max;
function areTexts(values: unknown, max: number, count: number): boolean {
  if (!Array.isArray(values) || values.length > count) return false;
  for (let i = 0; i < values.length; i++) if (!isText(values[i], max)) return false;
  return true;
}
const INPUT_KEYS = new Set(['project', 'assigneeGroup', 'issues']);
const ISSUE_KEYS = new Set(['fields', 'comments']);
const FIELD_KEYS = new Set(['name', 'values']);
const COMMENT_KEYS = new Set(['author', 'text', 'created', 'updated', 'markdown']);
const SHORT_NAME = /^[A-Za-z][A-Za-z0-9_]{0,49}$/;

/**
 * The import's input as it is when `ZImportIssuesInput` would answer exactly it: every key one
 * the schema knows and every value of its type and within its limits, no default to fill, no
 * `test` to decode, no project name to trim. Then the parse's copy is not needed (an import's
 * 100 issues are thousands of objects and strings: the copy was about a fifth of what a request
 * allocated, the XML reader's output always has this form); otherwise null, and the caller
 * parses, which also words whatever is wrong. `import-fast.test.ts` holds it to the schema.
 */
export function importIssuesInputAsIs(input: unknown): ImportIssuesInput | null {
  if (!isPlainObject(input) || !onlyKeys(input, INPUT_KEYS)) return null;
  if (typeof input.project !== 'string' || !SHORT_NAME.test(input.project)) return null;
  if (input.assigneeGroup !== undefined && !isText(input.assigneeGroup, MAX_NAME)) return null;
  const issues = input.issues;
  if (!Array.isArray(issues) || issues.length > MAX_IMPORT_ISSUES_PER_REQUEST) return null;
  for (let i = 0; i < issues.length; i++) {
    const issue: unknown = issues[i];
    if (!isPlainObject(issue) || !onlyKeys(issue, ISSUE_KEYS)) return null;
    const fields = issue.fields;
    if (!Array.isArray(fields) || fields.length > MAX_FIELDS) return null;
    for (let f = 0; f < fields.length; f++) {
      const field: unknown = fields[f];
      if (!isPlainObject(field) || !onlyKeys(field, FIELD_KEYS)) return null;
      if (!isText(field.name, MAX_NAME) || !areTexts(field.values, BIG_TEXT, MAX_VALUES)) return null;
    }
    const comments = issue.comments;
    if (comments === undefined) continue;
    if (!Array.isArray(comments) || comments.length > MAX_COMMENTS) return null;
    for (let c = 0; c < comments.length; c++) {
      const comment: unknown = comments[c];
      if (!isPlainObject(comment) || !onlyKeys(comment, COMMENT_KEYS)) return null;
      if (!isText(comment.author, MAX_NAME) || !isText(comment.text, BIG_TEXT)) return null;
      if (!isText(comment.created, MAX_TIME)) return null;
      if (comment.updated !== undefined && !isText(comment.updated, MAX_TIME)) return null;
      if (comment.markdown !== undefined && !isText(comment.markdown, MAX_MARKDOWN)) return null;
    }
  }
  return input as ImportIssuesInput;
}

/**
 * The schemas whose parse a transport may skip for an input already in its output's form: the
 * check answers that input, or null (then parse). `/rest` consults it (rest/route-table.ts).
 */
const AS_IS = new Map<unknown, (input: unknown) => unknown>([[ZImportIssuesInput, importIssuesInputAsIs]]);
export const inputAsIsOf = (schema: unknown): ((input: unknown) => unknown) | undefined => AS_IS.get(schema);

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
