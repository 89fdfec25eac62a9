import { createHash, createHmac } from 'node:crypto';
import type { Orm } from '@trackline/domain';
import { fixtureText, fork, ROOT_PASSWORD } from '@trackline/domain/testing';
import { startLiveTestServer } from '../../src/testing/test-server.js';

/**
 * The VCS suites' server: the production server (as `./trackline start` runs it, with its delivery
 * worker polling every 20 ms and kicked by the receiver) over a fresh test-kit database (SQLite or
 * PostgreSQL); `close()` fails on any 500 it answered or error it logged.
 */
export const ROOT = `Basic ${Buffer.from(`root:${ROOT_PASSWORD}`).toString('base64')}`;
export const SECRET = 'webhook-secret-42';

/** A recorded payload from the domain's fixtures (see its README), as sent. */
export const fixture = fixtureText;

export const sign = (algorithm: 'sha1' | 'sha256', body: string, secret = SECRET) =>
  `${algorithm}=${createHmac(algorithm, secret).update(body).digest('hex')}`;

export type VcsServer = { url: string; orm: Orm; close(): Promise<void> };

export async function startVcsServer(): Promise<VcsServer> {
  const live = await startLiveTestServer({ settings: { VCS_POLL_MS: '20' } });
  return { url: live.url, orm: live.orm, close: () => live.close() };
}

export { fork, setUpVcsScenario as setUpScenario } from '@trackline/domain/testing';

export type Reply = {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON shapes
  json(): any;
};

/** A request with JSON preferred; `auth` defaults to root. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: { body?: string | Buffer; headers?: Record<string, string>; auth?: string | null } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.auth !== null) headers.authorization = options.auth ?? ROOT;
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: new Uint8Array(Buffer.from(options.body)) } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

/** Creates an integration over REST; the apiKey comes back once. */
export async function createIntegration(
  base: string,
  params: {
    name?: string;
    host?: string;
    secret?: string;
    branches?: string;
    requirePusherMatch?: boolean;
  } = {},
) {
  const query = new URLSearchParams({
    host: params.host ?? 'github',
    repository: 'trackline/webapp',
    projects: 'TL',
    committersRole: 'Committers',
    ...(params.secret !== undefined ? { secret: params.secret } : {}),
    ...(params.branches !== undefined ? { branches: params.branches } : {}),
    // The fixtures push other people's commits: the legacy suites test the committer rule
    // alone (hardening item 13 tests the pusher rule) unless they ask for it.
    requirePusherMatch: String(params.requirePusherMatch ?? false),
  });
  const res = await call(base, 'PUT', `/rest/admin/vcsIntegration/${params.name ?? 'webapp'}?${query}`);
  if (res.status !== 201) throw new Error(`integration not created: ${res.status} ${res.text}`);
  return res.json() as { apiKey: string; hookUrl: string; name: string };
}

/** Polls the admin report until the delivery is done (or failed). */
export async function waitForDelivery(base: string, integration: string, id: number, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(base, 'GET', `/rest/admin/vcsIntegration/${integration}/delivery/${id}`);
    if (res.status !== 200) throw new Error(`report: ${res.status} ${res.text}`);
    const report = res.json();
    if (report.status === 'done' || report.status === 'failed') return report;
    if (Date.now() > deadline) throw new Error(`delivery ${id} still ${report.status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `issue command: status as actor (reason)` for every effect of a report. */
export const resultLines = (report: { commits: { results: Record<string, string>[] }[] }) =>
  report.commits.flatMap((c) =>
    c.results.map(
      (r) =>
        `${r.issue} ${r.command}: ${r.status}${r.actor ? ` as ${r.actor}` : ''}${r.reason ? ` (${r.reason})` : ''}`,
    ),
  );

const STATE_TABLES = [
  'vcs_deliveries',
  'vcs_changes',
  'vcs_effects',
  'issues',
  'issue_comments',
  'issue_tags',
  'issue_field_values',
  'tags',
];

/** Everything a hook could change, hashed: equal before and after a refused call. */
export async function hookState(orm: Orm) {
  const state: Record<string, string> = {};
  for (const table of STATE_TABLES) {
    const rows = await fork(orm).execute(`select * from ${table} order by id`);
    state[table] =
      `${rows.length}:${createHash('sha256').update(JSON.stringify(rows)).digest('hex').slice(0, 16)}`;
  }
  return state;
}

/** State, tags (`owner:name`) and comments (`author: first line`) of an issue, from the database. */
export async function issueState(orm: Orm, id: string) {
  const [project, number] = id.split('-') as [string, string];
  const em = fork(orm);
  const [issue] = await em.execute<{ id: number }[]>(
    'select i.id from issues i join projects p on p.id = i.project_id where p.short_name = ? and i.number_in_project = ?',
    [project, Number(number)],
  );
  if (!issue) throw new Error(`no issue ${id}`);
  const state = await em.execute<{ name: string }[]>(
    'select fv.name from issue_field_values v join project_fields f on f.id = v.field_id ' +
      "join field_values fv on fv.id = v.value_id where v.issue_id = ? and f.name = 'State'",
    [issue.id],
  );
  const tags = await em.execute<{ login: string; name: string }[]>(
    'select u.login, t.name from issue_tags it join tags t on t.id = it.tag_id join users u on u.id = t.owner_id ' +
      'where it.issue_id = ? order by t.name',
    [issue.id],
  );
  const comments = await em.execute<{ login: string; text: string }[]>(
    'select u.login, c.text from issue_comments c join users u on u.id = c.author_id where c.issue_id = ? order by c.id',
    [issue.id],
  );
  return {
    state: state[0]?.name,
    tags: tags.map((t) => `${t.login}:${t.name}`),
    comments: comments.map((c) => `${c.login}: ${c.text}`),
  };
}
