import { addFieldValue } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actorFor,
  fork,
  JSON_ACCEPT,
  type RequestOptions,
  startTestServer,
  type TestResponse,
  type TestServer,
  xmlError,
} from './harness.js';
import {
  compressedIdOf,
  createIssue,
  execute,
  expectNoLeaks,
  fieldOf,
  getIssueJson,
  issueSnapshot,
  NO_ROLES,
  PRJ,
  q,
  ROLE_USERS,
  SECRET,
  setUpWorld,
} from './issue-fixtures.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await setUpWorld(server);
});
afterAll(() => server.close());

type Caller = keyof typeof ROLE_USERS | 'No roles' | 'Anonymous';
type Action =
  | 'create issue'
  | 'get issue'
  | 'search'
  | 'execute field change'
  | 'execute link'
  | 'execute comment'
  | 'suggest'
  | 'folders list';

const LOGIN: Record<Caller, string | undefined> = {
  ...ROLE_USERS,
  'No roles': NO_ROLES,
  Anonymous: undefined,
};

/**
 * Expected HTTP status per caller and action. Every role is granted in PRJ only; the issues
 * acted on are PRJ issues. "No roles" cannot read PRJ at all, so its issues and the project
 * answer 404 (as if missing); a search simply finds nothing.
 */
// biome-ignore format: the matrix reads best one caller per line
const MATRIX: Record<Caller, Record<Action, number>> = {
  Admin: { 'create issue': 201, 'get issue': 200, search: 200, 'execute field change': 200, 'execute link': 200, 'execute comment': 200, suggest: 200, 'folders list': 200 },
  'Project Admin': { 'create issue': 201, 'get issue': 200, search: 200, 'execute field change': 200, 'execute link': 200, 'execute comment': 200, suggest: 200, 'folders list': 200 },
  Developer: { 'create issue': 201, 'get issue': 200, search: 200, 'execute field change': 200, 'execute link': 200, 'execute comment': 200, suggest: 200, 'folders list': 200 },
  Reporter: { 'create issue': 201, 'get issue': 200, search: 200, 'execute field change': 403, 'execute link': 200, 'execute comment': 200, suggest: 200, 'folders list': 200 },
  Observer: { 'create issue': 403, 'get issue': 200, search: 200, 'execute field change': 403, 'execute link': 403, 'execute comment': 403, suggest: 200, 'folders list': 200 },
  'No roles': { 'create issue': 404, 'get issue': 404, search: 200, 'execute field change': 404, 'execute link': 404, 'execute comment': 404, suggest: 404, 'folders list': 200 },
  Anonymous: { 'create issue': 401, 'get issue': 401, search: 401, 'execute field change': 401, 'execute link': 401, 'execute comment': 401, suggest: 401, 'folders list': 401 },
};

/** Who reads PRJ (sees its issues in search, its folder in the list). */
const READS_PRJ: Record<Caller, boolean> = {
  Admin: true,
  'Project Admin': true,
  Developer: true,
  Reporter: true,
  Observer: true,
  'No roles': false,
  Anonymous: false,
};
/** Who is offered field changes by the command assistant. */
const SUGGESTED_FIELDS: Record<Caller, boolean> = {
  Admin: true,
  'Project Admin': true,
  Developer: true,
  Reporter: false,
  Observer: false,
  'No roles': false,
  Anonymous: false,
};

const CALLERS = Object.keys(MATRIX) as Caller[];
const ACTIONS = Object.keys(MATRIX.Admin) as Action[];

