import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RequestOptions, startTestServer, type TestServer, userWithRole } from './harness.js';

/**
 * The tRPC-only procedures the console reads and writes through (`issues.view`, `issues.list`,
 * `commands.execute`, `projects.fieldOptions`, `userProfiles.me`), over `/trpc` as the browser
 * sends them. The permission matrix covers who may call them (permissions.caller.test.ts).
 */

let server: TestServer;
const asRoot: RequestOptions = { user: 'root' };
const asDev: RequestOptions = { user: 'dev' };

const query = async (path: string, input: unknown, options = asRoot) => {
  const res = await server.request(
    'GET',
    `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`,
    options,
  );
  return { status: res.status, body: res.json() };
};
const mutate = async (path: string, input: unknown, options = asRoot) => {
  const res = await server.request('POST', `/trpc/${path}`, {
    ...options,
    contentType: 'application/json',
    body: JSON.stringify(input),
  });
  return { status: res.status, body: res.json() };
};
const ok = async (call: Promise<{ status: number; body: { result?: { data: unknown } } }>) => {
  const { status, body } = await call;
  expect(status, JSON.stringify(body)).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: assertions read the JSON answer
  return body.result?.data as any;
};
const rest = (method: string, path: string, body?: string) =>
  server.request(method, `/rest${path}`, {
    ...asRoot,
    accept: 'application/json',
    ...(body ? { body, contentType: 'application/x-www-form-urlencoded' } : {}),
  });

beforeAll(async () => {
  server = await startTestServer();
  expect((await rest('PUT', '/admin/project/CON?projectName=Console&projectLeadLogin=root')).status).toBe(
    201,
  );
  expect((await rest('PUT', '/admin/project/OFF?projectName=Off+limits&projectLeadLogin=root')).status).toBe(
    201,
  );
  await userWithRole(server.orm, 'dev', 'Developer', 'CON');
  expect((await rest('PUT', '/admin/project/CON/assignee/dev')).status).toBe(201);
  // Critical gets a colour (index 8 of the palette: #8e1600 on white).
  expect((await rest('POST', '/admin/customfield/bundle/CON:%20Priority/Critical?colorIndex=8')).status).toBe(
    200,
  );
  for (const summary of ['first', 'second', 'third'])
    expect((await rest('PUT', `/issue?project=CON&summary=${summary}`)).status).toBe(201);
  expect((await rest('PUT', '/issue?project=OFF&summary=hidden')).status).toBe(201);
});
afterAll(() => server.close());

describe('issues.view', () => {
  it('types every attribute and gives each field its kind and each bundle value its colour', async () => {
    const executed = await rest(
      'POST',
      '/issue/CON-1/execute',
      'command=Priority+Critical+for+dev&comment=typed',
    );
    expect(executed.status, executed.text).toBe(200);
    const issue = await ok(query('issues.view', { issue: 'con-1' }, asDev));
    expect(issue).toMatchObject({
      id: 'CON-1',
      project: { shortName: 'CON', name: 'Console' },
      numberInProject: 1,
      summary: 'first',
      description: '',
      reporter: { login: 'root' },
      updater: { login: 'root' },
      resolved: null,
      attachments: [],
      votes: 0,
      votedByMe: false,
    });
    expect(typeof issue.created).toBe('number');
    const field = (name: string) => issue.fields.find((f: { name: string }) => f.name === name);
    expect(field('Priority')).toEqual({
      name: 'Priority',
      kind: 'enum',
      multi: false,
      emptyText: null,
      values: [{ name: 'Critical', color: { bg: '#8e1600', fg: '#ffffff' } }],
    });
    expect(field('State').values).toEqual([{ name: 'Submitted', resolved: false, color: null }]);
    expect(field('Assignee')).toMatchObject({
      kind: 'user',
      values: [{ name: 'dev', fullName: expect.any(String), color: null }],
    });
    // Empty fields are listed too (the legacy shape leaves them out).
    expect(field('Fix versions')).toMatchObject({
      kind: 'version',
      multi: true,
      emptyText: 'Unscheduled',
      values: [],
    });
    expect(issue.comments).toMatchObject([{ author: { login: 'root' }, text: 'typed', updated: null }]);
  });

  it('answers an issue the caller cannot read as missing', async () => {
    const { status, body } = await query('issues.view', { issue: 'OFF-1' }, asDev);
    expect(status).toBe(404);
    expect(body.error.data.errorCode).toBe('NOT_FOUND');
  });
});

