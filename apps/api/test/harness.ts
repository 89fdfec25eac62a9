import { request as httpRequest } from 'node:http';
import {
  IssueLink,
  IssueLinkType,
  type Orm,
  PermanentToken,
  Project,
  Role,
  RoleGrant,
  Session,
  User,
  VcsIntegration,
} from '@trackline/domain';
import { fork, ROOT_PASSWORD, USER_PASSWORD } from '@trackline/domain/testing';
import { expect } from 'vitest';
import {
  type LiveTestServer,
  startLiveTestServer,
  type TestServerOptions,
} from '../src/testing/test-server.js';
import { testHosts } from './two-hosts.js';

/**
 * Test harness for the HTTP suites: the production server (`startServer`, as `./trackline start`
 * runs it: search engine, text indexer, workers, pragmas) on 127.0.0.1 (port 0) over a fresh
 * database of the test kit (a SQLite file, or a scratch PostgreSQL database with
 * `TRACKLINE_TEST_DB=postgres`); `close()` fails on any 500 it answered (src/testing/test-server.ts).
 */

export {
  actorFor,
  createTestOrm,
  fork,
  ROOT_PASSWORD,
  TEST_DIALECT,
  TEST_PG_URL,
  USER_PASSWORD,
  userWithRole,
} from '@trackline/domain/testing';

export type RequestOptions = {
  /** Basic credentials; `password` defaults to `root-password` for root, `password-1` otherwise. */
  user?: string;
  password?: string;
  /** A `perm:` token sent as `Authorization: Bearer`. */
  token?: string;
  /**
   * The Accept header. Defaults to '' (sent empty, which the server treats like no header:
   * fetch would otherwise add `Accept: *\/*`). Use `rawRequest` for a request with no header at all.
   */
  accept?: string;
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
};

export type TestResponse = {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON shapes
  json(): any;
};

export type TestServer = {
  url: string;
  orm: Orm;
  /** The running server itself: its database, its log. */
  live: LiveTestServer;
  /** Every response this server gave through `request`, for suite-wide checks. */
  responses: { method: string; path: string; status: number; text: string }[];
  close(): Promise<void>;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
};

export const JSON_ACCEPT = 'application/json';
export const XML_ACCEPT = 'application/xml';

export const basic = (login: string, password: string) =>
  `Basic ${Buffer.from(`${login}:${password}`, 'utf8').toString('base64')}`;

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  // TRACKLINE_TEST_HOSTS=2: two hosts on this database behind a load balancer (two-hosts.ts).
  const live = await startLiveTestServer({ hosts: testHosts(), ...options });
  const { url, orm } = live;
  const responses: TestServer['responses'] = [];

  async function request(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { accept: options.accept ?? '', ...options.headers };
    if (options.user !== undefined) {
      const password = options.password ?? (options.user === 'root' ? ROOT_PASSWORD : USER_PASSWORD);
      headers.authorization = basic(options.user, password);
    }
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    if (options.contentType !== undefined) headers['content-type'] = options.contentType;
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      ...(options.body !== undefined ? { body: options.body } : {}),
    });
    const text = await response.text();
    responses.push({ method, path, status: response.status, text });
    return {
      status: response.status,
      headers: response.headers,
      text,
      json: () => JSON.parse(text),
    };
  }

  return { url, orm, responses, request, live, close: () => live.close() };
}

/**
 * A request over node:http with exactly the given headers (fetch always adds Accept and
 * others). For the legacy clients' byte-level shapes: no Accept header at all, raw cookies.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(path, baseUrl);
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method,
        path: `${target.pathname}${target.search}`,
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.setHeader('content-length', Buffer.byteLength(body));
    req.end(body);
  });
}

/** Creates a permanent token for `login` through the API and returns the secret. */
export async function createToken(server: TestServer, login: string, name: string, password?: string) {
  const res = await server.request('PUT', `/rest/user/token/${encodeURIComponent(name)}`, {
    user: login,
    ...(password !== undefined ? { password } : {}),
    accept: JSON_ACCEPT,
  });
  if (res.status !== 201) throw new Error(`token creation failed: ${res.status} ${res.text}`);
  return res.json().token as string;
}

/** Matches any whitespace between two tags (the legacy Python client cannot parse it). */
export const WHITESPACE_BETWEEN_TAGS = />\s+</;

/** What a stack trace or internal detail would look like in a response body. */
export const STACK_TRACE =
  /\n\s+at |\bat [\w.<>]+ \(|node_modules|\.(?:ts|js|mjs|cjs):\d+|"stack"|SQLITE_|Exception/;

/** No response of `server` so far carried a stack trace or driver detail. */
export function expectNoStackTraces(server: TestServer) {
  expect(server.responses.length).toBeGreaterThan(0);
  const leaking = server.responses.filter((r) => STACK_TRACE.test(r.text));
  expect(leaking.map((r) => `${r.method} ${r.path} -> ${r.status}: ${r.text.slice(0, 300)}`)).toEqual([]);
}

/** A legacy XML success body: declaration, the expected content type, compact (no whitespace nodes). */
export function expectXml(res: TestResponse, status: number) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/xml;charset=UTF-8');
  expect(res.text.startsWith(XML_DECLARATION)).toBe(true);
  expect(res.text).not.toMatch(WHITESPACE_BETWEEN_TAGS);
  expect(res.text).not.toMatch(/\n/);
}