describe.each(['xml', 'json'] as const)('permission matrix (%s)', (format) => {
  let target: string;
  beforeAll(async () => {
    target = await createIssue(server, `matrix target ${format}`);
  });

  const call = (caller: Caller, method: string, path: string, options: RequestOptions = {}) =>
    server.request(method, path, {
      ...(LOGIN[caller] ? { user: LOGIN[caller] } : {}),
      ...(format === 'json' ? { accept: JSON_ACCEPT } : {}),
      ...options,
    });

  /** The error message in the negotiated format (command assistance answers JSON unless asked). */
  const errorOf = (res: TestResponse, jsonByDefault = false) =>
    format === 'json' || jsonByDefault ? (res.json().value as string) : xmlError(res.text);

  /** A refused request: the expected message, and nothing changed. */
  async function expectRefused(
    res: TestResponse,
    status: number,
    before: Awaited<ReturnType<typeof issueSnapshot>>,
    messages: Record<number, string | RegExp>,
    jsonByDefault = false,
  ) {
    expect(res.status, res.text).toBe(status);
    const message = messages[status];
    if (message === undefined) throw new Error(`no message given for ${status}`);
    const text = errorOf(res, jsonByDefault);
    if (typeof message === 'string') expect(text).toBe(message);
    else expect(text).toMatch(message);
    expect(await issueSnapshot(server)).toEqual(before);
  }

  const ACT: Record<Action, (caller: Caller, expected: number) => Promise<void>> = {
    async 'create issue'(caller, expected) {
      const before = await issueSnapshot(server);
      const res = await call(caller, 'PUT', `/rest/issue${q({ project: PRJ, summary: `by ${caller}` })}`);
      if (expected !== 201) {
        return expectRefused(res, expected, before, {
          401: 'Authentication required.',
          403: `You have no rights to create issues in project [ ${PRJ} ].`,
          404: `Project [ ${PRJ} ] not found.`,
        });
      }
      expect(res.status, res.text).toBe(201);
      const id = (res.headers.get('location') ?? '').split('/').pop() as string;
      expect(fieldOf(await getIssueJson(server, id), 'reporterName')).toBe(LOGIN[caller]);
    },
    async 'get issue'(caller, expected) {
      const res = await call(caller, 'GET', `/rest/issue/${target}`);
      if (expected !== 200) {
        return expectRefused(res, expected, await issueSnapshot(server), {
          401: 'Authentication required.',
          404: `Issue [ ${target} ] not found.`,
        });
      }
      expect(res.status, res.text).toBe(200);
      expect(format === 'json' ? res.json().id : res.text).toContain(target);
    },
    async search(caller, expected) {
      const res = await call(caller, 'GET', `/rest/issue${q({ filter: target })}`);
      if (expected !== 200) {
        return expectRefused(res, expected, await issueSnapshot(server), { 401: 'Authentication required.' });
      }
      expect(res.status, res.text).toBe(200);
      const found =
        format === 'json'
          ? res.json().issue.map((i: { id: string }) => i.id)
          : [...res.text.matchAll(/<issue id="([^"]+)"/g)].map((m) => m[1]);
      expect(found).toEqual(READS_PRJ[caller] ? [target] : []);
    },
    async 'execute field change'(caller, expected) {
      const id = await createIssue(server, 'matrix field');
      const before = await issueSnapshot(server);
      const res = await call(caller, 'POST', `/rest/issue/${id}/execute${q({ command: 'Priority Major' })}`);
      if (expected !== 200) {
        return expectRefused(res, expected, before, {
          401: 'Authentication required.',
          403: `Cannot apply [ Set Priority to Major ] to issue [ ${id} ]: no rights in project [ ${PRJ} ] (UPDATE_ISSUE).`,
          404: `Issue [ ${id} ] not found.`,
        });
      }
      expect(res.status, res.text).toBe(200);
      expect(fieldOf(await getIssueJson(server, id), 'Priority')).toBe('Major');
    },
    async 'execute link'(caller, expected) {
      const id = await createIssue(server, 'matrix link');
      const other = await createIssue(server, 'matrix link target');
      const before = await issueSnapshot(server);
      const res = await call(
        caller,
        'POST',
        `/rest/issue/${id}/execute${q({ command: `depends on ${other}` })}`,
      );
      if (expected !== 200) {
        return expectRefused(res, expected, before, {
          401: 'Authentication required.',
          403: `Cannot apply [ Link to ${other} (depends on) ] to issue [ ${id} ]: no rights in project [ ${PRJ} ] (LINK_ISSUE).`,
          404: `Issue [ ${id} ] not found.`,
        });
      }
      expect(res.status, res.text).toBe(200);
      expect((await getIssueJson(server, other)).link).toEqual([
        { typeName: 'Depend', role: 'is required for', source: id, target: other },
      ]);
    },
    async 'execute comment'(caller, expected) {
      const id = await createIssue(server, 'matrix comment');
      const before = await issueSnapshot(server);
      const res = await call(
        caller,
        'POST',
        `/rest/issue/${id}/execute${q({ command: 'comment', comment: `from ${caller}` })}`,
      );
      if (expected !== 200) {
        return expectRefused(res, expected, before, {
          401: 'Authentication required.',
          403: `Cannot apply [ Add comment ] to issue [ ${id} ]: no rights in project [ ${PRJ} ] (CREATE_COMMENT).`,
          404: `Issue [ ${id} ] not found.`,
        });
      }
      expect(res.status, res.text).toBe(200);
      expect((await getIssueJson(server, id)).comment.map((c) => [c.author, c.text])).toEqual([
        [LOGIN[caller], `from ${caller}`],
      ]);
    },
    async suggest(caller, expected) {
      const res = await call(
        caller,
        'GET',
        `/rest/command/suggest${q({ issueIds: target, command: 'Fix', optionsLimit: 100 })}`,
        { accept: JSON_ACCEPT },
      );
      if (expected !== 200) {
        return expectRefused(
          res,
          expected,
          await issueSnapshot(server),
          { 401: 'Authentication required.', 404: `Issue [ ${target} ] not found.` },
          true,
        );
      }
      expect(res.status, res.text).toBe(200);
      const options = res.json().suggest.items.map((i: { o: string }) => i.o);
      if (SUGGESTED_FIELDS[caller])
        expect(options).toEqual(expect.arrayContaining(['Fix versions', 'Fixed']));
      else expect(options).toEqual([]);
    },
    async 'folders list'(caller, expected) {
      const res = await call(caller, 'GET', '/rest/issuesFolder');
      if (expected !== 200) {
        return expectRefused(res, expected, await issueSnapshot(server), { 401: 'Authentication required.' });
      }
      expect(res.status, res.text).toBe(200);
      const ids =
        format === 'json'
          ? res.json().map((f: { id: string }) => f.id)
          : [...res.text.matchAll(/<folder id="([^"]+)"/g)].map((m) => m[1]);
      expect(ids).toEqual(READS_PRJ[caller] ? ['everything', `p-${PRJ}`] : ['everything']);
    },
  };

  const all = CALLERS.flatMap((caller) =>
    ACTIONS.map((action) => [caller, action, MATRIX[caller][action]] as const),
  );
  // JSON runs every cell. The XML pass checks the XML wire shape of each distinct expectation
  // (action, status, what the caller reads or is offered) once: the other callers' XML cells
  // would only repeat a decision the JSON pass (and permissions.caller.test.ts) already asserts.
  const signature = ([caller, action, expected]: (typeof all)[number]) =>
    [
      action,
      expected,
      action === 'search' || action === 'folders list' ? READS_PRJ[caller] : '',
      action === 'suggest' ? SUGGESTED_FIELDS[caller] : '',
    ].join('|');
  const cells =
    format === 'json'
      ? all
      : all.filter((cell, i) => all.findIndex((c) => signature(c) === signature(cell)) === i);
  it.each(cells)('%s × %s → %i', async (caller, action, expected) => {
    await ACT[action](caller, expected);
  });
});

