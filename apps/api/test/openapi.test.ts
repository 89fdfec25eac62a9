import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAIN_PATHS } from '../src/rest/openapi-plain-routes.js';
import { appRouter } from '../src/trpc/app.router.js';
import { operationsOf } from '../src/trpc/procedures.js';
import { startTestServer, type TestServer } from './harness.js';

type Parameter = { name: string; in: string; required?: boolean; schema?: { type?: string } };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, unknown> };
  responses: Record<string, { headers?: Record<string, unknown> }>;
  security?: unknown[];
};
type Document = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; scheme: string }> };
};

/** The admin and auth routes (this suite's scope), written out. */
const ROUTES = [
  'PUT /admin/customfield/userBundle/{bundle}/group/{group}',
  'DELETE /admin/customfield/userBundle/{bundle}/group/{group}',
  'GET /admin/project/{project}/assignee/group',
  'GET /admin/issueLinkType',
  'GET /admin/issueLinkType/{name}',
  'PUT /admin/issueLinkType/{name}',
  'POST /admin/issueLinkType/{name}',
  'DELETE /admin/issueLinkType/{name}',
  'GET /admin/issueLinkType/{name}/count',
  'GET /admin/role',
  'GET /admin/role/{role}',
  'PUT /admin/role/{role}',
  'POST /admin/role/{role}',
  'GET /admin/role/{role}/permission',
  'POST /admin/role/{role}/permission/{permission}',
  'DELETE /admin/role/{role}/permission/{permission}',
  'GET /admin/permission',
  'GET /admin/project',
  'PUT /admin/project',
  'GET /admin/project/{project}',
  'DELETE /admin/project/{project}',
  'PUT /admin/project/{project}',
  'GET /admin/projectTrash',
  'DELETE /admin/projectTrash/{project}',
  'POST /admin/projectTrash/{project}/restore',
  'GET /admin/systemuser',
  'GET /admin/user/{login}',
  'PUT /admin/user/{login}',
  'POST /admin/user/{login}/role/{role}',
  'DELETE /admin/user/{login}/role/{role}',
  'POST /admin/user/{login}/password',
  'DELETE /admin/user/{login}/sessions',
  'GET /admin/user',
  'POST /admin/user/{login}',
  'POST /admin/user',
  'DELETE /admin/user/{login}',
  'POST /admin/user/{login}/merge/{loginToMerge}',
  'GET /admin/user/{login}/role',
  'GET /admin/user/{login}/group',
  'POST /admin/user/{login}/group/{group}',
  'DELETE /admin/user/{login}/group/{group}',
  'GET /admin/group',
  'GET /admin/group/{group}',
  'PUT /admin/group/{group}',
  'POST /admin/group/{group}',
  'DELETE /admin/group/{group}',
  'GET /admin/group/{group}/role',
  'PUT /admin/group/{group}/role/{role}',
  'DELETE /admin/group/{group}/role/{role}',
  'PUT /user/token/{name}',
  'DELETE /user/token/{name}',
  'GET /user/token',
  'GET /admin/vcsIntegration',
  'GET /admin/vcsIntegration/{name}',
  'PUT /admin/vcsIntegration/{name}',
  'POST /admin/vcsIntegration/{name}',
  'DELETE /admin/vcsIntegration/{name}',
  'GET /admin/vcsIntegration/{name}/delivery',
  'GET /admin/vcsIntegration/{name}/delivery/{delivery}',
  'GET /admin/webhook',
  'GET /admin/webhook/{name}',
  'PUT /admin/webhook/{name}',
  'POST /admin/webhook/{name}',
  'DELETE /admin/webhook/{name}',
  'GET /admin/webhook/{name}/delivery',
  'POST /admin/webhook/{name}/delivery/{delivery}/redeliver',
  'GET /admin/project/{project}/timetracking',
  'PUT /admin/project/{project}/timetracking',
  'GET /admin/timetracking',
  'PUT /admin/timetracking',
  'GET /admin/timetracking/worktype',
  'POST /admin/timetracking/worktype',
  'GET /admin/timetracking/worktype/{name}',
  'PUT /admin/timetracking/worktype/{name}',
  'DELETE /admin/timetracking/worktype/{name}',
  'GET /admin/project/{project}/timetracking/worktype',
  'PUT /admin/project/{project}/timetracking/worktype/{workType}',
  'GET /admin/customfield/field',
  'GET /admin/customfield/field/{name}',
  'PUT /admin/customfield/field/{name}',
  'POST /admin/customfield/field/{name}',
  'DELETE /admin/customfield/field/{name}',
  'GET /admin/project/{project}/customfield',
  'GET /admin/project/{project}/customfield/{name}',
  'PUT /admin/project/{project}/customfield/{name}',
  'POST /admin/project/{project}/customfield/{name}',
  'DELETE /admin/project/{project}/customfield/{name}',
  'GET /admin/customfield/{bundleType}',
  'PUT /admin/customfield/{bundleType}',
  'GET /admin/customfield/{bundleType}/{bundle}',
  'DELETE /admin/customfield/{bundleType}/{bundle}',
  'PUT /admin/customfield/{bundleType}/{bundle}/{value}',
  'POST /admin/customfield/{bundleType}/{bundle}/{value}',
  'POST /admin/customfield/{bundleType}/{bundle}',
  'DELETE /admin/customfield/{bundleType}/{bundle}/{value}',
  'PUT /admin/customfield/userBundle/{bundle}/individual/{login}',
  'DELETE /admin/customfield/userBundle/{bundle}/individual/{login}',
  'GET /admin/project/{project}/subsystem',
  'GET /admin/project/{project}/subsystem/{name}',
  'PUT /admin/project/{project}/subsystem/{name}',
  'DELETE /admin/project/{project}/subsystem/{name}',
  'GET /admin/project/{project}/version',
  'GET /admin/project/{project}/version/{name}',
  'PUT /admin/project/{project}/version/{name}',
  'POST /admin/project/{project}/version/{name}',
  'DELETE /admin/project/{project}/version/{name}',
  'GET /admin/project/{project}/build',
  'PUT /admin/project/{project}/build/{name}',
  'GET /admin/project/{project}/assignee',
  'PUT /admin/project/{project}/assignee/{login}',
  'DELETE /admin/project/{project}/assignee/{login}',
].sort();

