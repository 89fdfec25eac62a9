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
      if (method === 'put' && op?.responses?.['200'] && !IMPORT_ROUTES.test(path)) {
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
  return doc;
}
