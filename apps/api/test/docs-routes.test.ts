import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PLAIN_PATHS } from '../src/rest/openapi-plain-routes.js';
import { createRouteTable } from '../src/rest/route-table.js';
import { appRouter } from '../src/trpc/app.router.js';

/*
 * docs/api.md "Served legacy routes" lists every route the server answers under /rest: each route of
 * the route table and each plain route, written as `METHOD /rest/path` (issue 12, "Done when").
 */
const readme = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
const start = readme.indexOf('## Served legacy routes');
const section = readme.slice(start, readme.indexOf('\n## ', start + 1));

describe('docs/api.md lists the served legacy routes', () => {
  it('has the section', () => expect(start).toBeGreaterThan(0));

  it('names every route of the route table and every plain /rest route', () => {
    const routes = [
      ...createRouteTable(appRouter).routes.map((r) => `${r.method} ${r.path}`),
      ...Object.entries(PLAIN_PATHS).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((m) => ['get', 'put', 'post', 'delete', 'patch'].includes(m))
          .map((m) => `${m.toUpperCase()} ${path}`),
      ),
    ];
    const missing = routes.filter((route) => {
      const [method, path] = route.split(' ') as [string, string];
      return !section.includes(`\`${method} /rest${path}\``);
    });
    expect(
      missing,
      'add these to docs/api.md "Served legacy routes" (with any difference from the original)',
    ).toEqual([]);
  });
});