let server: TestServer;
let doc: Document;

beforeAll(async () => {
  server = await startTestServer();
  const res = await server.request('GET', '/rest/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json;charset=UTF-8');
  doc = res.json();
});
afterAll(() => server.close());

const operation = (route: string): Operation => {
  const [method, path] = route.split(' ') as [string, string];
  const op = doc.paths[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`${route} is not documented`);
  return op;
};
/** `in:name` of each parameter, `!` marking the required ones. */
const params = (route: string) =>
  (operation(route).parameters ?? []).map((p) => `${p.in}:${p.name}${p.required ? '!' : ''}`).sort();

describe('GET /rest/openapi.json', () => {
  it('is an OpenAPI 3.1 document served without credentials, also at /openapi.json', async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const alias = await server.request('GET', '/openapi.json');
    expect(alias.status).toBe(200);
    expect(alias.json()).toEqual(doc);
  });

  it('names this server (as addressed) with the /rest prefix', () => {
    expect(doc.servers).toEqual([{ url: `${server.url}/rest` }]);
  });

  it('documents every admin and auth route', () => {
    const documented = Object.entries(doc.paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .filter((route) => / \/(admin|user\/token)(\/|$)/.test(route))
      .filter((route) => !route.startsWith('SERVERS '))
      .sort();
    expect(documented).toEqual(ROUTES);
  });

  it('documents every procedure that declares a REST route (the generator drops none)', () => {
    const declared = [...operationsOf(appRouter).values()]
      .flatMap((operation) => {
        const openapi = operation.meta.openapi;
        return openapi ? [`${openapi.method} ${openapi.path}`] : [];
      })
      .sort();
    expect(declared.length).toBeGreaterThanOrEqual(ROUTES.length);
    // Besides the procedures: the plain routes (login, hooks, attachment uploads and downloads,
    // this document, the docs page, tRPC); a plain route may share its path with a procedure.
    const plain = new Set(
      Object.entries(PLAIN_PATHS).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    const documented = Object.entries(doc.paths)
      .filter(([path]) => path !== '/trpc/{procedure}')
      .flatMap(([path, item]) =>
        Object.keys(item)
          .filter((key) => ['get', 'put', 'post', 'delete', 'patch'].includes(key))
          .map((method) => `${method.toUpperCase()} ${path}`),
      )
      .filter((route) => !plain.has(route))
      .sort();
    expect(documented).toEqual(declared);
  });

  it('documents only routes that exist: each answers 401 without credentials, not "No resource"', async () => {
    for (const route of ROUTES) {
      const [method, template] = route.split(' ') as [string, string];
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) =>
        name === 'permission' ? 'READ_ISSUE' : 'ABC',
      );
      const res = await server.request(method, `/rest${path}`);
      expect(res.status, route).toBe(401);
    }
  });

  it('documents Basic and Bearer (perm: token) security on every operation', () => {
    expect(doc.components.securitySchemes.Basic).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(doc.components.securitySchemes.Authorization).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const route of ROUTES) {
      expect(operation(route).security, route).toEqual([{ Authorization: [] }, { Basic: [] }]);
    }
  });
});

