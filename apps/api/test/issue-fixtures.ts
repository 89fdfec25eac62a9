import { encodeCompressedId } from '@trackline/contracts';
import {
  addFieldValue,
  addProjectAssignee,
  Issue,
  IssueComment,
  IssueFieldValue,
  IssueLink,
  IssueStar,
  IssueTag,
  IssueVote,
  Project,
  SavedSearch,
  Tag,
  User,
} from '@trackline/domain';
import { expect } from 'vitest';
import {
  actorFor,
  expectJson,
  fork,
  JSON_ACCEPT,
  type RequestOptions,
  type TestServer,
  userWithRole,
} from './harness.js';

/**
 * Shared set-up for the issue, command and folder suites: projects created over HTTP as root,
 * one user per seeded role granted in the main project, and helpers to create, read and change
 * issues through the API.
 */

/** The main project: issues are numbered from 10. */
export const PRJ = 'PRJ';
export const PRJ_START = 10;
/** A project only root (and `other`) can read. */
export const SECRET = 'SECRET';

/** One user per seeded role, granted in PRJ (plus one with no roles at all). */
export const ROLE_USERS = {
  Admin: 'u_admin',
  'Project Admin': 'u_padmin',
  Developer: 'u_dev',
  Reporter: 'u_rep',
  Observer: 'u_obs',
} as const;
export const NO_ROLES = 'u_none';
/** Developer in SECRET only. */
export const OTHER = 'u_other';

export const root = (server: TestServer, method: string, path: string, options: RequestOptions = {}) =>
  server.request(method, path, { user: 'root', ...options });

export const q = (params: Record<string, string | number | boolean | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
};

export async function createProjectOverHttp(
  server: TestServer,
  shortName: string,
  name: string,
  startingNumber?: number,
) {
  const res = await root(
    server,
    'PUT',
    `/rest/admin/project/${shortName}${q({ projectName: name, startingNumber })}`,
  );
  if (res.status !== 201) throw new Error(`project ${shortName}: ${res.status} ${res.text}`);
}

/** Projects, users, the version `1.0` of Fix versions, and every role user as an assignee of PRJ. */
export async function setUpWorld(server: TestServer) {
  await createProjectOverHttp(server, PRJ, 'Main Project', PRJ_START);
  await createProjectOverHttp(server, SECRET, 'Secret Project');
  for (const [role, login] of Object.entries(ROLE_USERS)) await userWithRole(server.orm, login, role, PRJ);
  await userWithRole(server.orm, NO_ROLES);
  await userWithRole(server.orm, OTHER, 'Developer', SECRET);
  const rootActor = await actorFor(server.orm, 'root');
  for (const version of ['1.0', '2.0']) {
    await addFieldValue(fork(server.orm), rootActor, PRJ, 'Fix versions', { name: version });
  }
  await addFieldValue(fork(server.orm), rootActor, PRJ, 'Subsystem', { name: 'Backend' });
  for (const login of [...Object.values(ROLE_USERS), OTHER]) {
    await addProjectAssignee(fork(server.orm), rootActor, PRJ, login);
  }
}

/** Creates an issue over HTTP and returns its readable id (from the Location header). */
export async function createIssue(
  server: TestServer,
  summary: string,
  options: { project?: string; description?: string; user?: string } = {},
): Promise<string> {
  const res = await server.request(
    'PUT',
    `/rest/issue${q({ project: options.project ?? PRJ, summary, description: options.description })}`,
    { user: options.user ?? 'root' },
  );
  if (res.status !== 201) throw new Error(`create issue: ${res.status} ${res.text}`);
  const location = res.headers.get('location') ?? '';
  const id = location.split('/').pop();
  if (!id) throw new Error(`no Location: ${location}`);
  return decodeURIComponent(id);
}

export type IssueJson = {
  id: string;
  entityId: string;
  field: {
    name: string;
    /** Built-ins: a string; custom fields: always an array (users as `{value, fullName}`). */
    value:
      | string
      | (string | { value: string; fullName?: string; type?: string; role?: string; url?: string })[];
    valueId?: string[];
    color?: { bg: string; fg: string };
  }[];
  comment: {
    id: string;
    author: string;
    authorFullName: string;
    text: string;
    created: number;
    updated: number | null;
  }[];
  tag: { value: string; cssClass: string }[];
  link: { typeName: string; role: string; source: string; target: string }[];
};

export async function getIssueJson(server: TestServer, id: string, user = 'root'): Promise<IssueJson> {
  const res = await server.request('GET', `/rest/issue/${encodeURIComponent(id)}`, {
    user,
    accept: JSON_ACCEPT,
  });
  return expectJson(res, 200) as IssueJson;
}

/** The values of one field of the JSON issue as text (logins for users, ids for links); [] when absent. */
export function valuesOf(issue: IssueJson, name: string): string[] {
  const value = issue.field.find((f) => f.name === name)?.value;
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : value.map((v) => (typeof v === 'string' ? v : v.value));
}

