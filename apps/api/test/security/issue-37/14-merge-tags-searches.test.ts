import { createIssue, createProject, SavedSearch, Tag } from '@trackline/domain';
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
 * Issue 37, item 14: merging users dropped the merged user's tags and saved searches whose
 * names the kept user had too, with their taggings. A clashing tag now becomes one tag on the
 * union of both tags' issues; a clashing saved search is kept under the name with the merged
 * login after it; the answer says which tags were merged and which searches renamed.
 */
describe('issue 37 item 14: a merge keeps clashing tags and saved searches', () => {
  let server: TestServer;
  const as = (login: string, body?: string) => ({
    user: login,
    accept: JSON_ACCEPT,
    ...(body === undefined ? {} : { body, contentType: 'application/x-www-form-urlencoded' }),
  });
  const command = (login: string, issue: string, text: string) =>
    server.request('POST', `/rest/issue/${issue}/execute`, as(login, `command=${encodeURIComponent(text)}`));
  const tagged = async (tag: string, login: string) => {
    const res = await server.request(
      'GET',
      `/rest/issue?filter=${encodeURIComponent(`tag: {${tag}}`)}&max=50`,
      as(login),
    );
    expect(res.status, res.text).toBe(200);
    return (res.json().issue as { id: string }[]).map((i) => i.id).sort();
  };

  beforeAll(async () => {
    server = await startTestServer();
    const root = await actorFor(server.orm, 'root');
    await createProject(fork(server.orm), root, { shortName: 'MT', name: 'Merge tags' });
    for (const summary of ['one', 'two', 'three', 'four'])
      await createIssue(fork(server.orm), root, { project: 'MT', summary });
    await userWithRole(server.orm, 'kay', 'Developer', 'MT');
    await userWithRole(server.orm, 'mo', 'Developer', 'MT');
    for (const [login, issue] of [
      ['kay', 'MT-1'],
      ['kay', 'MT-2'],
      ['mo', 'MT-2'],
      ['mo', 'MT-3'],
    ] as const)
      expect((await command(login, issue, 'tag Urgent')).status).toBe(200);
    expect((await command('mo', 'MT-4', 'tag Mine-only')).status).toBe(200);
    for (const [login, query] of [
      ['kay', 'project: MT #Unresolved'],
      ['mo', 'project: MT tag: Urgent'],
    ] as const) {
      const saved = await server.request(
        'PUT',
        `/rest/user/search/Mine?query=${encodeURIComponent(query)}`,
        as(login),
      );
      expect(saved.status, saved.text).toBeLessThan(300);
    }
    expect(
      (await server.request('PUT', '/rest/user/search/Mine%20(mo)?query=project%3A%20MT', as('kay'))).status,
    ).toBeLessThan(300);
  });
  afterAll(() => server.close());

  it('merges: one Urgent on the union of issues; the second Mine kept as a renamed search, reported', async () => {
    const res = await server.request('POST', '/rest/admin/user/kay/merge/mo', as('root'));
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toEqual({
      mergedTags: ['Urgent'],
      renamedSearches: [{ name: 'Mine', newName: 'Mine (mo) 2' }],
    });
    const tags = await fork(server.orm).find(
      Tag,
      { owner: { loginKey: 'kay' } },
      { orderBy: { nameKey: 'asc' } },
    );
    expect(tags.map((t) => t.name)).toEqual(['Mine-only', 'Urgent']);
    expect(await tagged('Urgent', 'kay')).toEqual(['MT-1', 'MT-2', 'MT-3']);
    expect(await tagged('Mine-only', 'kay')).toEqual(['MT-4']);
    const searches = await fork(server.orm).find(
      SavedSearch,
      { owner: { loginKey: 'kay' } },
      { orderBy: { nameKey: 'asc' } },
    );
    expect(searches.map((s) => [s.name, s.query])).toEqual([
      ['Mine', 'project: MT #Unresolved'],
      ['Mine (mo)', 'project: MT'],
      ['Mine (mo) 2', 'project: MT tag: Urgent'],
    ]);
  });

  it('the XML answer of the legacy route stays empty', async () => {
    await userWithRole(server.orm, 'lee', 'Developer', 'MT');
    const res = await server.request('POST', '/rest/admin/user/kay/merge/lee', { user: 'root' });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe('');
  });
});
