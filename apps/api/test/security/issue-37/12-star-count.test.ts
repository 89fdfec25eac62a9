import { createIssue, createProject, executeCommand } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actorFor,
  fork,
  JSON_ACCEPT,
  startTestServer,
  type TestServer,
  userWithRole,
} from '../../harness.js';

/**
 * Issue 37, item 12: `issues.view` showed how many users starred (watch) an issue to callers
 * without VIEW_WATCHERS, while the REST issue left the watchers out. One rule on every path: the
 * count, like the watchers' logins, needs VIEW_WATCHERS in the project; one's own star is
 * `starredByMe` for everyone.
 */
describe('issue 37 item 12: the star count needs VIEW_WATCHERS', () => {
  let server: TestServer;
  const trpc = (login: string, path: string, input: unknown) =>
    server.request('GET', `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, {
      user: login,
      accept: JSON_ACCEPT,
    });

  beforeAll(async () => {
    server = await startTestServer();
    const root = await actorFor(server.orm, 'root');
    await createProject(fork(server.orm), root, { shortName: 'ST', name: 'Stars' });
    await createIssue(fork(server.orm), root, { project: 'ST', summary: 'watched' });
    await userWithRole(server.orm, 'watcher_dev', 'Developer', 'ST');
    await userWithRole(server.orm, 'reporter', 'Reporter', 'ST');
    for (const login of ['root', 'watcher_dev'])
      await executeCommand(fork(server.orm), await actorFor(server.orm, login), ['ST-1'], 'star');
  });
  afterAll(() => server.close());

  it('issues.view: a Developer (VIEW_WATCHERS) sees 2; a Reporter sees no count, only its own star', async () => {
    const dev = await trpc('watcher_dev', 'issues.view', { issue: 'ST-1' });
    expect(dev.status, dev.text).toBe(200);
    expect(dev.json().result.data).toMatchObject({ stars: 2, starredByMe: true });
    const reporter = await trpc('reporter', 'issues.view', { issue: 'ST-1' });
    expect(reporter.status, reporter.text).toBe(200);
    const view = reporter.json().result.data;
    expect(view).not.toHaveProperty('stars');
    expect(view.starredByMe).toBe(false);
  });

  it('issues.list: the same rule for every issue of the page', async () => {
    const page = (login: string) => trpc(login, 'issues.list', { filter: 'project: ST' });
    const dev = await page('watcher_dev');
    expect(dev.status, dev.text).toBe(200);
    expect(dev.json().result.data.issues[0]).toMatchObject({ id: 'ST-1', stars: 2 });
    const reporter = await page('reporter');
    expect(reporter.json().result.data.issues[0]).not.toHaveProperty('stars');
  });

  it('REST: the watchers are left out for the Reporter, shown to the Developer', async () => {
    const field = async (login: string) =>
      (await server.request('GET', '/rest/issue/ST-1', { user: login, accept: JSON_ACCEPT })).json()
        .field as { name: string; value: unknown }[];
    expect((await field('watcher_dev')).find((f) => f.name === 'watcherName')?.value).toEqual([
      'root',
      'watcher_dev',
    ]);
    expect((await field('reporter')).some((f) => f.name === 'watcherName')).toBe(false);
  });
});
