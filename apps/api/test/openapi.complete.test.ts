import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouteTable } from '../src/rest/route-table.js';
import { appRouter } from '../src/trpc/app.router.js';
import { startTestServer, type TestServer } from './harness.js';

/*
 * Issue 12, "Done when": the OpenAPI document describes every route the server answers
 * (procedures, login, logout, the hook receivers, the document, the docs page, tRPC) and passes
 * a standard linter's recommended rules (Redocly's `recommended`) with no error.
 */

type Operation = { tags?: string[]; security?: unknown[] };
type Document = {
  paths: Record<string, Record<string, Operation | unknown>>;
  tags: { name: string }[];
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

let server: TestServer;
let text: string;
let doc: Document;

beforeAll(async () => {
  server = await startTestServer();
  const res = await server.request('GET', '/rest/openapi.json');
  text = res.text;
  doc = res.json();
});
afterAll(() => server.close());

const documented = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((method) => METHODS.includes(method))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );

describe('the OpenAPI document', () => {
  it('passes Redocly’s recommended rules with no error', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: text, absoluteRef: 'openapi.json', config });
    const errors = problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`);
    expect(errors).toEqual([]);
  });

  it('uses one parameter name per path position (no identical templated paths)', () => {
    const shapes = new Map<string, string>();
    for (const path of Object.keys(doc.paths)) {
      const shape = path.replace(/\{[^}]+\}/g, '{}');
      expect(shapes.get(shape) ?? path, `${path} and ${shapes.get(shape)}`).toBe(path);
      shapes.set(shape, path);
    }
  });

  it('describes every route of the route table (every REST procedure)', () => {
    const routes = createRouteTable(appRouter).routes.map((r) => `${r.method} ${r.path}`);
    expect(routes.length).toBeGreaterThan(40);
    const all = new Set(documented());
    expect(routes.filter((r) => !all.has(r))).toEqual([]);
  });

  it('describes the plain routes: login, logout, the hook receivers, this document, the docs page, tRPC', () => {
    expect(documented()).toEqual(
      expect.arrayContaining([
        'POST /user/login',
        'POST /user/logout',
        'POST /vcsHooksReceiver/{host}',
        'GET /openapi.json',
        'GET /docs',
        'GET /docs/{asset}',
        'GET /trpc/{procedure}',
        'POST /trpc/{procedure}',
      ]),
    );
  });

  it('every documented operation is answered (never "No resource")', async () => {
    for (const route of documented()) {
      const [method, template] = route.split(' ') as [string, string];
      const path = template
        .replace('{host}', 'github')
        .replace('{asset}', 'swagger-ui.css')
        .replace('{procedure}', 'issues.get')
        .replace(/\{(\w+)\}/g, (_, name: string) => (name === 'permission' ? 'READ_ISSUE' : 'ABC'));
      const url = template.startsWith('/trpc/') ? path : `/rest${path}`;
      const res = await server.request(method, url, { user: 'root' });
      expect(res.text, route).not.toMatch(/No resource at/);
      expect(res.status, `${route}: ${res.text.slice(0, 200)}`).not.toBe(500);
    }
  });

  it('groups every operation under a declared tag, as the original’s documentation groups routes', () => {
    const declared = new Set(doc.tags.map((t) => t.name));
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method] as Operation | undefined;
        if (!op) continue;
        expect(op.tags?.length, `${method} ${path}`).toBe(1);
        expect(declared.has(op.tags?.[0] as string), `${method} ${path}: ${op.tags}`).toBe(true);
      }
    }
    const tagOf = (method: string, path: string) =>
      (doc.paths[path]?.[method] as Operation | undefined)?.tags?.[0];
    expect(tagOf('post', '/user/login')).toBe('Log in');
    expect(tagOf('get', '/issue/{issue}')).toBe('Issues');
    expect(tagOf('get', '/project/all')).toBe('Projects');
    expect(tagOf('get', '/user/current')).toBe('Users');
    expect(tagOf('get', '/admin/project/{project}')).toBe('Administration: Projects');
    expect(tagOf('get', '/admin/role')).toBe('Administration: Roles and Permissions');
    expect(tagOf('get', '/admin/issueLinkType')).toBe('Administration: Issue Link Types');
    expect(doc.tags.map((t) => t.name)).not.toContain('Other');
  });
});

describe('GET /rest/docs', () => {
  it('serves the page with a CSP allowing only this origin’s scripts, and nosniff', async () => {
    const res = await server.request('GET', '/rest/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html;charset=UTF-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).not.toMatch(/unsafe-eval/);
    // No inline script and nothing from another origin (no CDN).
    expect(res.text).not.toMatch(/<script>(?!<\/script>)/);
    expect(res.text).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('serves every script and style sheet the page names, from swagger-ui-dist', async () => {
    const page = (await server.request('GET', '/rest/docs')).text;
    const assets = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(assets).toEqual(
      expect.arrayContaining([
        '/rest/docs/swagger-ui-bundle.js',
        '/rest/docs/swagger-ui.css',
        '/rest/docs/start.js',
      ]),
    );
    for (const asset of assets) {
      const res = await server.request('GET', asset);
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      if (asset.endsWith('.js'))
        expect(res.headers.get('content-type')).toBe('text/javascript;charset=UTF-8');
      if (asset.endsWith('.css')) expect(res.headers.get('content-type')).toBe('text/css;charset=UTF-8');
    }
    expect((await server.request('GET', '/rest/docs/swagger-ui-bundle.js')).text).toMatch(/SwaggerUIBundle/);
    expect((await server.request('GET', '/rest/docs/start.js')).text).toMatch(/openapi\.json/);
  });

  it('serves nothing else of the package: an unknown asset or a path escape is 404', async () => {
    for (const path of [
      '/rest/docs/index.html',
      '/rest/docs/../package.json',
      '/rest/docs/%2e%2e%2fpackage.json',
    ]) {
      expect((await server.request('GET', path)).status, path).toBe(404);
    }
  });
});