describe('issues.list', () => {
  it('answers a page of typed issues, newest first, and how many match in all', async () => {
    const page = await ok(query('issues.list', { filter: 'project: CON', max: 2 }, asDev));
    expect(page.total).toBe(3);
    expect(page.issues.map((i: { id: string }) => i.id)).toEqual(['CON-3', 'CON-2']);
    const next = await ok(query('issues.list', { filter: 'project: CON', max: 2, after: 2 }, asDev));
    expect(next.issues.map((i: { id: string }) => i.id)).toEqual(['CON-1']);
    // Only readable issues count.
    expect((await ok(query('issues.list', {}, asDev))).total).toBe(3);
  });

  it('names `filter` when the query is bad', async () => {
    const { status, body } = await query('issues.list', { filter: 'Nonsense: x' });
    expect(status).toBe(400);
    expect(body.error.data.issues[0].field).toBe('filter');
  });
});

describe('commands.execute', () => {
  it('applies a command to a selection and answers the changed issues at once', async () => {
    const { issues } = await ok(
      mutate(
        'commands.execute',
        { issues: ['CON-2', 'CON-3'], command: 'Priority Major', comment: 'both' },
        asDev,
      ),
    );
    expect(issues.map((i: { id: string }) => i.id)).toEqual(['CON-2', 'CON-3']);
    for (const issue of issues) {
      expect(issue.fields.find((f: { name: string }) => f.name === 'Priority').values[0].name).toBe('Major');
      expect(issue.comments.at(-1).text).toBe('both');
    }
  });

  it('applies a command to what a query matches', async () => {
    const { issues } = await ok(
      mutate('commands.execute', { query: 'project: CON #Unresolved', command: 'Open' }, asDev),
    );
    expect(issues).toHaveLength(3);
    expect(
      issues.every(
        (i: { fields: { name: string; values: { name: string }[] }[] }) =>
          i.fields.find((f) => f.name === 'State')?.values[0]?.name === 'Open',
      ),
    ).toBe(true);
  });

  it('refuses a bad command with 400 naming `command`, and changes nothing', async () => {
    const { status, body } = await mutate(
      'commands.execute',
      { issues: ['CON-1'], command: 'Priority Nope' },
      asDev,
    );
    expect(status).toBe(400);
    expect(body.error.data.issues[0].field).toBe('command');
    const issue = await ok(query('issues.view', { issue: 'CON-1' }, asDev));
    expect(issue.fields.find((f: { name: string }) => f.name === 'Priority').values[0].name).toBe('Critical');
  });
});

describe('projects.fieldOptions and userProfiles.me', () => {
  it('lists what each field may take, with colours', async () => {
    const fields = await ok(query('projects.fieldOptions', { project: 'CON' }, asDev));
    const priority = fields.find((f: { name: string }) => f.name === 'Priority');
    expect(priority.values.find((v: { name: string }) => v.name === 'Critical').color).toEqual({
      bg: '#8e1600',
      fg: '#ffffff',
    });
    expect(priority.values.find((v: { name: string }) => v.name === 'Minor').color).toBeNull();
    expect(
      fields.find((f: { name: string }) => f.name === 'Assignee').values.map((v: { name: string }) => v.name),
    ).toContain('dev');
  });

  it('tells the caller what they may do, globally and per project', async () => {
    const me = await ok(query('userProfiles.me', {}, asDev));
    expect(me).toMatchObject({ login: 'dev', type: 'user', permissions: [] });
    expect(me.projects.map((p: { shortName: string }) => p.shortName)).toEqual(['CON']);
    expect(me.projects[0].permissions).toContain('UPDATE_ISSUE');
    const root = await ok(query('userProfiles.me', {}));
    expect(root.permissions).toContain('LOW_LEVEL_ADMIN');
    expect(root.projects.map((p: { shortName: string }) => p.shortName).sort()).toEqual(['CON', 'OFF']);
  });
});
