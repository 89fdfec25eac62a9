import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PLAIN_PATHS } from '../src/rest/openapi-plain-routes.js';
import { createRouteTable } from '../src/rest/route-table.js';
import { appRouter } from '../src/trpc/app.router.js';

/*
 * docs/legacy-route-inventory.md (issue 36): every route the server serves is a row, each row's
 * "served" agrees with the server, and a route a public client uses is served, or its row says
 * why not.
 */

const page = readFileSync(new URL('../../../docs/legacy-route-inventory.md', import.meta.url), 'utf8');
type Row = { route: string; documented: string; served: string; usedBy: string; note: string };
const rows: Row[] = page
  .split('\n')
  .filter((line) => line.startsWith('| `'))
  .map((line) => {
    const [route = '', documented = '', served = '', usedBy = '', note = ''] = line
      .slice(1, -1)
      .split(' | ')
      .map((cell) => cell.trim());
    return { route: route.replace(/`/g, ''), documented, served, usedBy, note };
  });

const servedRoutes = new Set([
  ...createRouteTable(appRouter).routes.map((r) => `${r.method} ${r.path}`),
  ...Object.entries(PLAIN_PATHS).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => ['get', 'put', 'post', 'delete', 'patch'].includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  ),
]);

describe('docs/legacy-route-inventory.md', () => {
  it('has a row per served route, and nothing else claims to be served', () => {
    expect(rows.length).toBeGreaterThan(100);
    const listed = new Set(rows.map((r) => r.route));
    expect([...servedRoutes].filter((route) => !listed.has(route))).toEqual([]);
    expect(
      rows.filter((r) => (r.served === 'yes') !== servedRoutes.has(r.route)).map((r) => r.route),
    ).toEqual([]);
  });

  it('answers yes or no in the documented and served columns', () => {
    expect(rows.filter((r) => !/^(yes|no)$/.test(r.documented) || !/^(yes|no)$/.test(r.served))).toEqual([]);
  });

  it('serves every route a public client uses, or says why not', () => {
    const unexplained = rows.filter((r) => r.usedBy !== '—' && r.served !== 'yes' && r.note.length < 20);
    expect(unexplained.map((r) => r.route)).toEqual([]);
  });
});