describe('hidden issues answer exactly like missing ones', () => {
  let hidden: string;
  let hiddenCompressed: string;
  let mine: string;
  const missing = `${SECRET}-999`;

  beforeAll(async () => {
    // Straight to the database, before the requests below (which also renew the assist cache).
    await addFieldValue(fork(server.orm), await actorFor(server.orm, 'root'), SECRET, 'Subsystem', {
      name: 'Classified',
    });
    hidden = await createIssue(server, 'classified', { project: SECRET });
    hiddenCompressed = compressedIdOf(await getIssueJson(server, hidden));
    mine = await createIssue(server, 'readable by u_dev');
  });

  /** Status and body with the issue id replaced, for comparing a hidden and a missing issue. */
  const shape = (res: TestResponse, id: string) => `${res.status} ${res.text.split(id).join('<ID>')}`;

  it.each([
    ['GET issue', 'GET', (id: string) => `/rest/issue/${id}`],
    ['execute a valid command', 'POST', (id: string) => `/rest/issue/${id}/execute?command=Fixed`],
    ['execute an unknown command', 'POST', (id: string) => `/rest/issue/${id}/execute?command=zork`],
    [
      'execute an unknown value',
      'POST',
      (id: string) => `/rest/issue/${id}/execute?command=State%20Nonsense`,
    ],
    ['execute a comment', 'POST', (id: string) => `/rest/issue/${id}/execute?comment=hello`],
    ['intellisense', 'GET', (id: string) => `/rest/issue/${id}/execute/intellisense?command=Fix`],
    [
      'command assist',
      'GET',
      (id: string) => `/rest/command/underlineAndSuggestAndCommands?command=Fix&issueIds=${id}`,
    ],
    ['search by id', 'GET', (id: string) => `/rest/issue?filter=${id}`],
  ] as const)('%s', async (_, method, path) => {
    for (const accept of ['', JSON_ACCEPT]) {
      const before = await issueSnapshot(server);
      const a = await server.request(method, path(hidden), { user: 'u_dev', accept });
      const b = await server.request(method, path(missing), { user: 'u_dev', accept });
      expect(shape(a, hidden)).toBe(shape(b, missing));
      expect(await issueSnapshot(server)).toEqual(before);
    }
  });

  it('a link to a hidden issue fails like a link to a missing one', async () => {
    const a = await execute(server, mine, { command: `relates to ${hidden}` }, { user: 'u_dev' });
    const b = await execute(server, mine, { command: `relates to ${missing}` }, { user: 'u_dev' });
    // The command error naming the issue (400), alike for hidden and missing.
    expect(a.status).toBe(400);
    expect(shape(a, hidden)).toBe(shape(b, missing));
  });

  it('a hidden issue’s compressed id is 404 like an unknown one', async () => {
    const res = await server.request('GET', `/rest/command/suggest?issueIds=${hiddenCompressed}`, {
      user: 'u_dev',
    });
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({
      value: `Issues [ ${hiddenCompressed} ] not found.`,
      code: 'NOT_FOUND',
      status: 404,
    });
  });

  it('the hidden project’s field values are neither suggested nor searchable', async () => {
    const dev = await server.request(
      'GET',
      '/rest/command/suggest?noIssuesContext=true&command=Subsystem%20&optionsLimit=100',
      {
        user: 'u_dev',
      },
    );
    expect(dev.json().suggest.items.map((i: { o: string }) => i.o)).not.toContain('Classified');
    const other = await server.request(
      'GET',
      '/rest/command/suggest?noIssuesContext=true&command=Subsystem%20&optionsLimit=100',
      {
        user: 'u_other',
      },
    );
    expect(other.json().suggest.items.map((i: { o: string }) => i.o)).toContain('Classified');
    const a = await server.request('GET', `/rest/issue${q({ filter: 'Subsystem: Classified' })}`, {
      user: 'u_dev',
    });
    const b = await server.request('GET', `/rest/issue${q({ filter: 'Subsystem: Unheard' })}`, {
      user: 'u_dev',
    });
    expect(a.status).toBe(400);
    expect(shape(a, 'Classified')).toBe(shape(b, 'Unheard'));
  });
});

