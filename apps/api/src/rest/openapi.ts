import { generateOpenApiDocument } from 'trpc-to-openapi';
import type { AppRouter } from '../trpc/app.router.js';
import { operationsOf } from '../trpc/procedures.js';
import { GROUPS, groupOf } from './openapi-groups.js';
import { PLAIN_PATHS, rootPaths, VCS_API_KEY_SCHEME } from './openapi-plain-routes.js';
import { describeWire } from './openapi-wire.js';

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
      'YouTrack-compatible /rest API. Answers are legacy XML by default (also for `Accept: */*`), JSON with ' +
      '`Accept: application/json` (the command assist routes default to JSON). PUT/POST parameters are ' +
      'accepted as query parameters, form fields, multipart fields or a JSON body. Errors are ' +
      '`<error>message</error>` in XML and `{value, code, status, issues?}` in JSON.',
    securitySchemes: {
      Authorization: { type: 'http', scheme: 'bearer', description: 'perm:... permanent token' },
      Basic: { type: 'http', scheme: 'basic' },
    },
  });
  // Only the hook receivers use the integration key: added after generation, which would
  // otherwise list it on every operation.
  const components = (doc.components ?? {}) as { securitySchemes?: Record<string, unknown> };
  components.securitySchemes = { ...components.securitySchemes, VcsApiKey: VCS_API_KEY_SCHEME };
  doc.components = components as typeof doc.components;
  const rootUrl = baseUrl.replace(/\/rest$/, '');
  const paths = (doc.paths ?? {}) as Record<string, Record<string, unknown>>;
  // Plain routes may share a path with procedures (`/issue/{issue}/attachment`): merged per method.
  for (const [path, item] of Object.entries({ ...structuredClone(PLAIN_PATHS), ...rootPaths(rootUrl) }))
    paths[path] = { ...paths[path], ...(item as Record<string, unknown>) };
  // The document itself is also served at the root.
  (paths['/openapi.json'] as Json).servers = [{ url: baseUrl }, { url: rootUrl }];
  doc.paths = paths as typeof doc.paths;
  doc.tags = declaredGroups(paths);
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
  describeWire(doc, operationsOf(router));
  return doc;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Each operation in one group (as the original's documentation groups it), the groups listed in order. */
function groupOperations(paths: Record<string, Record<string, unknown>>) {
  const used = new Set<string>();
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method] as { tags?: string[] } | undefined;
      if (!op) continue;
      const group = groupOf(path);
      op.tags = [group];
      used.add(group);
    }
  }
  return used;
}

/** The top-level tag list of the groups in use (linters require every operation tag declared). */
export function declaredGroups(paths: Record<string, Record<string, unknown>>) {
  const used = groupOperations(paths);
  return GROUPS.filter((g) => used.has(g.name)).map((g) => ({ name: g.name, description: g.description }));
}
