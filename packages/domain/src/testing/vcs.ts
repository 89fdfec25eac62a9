import { readFileSync } from 'node:fs';
import type { VcsHost } from '@trackline/contracts';
import {
  type Actor,
  createIssue,
  createProject,
  createRole,
  createVcsIntegration,
  getIssue,
  grantRole,
  type HookRequest,
  insertUser,
  type Orm,
} from '@trackline/domain';
import { actorFor, fork, kitPasswordHash, USER_PASSWORD } from './test-orm.js';

export const fixtureText = (name: string) =>
  readFileSync(new URL(`../../src/vcs/__fixtures__/${name}.json`, import.meta.url), 'utf8');

/** A user with an e-mail and roles, each `[role]` global or `[role, project]`. */
export async function committer(orm: Orm, login: string, email: string, roles: [string, string?][]) {
  await insertUser(fork(orm), {
    login,
    email,
    fullName: login,
    passwordHash: await kitPasswordHash(USER_PASSWORD),
  });
  const root = await actorFor(orm, 'root');
  for (const [role, project] of roles) await grantRole(fork(orm), root, login, role, project);
}

/**
 * The scenario of the fixtures: project TL (TL-1..TL-3) linked to `trackline/webapp`, OT
 * not linked; alice (Developer in TL, Committers globally), bob (Reporter and Committers in
 * TL) and carol (Developer, not a committer).
 */
export async function setUpVcsScenario(orm: Orm) {
  const root = await actorFor(orm, 'root');
  for (const [shortName, count] of [
    ['TL', 3],
    ['OT', 1],
  ] as const) {
    await createProject(fork(orm), root, { shortName, name: `${shortName} project` });
    for (let i = 1; i <= count; i++)
      await createIssue(fork(orm), root, { project: shortName, summary: `${shortName} ${i}` });
  }
  await createRole(fork(orm), root, 'Committers', 'May apply commands from commit messages');
  await committer(orm, 'alice', 'alice@example.com', [['Developer', 'TL'], ['Committers']]);
  await committer(orm, 'bob', 'bob@example.com', [
    ['Reporter', 'TL'],
    ['Committers', 'TL'],
  ]);
  await committer(orm, 'carol', 'carol@example.com', [['Developer', 'TL']]);
  return root;
}

export async function createIntegration(
  orm: Orm,
  root: Actor,
  input: {
    name?: string;
    host?: VcsHost;
    secret?: string;
    branches?: string;
    requirePusherMatch?: boolean;
  } = {},
) {
  const { apiKey, view } = await createVcsIntegration(fork(orm), root, {
    name: input.name ?? 'webapp',
    host: input.host ?? 'github',
    repository: 'trackline/webapp',
    projects: ['TL'],
    committersRole: 'Committers',
    ...(input.secret ? { secret: input.secret } : {}),
    ...(input.branches ? { branches: input.branches } : {}),
    // The fixtures push other people's commits: these suites test the committer rule alone
    // (the pusher rule has its own tests) unless they ask for it.
    requirePusherMatch: input.requirePusherMatch ?? false,
  });
  return { apiKey, integration: view.integration };
}

/** A hook call with a JSON body and the given headers. */
export function hookRequest(
  host: VcsHost,
  body: string | object,
  headers: Record<string, string> = {},
): HookRequest {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    host,
    header: (name) => lower[name],
    contentType: 'application/json',
    body: Buffer.from(text),
    queryPayload: null,
  };
}

/** A minimal GitHub push of the given commits (`[sha, message, email]`). */
export function githubPush(commits: [string, string, string][], ref = 'refs/heads/main') {
  return {
    ref,
    repository: { full_name: 'trackline/webapp' },
    commits: commits.map(([id, message, email]) => ({
      id,
      message,
      timestamp: '2024-03-11T10:12:31+01:00',
      url: `https://github.com/trackline/webapp/commit/${id}`,
      author: { name: email.split('@')[0], email },
    })),
  };
}

/** What a reader sees on an issue: State, tags, and comments as `author: first line`. */
export async function issueSummary(orm: Orm, id: string) {
  const issue = await getIssue(fork(orm), await actorFor(orm, 'root'), id);
  return {
    state: issue.fields.find((f) => f.name === 'State')?.values.map((v) => v.name)[0],
    // Every owner's tags (a reader sees only own and shared ones): `owner:name`.
    tags: (
      await fork(orm).execute<{ login: string; name: string }[]>(
        'select u.login, t.name from issue_tags it join tags t on t.id = it.tag_id join users u on u.id = t.owner_id ' +
          'where it.issue_id = ? order by t.name',
        [issue.dbId],
      )
    ).map((t) => `${t.login}:${t.name}`),
    comments: issue.comments.map((c) => `${c.author.login}: ${c.text.split('\n')[0]}`),
  };
}