describe('runAs cannot be used to escalate', () => {
  it('only LOW_LEVEL_ADMIN may run as another user, including as root', async () => {
    const id = await createIssue(server, 'escalation');
    const before = await issueSnapshot(server);
    for (const user of Object.values(ROLE_USERS)) {
      const res = await execute(server, id, { command: 'Priority Major', runAs: 'root' }, { user });
      expect(res.status, `${user}: ${res.text}`).toBe(403);
      expect(xmlError(res.text)).toBe(
        'You have no rights to run commands as another user (LOW_LEVEL_ADMIN).',
      );
    }
    expect(await issueSnapshot(server)).toEqual(before);
  });
});

describe('credentials', () => {
  it('a wrong password is 401 on every route of these routers, and changes nothing', async () => {
    const id = await createIssue(server, 'bad password');
    const before = await issueSnapshot(server);
    for (const [method, path] of [
      ['PUT', `/rest/issue?project=${PRJ}&summary=x`],
      ['GET', `/rest/issue/${id}`],
      ['GET', '/rest/issue'],
      ['POST', `/rest/issue/${id}/execute?command=Fixed`],
      ['GET', `/rest/issue/${id}/execute/intellisense`],
      ['GET', '/rest/command/suggest'],
      ['GET', '/rest/command/underline'],
      ['GET', '/rest/command/underlineAndSuggest'],
      ['GET', '/rest/command/underlineAndSuggestAndCommands'],
      ['GET', '/rest/issuesFolder'],
      ['POST', '/rest/issuesFolder/setContextFolder?folderId=everything'],
      ['PUT', '/rest/user/tag/x'],
    ] as const) {
      const res = await server.request(method, path, { user: 'u_dev', password: 'wrong' });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('Basic');
    }
    expect(await issueSnapshot(server)).toEqual(before);
  });
});

describe('hygiene', () => {
  it('no response of this suite carried a stack trace', () => expectNoLeaks(server));
});
