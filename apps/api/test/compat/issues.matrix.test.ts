import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness.js';
import {
  createIssue,
  issueSnapshot,
  NO_ROLES,
  OTHER,
  PRJ,
  q,
  ROLE_USERS,
  setUpWorld,
} from '../issue-fixtures.js';

/*
 * Permission matrix of the legacy issue, project and user calls added for issue 12: every
 * seeded role (granted in PRJ only), a user with no roles and an anonymous caller. Unreadable
 * is 404 like missing; readable without the permission is 403; a refusal changes nothing.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await setUpWorld(server);
});
afterAll(() => server.close());

type Caller = keyof typeof ROLE_USERS | 'No roles' | 'Anonymous';
const LOGIN: Record<Caller, string | undefined> = {
  ...ROLE_USERS,
  'No roles': NO_ROLES,
  Anonymous: undefined,
};

type Action = {
  method: string;
  /** The path, given a fresh PRJ issue made for this call. */
  path: (issue: string) => string;
};

const ACTIONS = {
  count: { method: 'GET', path: () => `/rest/issue/count${q({ filter: 'matrix' })}` },
  exists: { method: 'GET', path: (id) => `/rest/issue/${id}/exists` },
  byproject: { method: 'GET', path: () => `/rest/issue/byproject/${PRJ}` },
  'create (POST)': {
    method: 'POST',
    path: () => `/rest/issue${q({ project: PRJ, summary: 'matrix created' })}`,
  },
  update: {
    method: 'POST',
    path: (id) => `/rest/issue/${id}${q({ summary: 'matrix updated' })}`,
  },
  delete: { method: 'DELETE', path: (id) => `/rest/issue/${id}` },
  'execute (alias)': {
    method: 'POST',
    path: (id) => `/rest/issue/execute/${id}${q({ command: 'Priority Major' })}`,
  },
  'project/all': { method: 'GET', path: () => '/rest/project/all' },
  'user/current': { method: 'GET', path: () => '/rest/user/current' },
  'user/{another}': { method: 'GET', path: () => `/rest/user/${OTHER}` },
} satisfies Record<string, Action>;
type ActionName = keyof typeof ACTIONS;

// biome-ignore format: one row per caller, aligned for reading
const MATRIX: Record<Caller, Record<ActionName, number>> = {
  Admin:           { count: 200, exists: 200, byproject: 200, 'create (POST)': 201, update: 200, delete: 200, 'execute (alias)': 200, 'project/all': 200, 'user/current': 200, 'user/{another}': 403 },
  'Project Admin': { count: 200, exists: 200, byproject: 200, 'create (POST)': 201, update: 200, delete: 200, 'execute (alias)': 200, 'project/all': 200, 'user/current': 200, 'user/{another}': 403 },
  Developer:       { count: 200, exists: 200, byproject: 200, 'create (POST)': 201, update: 200, delete: 200, 'execute (alias)': 200, 'project/all': 200, 'user/current': 200, 'user/{another}': 403 },
  Reporter:        { count: 200, exists: 200, byproject: 200, 'create (POST)': 201, update: 403, delete: 403, 'execute (alias)': 403, 'project/all': 200, 'user/current': 200, 'user/{another}': 403 },
  Observer:        { count: 200, exists: 200, byproject: 200, 'create (POST)': 403, update: 403, delete: 403, 'execute (alias)': 403, 'project/all': 200, 'user/current': 200, 'user/{another}': 403 },
  'No roles':      { count: 200, exists: 404, byproject: 404, 'create (POST)': 404, update: 404, delete: 404, 'execute (alias)': 404, 'project/all': 200, 'user/current': 200, 'user/{another}': 403 },
  Anonymous:       { count: 401, exists: 401, byproject: 401, 'create (POST)': 401, update: 401, delete: 401, 'execute (alias)': 401, 'project/all': 401, 'user/current': 401, 'user/{another}': 401 },
};

describe('issue 12: permission matrix of the legacy issue, project and user calls', () => {
  for (const [caller, row] of Object.entries(MATRIX) as [Caller, Record<ActionName, number>][]) {
    for (const [name, expected] of Object.entries(row) as [ActionName, number][]) {
      it(`${caller}: ${name} → ${expected}`, async () => {
        const action: Action = ACTIONS[name];
        const issue = await createIssue(server, 'matrix target');
        const before = expected >= 400 ? await issueSnapshot(server) : null;
        const login = LOGIN[caller];
        const res = await server.request(action.method, action.path(issue), login ? { user: login } : {});
        expect(res.status, res.text).toBe(expected);
        if (before) expect(await issueSnapshot(server)).toEqual(before);
      });
    }
  }
});