describe('PUT/POST parameters are documented as the query parameters legacy clients send', () => {
  it('PUT /admin/project/{project}: projectName, startingNumber, projectLeadLogin, lead, description', () => {
    expect(params('PUT /admin/project/{project}')).toEqual([
      'path:project!',
      'query:description',
      'query:lead',
      'query:projectLeadLogin',
      'query:projectName!',
      'query:startingNumber',
    ]);
    const startingNumber = operation('PUT /admin/project/{project}').parameters?.find(
      (p) => p.name === 'startingNumber',
    );
    expect(startingNumber?.schema?.type).toBe('integer');
  });

  it('PUT and POST /admin/issueLinkType/{name}', () => {
    expect(params('PUT /admin/issueLinkType/{name}')).toEqual([
      'path:name!',
      'query:aggregation',
      'query:directed',
      'query:inwardName',
      'query:outwardName!',
    ]);
    expect(params('POST /admin/issueLinkType/{name}')).toEqual([
      'path:name!',
      'query:aggregation',
      'query:directed',
      'query:inwardName',
      'query:newName',
      'query:outwardName',
    ]);
  });

  it('PUT and POST /admin/role/{role}', () => {
    expect(params('PUT /admin/role/{role}')).toEqual(['path:role!', 'query:description']);
    expect(params('POST /admin/role/{role}')).toEqual(['path:role!', 'query:description', 'query:newName']);
  });

  it('user routes', () => {
    expect(params('PUT /admin/user/{login}')).toEqual([
      'path:login!',
      'query:email',
      'query:fullName',
      'query:password',
    ]);
    expect(params('POST /admin/user/{login}/role/{role}')).toEqual([
      'path:login!',
      'path:role!',
      'query:project',
    ]);
    expect(params('DELETE /admin/user/{login}/role/{role}')).toEqual([
      'path:login!',
      'path:role!',
      'query:project',
    ]);
  });

  it('a JSON body stays possible but optional wherever query parameters are documented', () => {
    for (const route of ROUTES.filter((r) => /^(PUT|POST) /.test(r))) {
      const body = operation(route).requestBody;
      if (body) expect(body.required, route).toBe(false);
    }
  });

  it('PUT /admin/project takes a document: an optional JSON or XML body, no query parameters', () => {
    const op = operation('PUT /admin/project');
    expect(op.parameters ?? []).toEqual([]);
    expect(op.requestBody?.required).toBe(false);
    expect(Object.keys(op.requestBody?.content ?? {}).sort()).toEqual([
      'application/json',
      'application/xml',
    ]);
  });
});