export function expectJson(res: TestResponse, status: number) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json;charset=UTF-8');
  return res.json();
}

/** `<error>message</error>`; `message` is matched exactly (string) or by pattern. */
export function expectXmlError(res: TestResponse, status: number, message: string | RegExp) {
  expectXml(res, status);
  expect(res.text).toMatch(/^<\?xml[^>]*\?><error>[^<]*<\/error>$/);
  const text = xmlError(res.text);
  if (typeof message === 'string') expect(text).toBe(message);
  else expect(text).toMatch(message);
  expect(res.text).not.toMatch(STACK_TRACE);
}

/** The JSON error shape `{ value, code, status }` (plus `issues` for validation errors). */
export function expectJsonError(res: TestResponse, status: number, code: string, message: string | RegExp) {
  const body = expectJson(res, status);
  expect(body).toMatchObject({ code, status });
  expect(Object.keys(body).sort()).toEqual(
    'issues' in body ? ['code', 'issues', 'status', 'value'] : ['code', 'status', 'value'],
  );
  if (typeof message === 'string') expect(body.value).toBe(message);
  else expect(body.value).toMatch(message);
  expect(res.text).not.toMatch(STACK_TRACE);
  return body;
}

/**
 * Everything the admin surface can change, read straight from the database, in a stable
 * order: compared before and after a refused request to prove nothing changed.
 */
export async function adminSnapshot(orm: Orm) {
  const em = fork(orm);
  const linkTypes = (await em.find(IssueLinkType, {}, { orderBy: { nameKey: 'asc' } })).map(
    (t) => `${t.name}|${t.outwardName}|${t.inwardName}|${t.directed}|${t.aggregation}`,
  );
  const roles = (await em.find(Role, {}, { populate: ['permissions'], orderBy: { nameKey: 'asc' } })).map(
    (r) =>
      `${r.name}|${r.description}|${r.permissions
        .getItems()
        .map((p) => p.key)
        .sort()
        .join(',')}`,
  );
  const projects = (await em.find(Project, {}, { populate: ['lead'], orderBy: { shortNameKey: 'asc' } })).map(
    (p) =>
      `${p.shortName}|${p.name}|${p.description}|${p.lead.login}|${p.startingNumber}|${p.deletedAt ? 'trashed' : ''}`,
  );
  const users = (await em.find(User, {}, { orderBy: { loginKey: 'asc' } })).map(
    (u) => `${u.login}|${u.fullName}|${u.email ?? ''}|${u.type}|${u.passwordHash ? 'pw' : '-'}`,
  );
  const grants = (await em.find(RoleGrant, {}, { populate: ['user', 'role', 'project'] }))
    .map((g) => `${g.user.login}|${g.role.name}|${g.project?.shortName ?? '*'}`)
    .sort();
  const tokens = (await em.find(PermanentToken, {}, { populate: ['user'] }))
    .map((t) => `${t.user.login}|${t.name}|${t.secretHash}`)
    .sort();
  const links = await em.count(IssueLink, {});
  const sessions = await em.count(Session, {});
  const vcsIntegrations = (await em.find(VcsIntegration, {}, { orderBy: { nameKey: 'asc' } })).map(
    (v) => `${v.name}|${v.host}|${v.repository}|${v.branches}|${v.apiKeyHash}|${v.secret ?? ''}`,
  );
  return { linkTypes, roles, projects, users, grants, tokens, links, sessions, vcsIntegrations };
}

/** Attribute values of every `<tag .../>` or `<tag ...>` element, in document order. */
export function xmlElements(xml: string, tag: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  const element = new RegExp(`<${tag}((?:\\s+[\\w:.-]+="[^"]*")*)\\s*/?>`, 'g');
  for (const match of xml.matchAll(element)) {
    const attributes: Record<string, string> = {};
    for (const attr of (match[1] ?? '').matchAll(/([\w:.-]+)="([^"]*)"/g)) {
      attributes[attr[1] as string] = decodeXml(attr[2] as string);
    }
    found.push(attributes);
  }
  return found;
}

/** The text of the `<error>` element of a legacy XML error body, or null. */
export function xmlError(xml: string): string | null {
  const match = /<error>([\s\S]*)<\/error>/.exec(xml);
  return match ? decodeXml(match[1] as string) : null;
}

export function decodeXml(value: string): string {
  return value
    .replace(/&#10;/g, '\n')
    .replace(/&#13;/g, '\r')
    .replace(/&#9;/g, '\t')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
