import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectJson,
  expectNoStackTraces,
  expectXml,
  JSON_ACCEPT,
  startTestServer,
  type TestServer,
} from '../harness.js';
import { createIssue, mustExecute, NO_ROLES, q, root, setUpWorld } from '../issue-fixtures.js';

/*
 * `GET /rest/issue/{id}/changes` (the original's "Get Historical Changes of an Issue"; legacy-clients.md,
 * "history"): `<changes><change><field name="State"><newValue>Open</newValue><oldValue>Reopened</oldValue>
 * </field>…<field name="updated"><value>ms</value></field><field name="updaterName"><value>root</value>
 * </field></change>…</changes>`. JSON drops the root: an array of `{field: [...]}`.
 */

let server: TestServer;
let id: string;

beforeAll(async () => {
  server = await startTestServer();
  await setUpWorld(server);
  id = await createIssue(server, 'Before');
  await mustExecute(server, id, 'Priority Critical');
  const update = await root(server, 'POST', `/rest/issue/${id}${q({ summary: 'After' })}`);
  if (update.status !== 200) throw new Error(update.text);
});
afterAll(() => server.close());

describe('GET /rest/issue/{id}/changes', () => {
  it('XML: changes > change > field name with newValue/oldValue, then updated and updaterName values', async () => {
    const res = await root(server, 'GET', `/rest/issue/${id}/changes`);
    expectXml(res, 200);
    const body = res.text.replace(/^<\?xml[^>]*\?>/, '');
    expect(body).toMatch(/^<changes><change>.*<\/change><\/changes>$/);
    const changes = body.match(/<change>.*?<\/change>/g) ?? [];
    expect(changes).toHaveLength(2);
    expect(changes[0]).toMatch(
      /^<change><field name="Priority"><newValue>Critical<\/newValue><oldValue>Normal<\/oldValue><\/field><field name="updated"><value>\d+<\/value><\/field><field name="updaterName"><value>root<\/value><\/field><\/change>$/,
    );
    expect(changes[1]).toContain(
      '<field name="summary"><newValue>After</newValue><oldValue>Before</oldValue></field>',
    );
  });

  it('JSON: an array of {field: [{name, oldValue, newValue} …, {name: "updated", value}, {name: "updaterName", value}]}', async () => {
    const json = expectJson(
      await root(server, 'GET', `/rest/issue/${id}/changes`, { accept: JSON_ACCEPT }),
      200,
    );
    expect(json).toHaveLength(2);
    expect(json[0].field[0]).toEqual({ name: 'Priority', oldValue: ['Normal'], newValue: ['Critical'] });
    expect(json[0].field.map((f: { name: string }) => f.name)).toEqual([
      'Priority',
      'updated',
      'updaterName',
    ]);
    expect(json[0].field[2]).toEqual({ name: 'updaterName', value: 'root' });
  });

  it('a hidden or missing issue is 404', async () => {
    expect((await server.request('GET', `/rest/issue/${id}/changes`, { user: NO_ROLES })).status).toBe(404);
    expect((await root(server, 'GET', '/rest/issue/PRJ-99999/changes')).status).toBe(404);
  });

  it('no answer carries a stack trace', () => expectNoStackTraces(server));
});
