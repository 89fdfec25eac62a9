import { addProjectAssignee } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actorFor,
  expectJson,
  expectJsonError,
  fork,
  JSON_ACCEPT,
  startTestServer,
  type TestServer,
} from '../harness.js';
import { createIssue, mustExecute, NO_ROLES, OTHER, q, SECRET, setUpWorld } from '../issue-fixtures.js';

/**
 * What the caller cannot read must not show through answers about something else: searching
 * by a user tells nothing about which logins exist to a caller who may not see users, and a
 * link type's usage count counts only links between issues the caller can read.
 * (The webhook-result part of item 10 is covered elsewhere.)
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await setUpWorld(server);
  // u_other reports and is assigned an issue in SECRET, which u_dev cannot read.
  await addProjectAssignee(fork(server.orm), await actorFor(server.orm, 'root'), SECRET, OTHER);
  const secret = await createIssue(server, 'secret work', { project: SECRET, user: OTHER });
  await mustExecute(server, secret, `for ${OTHER}`, OTHER);
  const a = await createIssue(server, 'visible a');
  const b = await createIssue(server, 'visible b');
  await mustExecute(server, a, `relates to ${b}`);
  await mustExecute(server, a, `relates to ${secret}`);
  await mustExecute(server, b, `depends on ${secret}`);
});
afterAll(() => server.close());

const search = (filter: string, user: string) =>
  server.request('GET', `/rest/issue${q({ filter })}`, { user, accept: JSON_ACCEPT });

describe('hardening item 10: oracles', () => {
  it('searching by an unknown login answers exactly like a login whose issues the caller cannot read', async () => {
    for (const attribute of ['reported by', 'reporter', 'created by', 'for', 'assigned to', 'Assignee']) {
      const existing = await search(`${attribute}: ${OTHER}`, 'u_dev');
      const unknown = await search(`${attribute}: no_such_login`, 'u_dev');
      expect(expectJson(existing, 200), attribute).toEqual({ issue: [] });
      expect(unknown.status, `${attribute}: ${unknown.text}`).toBe(existing.status);
      expect(unknown.text, attribute).toBe(existing.text);
    }
    // A caller without any readable project gets the same empty answer as well.
    expect((await search('reported by: no_such_login', NO_ROLES)).text).toBe(
      (await search(`reported by: ${OTHER}`, NO_ROLES)).text,
    );
  });

  it('a caller who may see every user (READ_USER) still gets 400 for a typo', async () => {
    expectJsonError(
      await search('reported by: no_such_login', 'root'),
      400,
      'VALIDATION_FAILED',
      'filter: Unknown user [ no_such_login ] at position 13',
    );
    const found = expectJson(await search(`reported by: ${OTHER}`, 'root'), 200);
    expect(found.issue).toHaveLength(1);
  });

  it('link type usage counts only links whose both issues the caller can read', async () => {
    const count = async (type: string, user: string) => {
      const res = await server.request('GET', `/rest/admin/issueLinkType/${type}/count`, {
        user,
        accept: JSON_ACCEPT,
      });
      return expectJson(res, 200).value;
    };
    expect(await count('Relates', 'root')).toBe(2);
    expect(await count('Depend', 'root')).toBe(1);
    expect(await count('Relates', 'u_dev')).toBe(1);
    expect(await count('Depend', 'u_dev')).toBe(0);
    expect(await count('Relates', NO_ROLES)).toBe(0);
    expect(await count('Relates', OTHER)).toBe(0);
  });
});
