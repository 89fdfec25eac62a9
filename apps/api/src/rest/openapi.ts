import { generateOpenApiDocument } from 'trpc-to-openapi';
import type { AppRouter } from '../trpc/app.router.js';

type Json = Record<string, unknown>;
type Operation = {
  parameters?: Json[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json }> };
  responses?: Record<string, Json>;
};

/** Procedures whose input is genuinely a document body, not query parameters. */
const BODY_ROUTES = new Set(['PUT /admin/project']);
/**
 * The import routes: PUTs that answer 200 with per-item results instead of creating one
 * resource (201); their lists (users, issues, links) are the XML document, only their
 * scalar options (`test`, `assigneeGroup`) are also query parameters.
 */
const IMPORT_ROUTES = /^\/import\//;
/** PUTs that change what exists (settings, a work item): 200 with the new state, not 201. */
const UPDATING_PUTS = /\/timetracking(\/workitem\/\{workItem\})?$/;

/**
 * The generated document describes PUT/POST inputs as a JSON body. Legacy clients send
 * them as query parameters (which the REST bridge merges), so each body property is also
 * documented as an `in: query` parameter and the body becomes optional.
 */
export function buildOpenApiDocument(router: AppRouter, baseUrl: string) {
  const doc = generateOpenApiDocument(router, {
    title: 'Trackline legacy REST API',
    version: '1.0.0',
    baseUrl,
    description:
      'YouTrack-compatible /rest API. XML by default, JSON with Accept: application/json. ' +
      'PUT/POST parameters are accepted as query parameters, form fields or a JSON body.',
    securitySchemes: {
      Authorization: { type: 'http', scheme: 'bearer', description: 'perm:... permanent token' },
      Basic: { type: 'http', scheme: 'basic' },
    },
  });
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of ['put', 'post', 'patch'] as const) {
      const op = (item as Record<string, Operation | undefined>)[method];
      if (
        method === 'put' &&
        op?.responses?.['200'] &&
        !IMPORT_ROUTES.test(path) &&
        !UPDATING_PUTS.test(path)
      ) {
        // Every PUT creates (see `created()` in routers/respond.ts): 201 with a Location header.
        const { '200': ok, ...others } = op.responses;
        op.responses = {
          '201': {
            ...ok,
            description: 'Created',
            headers: { Location: { description: 'URL of the created resource', schema: { type: 'string' } } },
          },
          ...others,
        };
      }
      if (!op?.requestBody) continue;
      const schema = op.requestBody.content?.['application/json']?.schema as
        | { properties?: Record<string, Json>; required?: string[] }
        | undefined;
      op.requestBody.required = false;
      if (BODY_ROUTES.has(`${method.toUpperCase()} ${path}`) || !schema?.properties) continue;
      const existing = new Set((op.parameters ?? []).map((p) => p.name));
      op.parameters = [
        ...(op.parameters ?? []),
        ...Object.entries(schema.properties)
          .filter(
            ([name, property]) =>
              !existing.has(name) && !(IMPORT_ROUTES.test(path) && property.type === 'array'),
          )
          .map(([name, propertySchema]) => ({
            name,
            in: 'query',
            required: schema.required?.includes(name) ?? false,
            schema: propertySchema,
          })),
      ];
    }
  }
  addPlainRoutes(doc.paths as Record<string, Record<string, unknown>>);
  return doc;
}

const issueParameter = { name: 'issue', in: 'path', required: true, schema: { type: 'string' } };
const multipartUpload = (summary: string, description: string, extra: Json[] = []) => ({
  summary,
  description,
  tags: ['Attachments'],
  security: [{ Authorization: [] }, { Basic: [] }],
  parameters: [issueParameter, ...extra],
  requestBody: {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          properties: { files: { type: 'array', items: { type: 'string', format: 'binary' } } },
        },
      },
    },
  },
  responses: {
    '201': {
      description: "Stored; `Location` is the first file's download URL (JSON: the stored files)",
      headers: { Location: { description: 'Download URL', schema: { type: 'string' } } },
    },
    '400': { description: 'Not a multipart form, or no file in it' },
    '401': { description: 'No or bad credentials' },
    '403': { description: 'Missing permission' },
    '404': { description: 'No such (readable) issue' },
    '413': { description: 'A file is larger than TRACKLINE_MAX_ATTACHMENT_BYTES' },
    '415': { description: 'Not multipart/form-data' },
  },
});

/**
 * The attachment routes served beside the procedures (`attachments/attachments.route.ts`):
 * multipart uploads and the download URL, documented here by hand.
 */
export const PLAIN_ROUTES = {
  '/issue/{issue}/attachment': {
    post: multipartUpload(
      'Attach files to an issue (CREATE_ATTACHMENT_ISSUE)',
      'Every file part of the form is stored, whatever its field name.',
    ),
  },
  '/import/{issue}/attachment': {
    post: multipartUpload(
      'Import attachments with their author, group and time (IMPORT_DATA)',
      'An unknown `authorLogin` becomes a system-user reference; `group` is recorded, not enforced.',
      [
        { name: 'authorLogin', in: 'query', required: false, schema: { type: 'string' } },
        { name: 'group', in: 'query', required: false, schema: { type: 'string' } },
        { name: 'created', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
      ],
    ),
  },
  '/issue/{issue}/attachment/{attachment}': {
    get: {
      summary: 'Download an attachment (readers of the issue only)',
      tags: ['Attachments'],
      security: [{ Authorization: [] }, { Basic: [] }],
      parameters: [
        issueParameter,
        { name: 'attachment', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
      ],
      responses: {
        '200': {
          description: 'The file (`Content-Disposition: attachment`)',
          content: { 'application/octet-stream': {} },
        },
        '401': { description: 'No or bad credentials' },
        '404': { description: 'No such attachment on a readable issue' },
      },
    },
  },
} as const;

function addPlainRoutes(paths: Record<string, Record<string, unknown>>) {
  for (const [path, operations] of Object.entries(PLAIN_ROUTES))
    paths[path] = { ...paths[path], ...operations };
}