describe('responses', () => {
  it('every creating PUT documents 201 Created with a Location header, as the server answers', () => {
    const all = Object.entries(doc.paths).flatMap(([path, item]) => ('put' in item ? [`PUT ${path}`] : []));
    // The import PUTs answer 200 with one result per imported item (the original's importReport);
    // the time tracking PUTs change settings or a work item and answer 200 with the new state.
    const updating = all.filter(
      (r) => r.startsWith('PUT /import/') || r.endsWith('/timetracking') || r.endsWith('{workItem}'),
    );
    expect(updating.sort()).toEqual([
      'PUT /admin/project/{project}/timetracking',
      'PUT /admin/timetracking',
      'PUT /import/issue/{issue}/workitems',
      'PUT /import/links',
      'PUT /import/users',
      'PUT /import/{project}/issues',
      'PUT /issue/{issue}/timetracking/workitem/{workItem}',
    ]);
    for (const route of updating) expect(Object.keys(operation(route).responses), route).toContain('200');
    const puts = all.filter((r) => !updating.includes(r));
    expect(puts).toEqual(
      expect.arrayContaining(ROUTES.filter((r) => r.startsWith('PUT ') && !updating.includes(r))),
    );
    for (const route of puts) {
      const responses = operation(route).responses;
      expect(Object.keys(responses), route).toContain('201');
      expect(Object.keys(responses), route).not.toContain('200');
      expect(responses['201']?.headers, route).toHaveProperty('Location');
    }
  });

  it('documents the refusals a create can meet', () => {
    expect(Object.keys(operation('PUT /admin/project/{project}').responses).sort()).toEqual([
      '201',
      '400',
      '401',
      '403',
      '409',
    ]);
  });
});

describe('true to the wire', () => {
  const operations = () =>
    Object.values(doc.paths).flatMap((item) =>
      Object.entries(item as Record<string, unknown>)
        .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch'].includes(method))
        .map(
          ([, op]) =>
            op as {
              parameters?: { name: string; description?: string }[];
              responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
            },
        ),
    );

  it('describes every parameter', () => {
    const undescribed = operations().flatMap((op) =>
      (op.parameters ?? []).filter((p) => !p.description?.trim()).map((p) => p.name),
    );
    expect(undescribed).toEqual([]);
  });

  it('shows no safe-integer bound as if it were a limit', () => {
    expect(JSON.stringify(doc)).not.toMatch(/9007199254740991/);
  });

  it('documents errors as the server writes them: <error> in XML, {value, code, status} in JSON', () => {
    const schema = (doc.components as unknown as { schemas: Record<string, { required?: string[] }> }).schemas
      .Error;
    expect(schema?.required).toEqual(['value', 'code', 'status']);
    const errors = operations().flatMap((op) =>
      Object.entries(op.responses).filter(([status, r]) => Number(status) >= 400 && r.content),
    );
    expect(errors.length).toBeGreaterThan(100);
    for (const [, response] of errors) {
      const types = Object.keys(response.content ?? {});
      if (types.includes('application/json') && response.content?.['application/json']?.schema?.$ref)
        expect(response.content?.['application/json']?.schema?.$ref).toBe('#/components/schemas/Error');
    }
    expect(JSON.stringify(doc)).not.toMatch(/#\/components\/schemas\/error\./);
  });

  it('lists legacy XML first where it is the default answer, JSON first where JSON is', () => {
    const get = (path: string) =>
      Object.keys(
        ((doc.paths as Record<string, Record<string, { responses: Record<string, { content?: object }> }>>)[
          path
        ]?.get?.responses['200']?.content ?? {}) as object,
      );
    expect(get('/issue/{issue}')).toEqual(['application/xml', 'application/json']);
    expect(get('/command/suggest')[0]).toBe('application/json');
    expect(get('/command/suggest')).toContain('application/xml');
  });
});