/**
 * One field of the JSON issue for brief assertions: a built-in's string; a custom field's value
 * array as text, unwrapped when it holds one value (`valuesOf` keeps the array); undefined when absent.
 */
export function fieldOf(issue: IssueJson, name: string): string | string[] | undefined {
  const field = issue.field.find((f) => f.name === name);
  if (!field) return undefined;
  if (typeof field.value === 'string') return field.value;
  const values = valuesOf(issue, name);
  return values.length === 1 ? values[0] : values;
}

/** Runs a command as `user`; returns the response. */
export function execute(
  server: TestServer,
  id: string,
  params: { command?: string; comment?: string; runAs?: string },
  options: RequestOptions = {},
) {
  return server.request('POST', `/rest/issue/${encodeURIComponent(id)}/execute${q(params)}`, {
    user: 'root',
    ...options,
  });
}

/** Runs a command as root and fails the test unless it answers 200. */
export async function mustExecute(server: TestServer, id: string, command: string, user = 'root') {
  const res = await execute(server, id, { command }, { user });
  if (res.status !== 200) throw new Error(`execute ${command} on ${id}: ${res.status} ${res.text}`);
}

/** The legacy compressed persistent id of an issue, from its `entityId` (`74-<db id>`). */
export function compressedIdOf(issue: IssueJson): string {
  const [, dbId] = issue.entityId.split('-');
  return encodeCompressedId(Number(dbId));
}

/**
 * What issue commands can change, read straight from the database in a stable order:
 * compared before and after a refused request to prove nothing changed.
 */
export async function issueSnapshot(server: TestServer) {
  const em = fork(server.orm);
  const issues = (await em.find(Issue, {}, { orderBy: { id: 'asc' } })).map(
    (i) =>
      `${i.id}|${i.numberInProject}|${i.summary}|${i.description}|${i.updatedAt?.getTime()}|${i.resolvedAt?.getTime() ?? '-'}`,
  );
  const values = (await em.find(IssueFieldValue, {}, { orderBy: { id: 'asc' } })).map(
    (v) => `${v.issue.id}|${v.field.id}|${v.slot}|${v.value?.id ?? '-'}|${v.user?.id ?? '-'}`,
  );
  const issueTags = (await em.find(IssueTag, {}, { orderBy: { id: 'asc' } })).map(
    (r) => `${r.issue.id}|${r.tag.id}`,
  );
  const stars = (await em.find(IssueStar, {}, { orderBy: { id: 'asc' } })).map(
    (r) => `${r.issue.id}|${r.user.id}`,
  );
  const votes = (await em.find(IssueVote, {}, { orderBy: { id: 'asc' } })).map(
    (r) => `${r.issue.id}|${r.user.id}`,
  );
  const comments = (await em.find(IssueComment, {}, { orderBy: { id: 'asc' } })).map(
    (c) => `${c.issue.id}|${c.text}`,
  );
  const links = (await em.find(IssueLink, {}, { orderBy: { id: 'asc' } })).map(
    (l) => `${l.type.id}|${l.source.id}|${l.target.id}`,
  );
  const tags = (await em.find(Tag, {}, { orderBy: { id: 'asc' } })).map((t) => `${t.name}|${t.shared}`);
  const searches = (await em.find(SavedSearch, {}, { orderBy: { id: 'asc' } })).map(
    (s) => `${s.name}|${s.query}|${s.shared}`,
  );
  const folders = (await em.find(User, {}, { orderBy: { id: 'asc' } })).map(
    (u) => `${u.login}|${u.contextFolder ?? '-'}`,
  );
  const numbers = (await em.find(Project, {}, { orderBy: { id: 'asc' } })).map(
    (p) => `${p.shortName}|${p.nextNumber}`,
  );
  return {
    numbers,
    issues,
    values,
    issueTags,
    stars,
    votes,
    comments,
    links,
    tags,
    searches,
    folders,
  };
}

/**
 * The harness's STACK_TRACE check, except that a bare `Exception` is allowed: it is a value of
 * the default Type field, so issues and suggestions legitimately carry it. Java- or
 * JavaScript-style class names (`TypeError`, `NullPointerException`) still count.
 */
const LEAK =
  /\n\s+at |\bat [\w.<>]+ \(|node_modules|\.(?:ts|js|mjs|cjs):\d+|"stack"|SQLITE_|[a-z]Exception\b|\b(?:Type|Reference|Syntax|Range)Error\b/;

/** No response of `server` so far carried a stack trace or driver detail. */
export function expectNoLeaks(server: TestServer) {
  expect(server.responses.length).toBeGreaterThan(0);
  const leaking = server.responses.filter((r) => LEAK.test(r.text));
  expect(leaking.map((r) => `${r.method} ${r.path} -> ${r.status}: ${r.text.slice(0, 300)}`)).toEqual([]);
}
