import { addFieldValue } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actorFor,
  adminSnapshot,
  expectJsonError,
  fork,
  JSON_ACCEPT,
  startTestServer,
  type TestServer,
} from '../harness.js';
import { createIssue, execute, fieldOf, getIssueJson, PRJ, q, root, setUpWorld } from '../issue-fixtures.js';

/**
 * Link phrases are typed in commands, where they are matched before field names and values:
 * they must be unique after Unicode whitespace normalisation, and must never equal (or start
 * with) a keyword, a field name or a field value, or a link type could take a command over.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await setUpWorld(server);
});
afterAll(() => server.close());

const linkTypePath = (name: string, params: Record<string, string | undefined>) =>
  `/rest/admin/issueLinkType/${encodeURIComponent(name)}${q(params)}`;

/** Sends the request as root, expects the error and proves the admin data did not change. */
async function expectRefused(
  method: 'PUT' | 'POST',
  path: string,
  status: number,
  code: string,
  message: string | RegExp,
) {
  const before = await adminSnapshot(server.orm);
  expectJsonError(await root(server, method, path, { accept: JSON_ACCEPT }), status, code, message);
  expect(await adminSnapshot(server.orm)).toEqual(before);
}

describe('hardening item 9: link phrases', () => {
  it('phrases collide after Unicode whitespace normalisation (409)', async () => {
    for (const phrase of ['relates\u00A0to', 'relates  to', ' RELATES\u2003to\t', 'relates\u3000to']) {
      await expectRefused(
        'PUT',
        linkTypePath('Relates2', { outwardName: phrase }),
        409,
        'ALREADY_EXISTS',
        /^Link name \[ relates to \] is already used by issue link type \[ Relates \]\.$/i,
      );
      await expectRefused(
        'PUT',
        linkTypePath('Relates2', { outwardName: 'is near', inwardName: phrase, directed: 'true' }),
        409,
        'ALREADY_EXISTS',
        /^Link name \[ relates to \] is already used by issue link type \[ Relates \]\.$/i,
      );
    }
  });

  it('names collide after normalisation too, and are stored normalised', async () => {
    const res = await root(
      server,
      'PUT',
      linkTypePath('Blocks\u2003\u2003hard', { outwardName: 'blocks\u00A0hard' }),
      {
        accept: JSON_ACCEPT,
      },
    );
    expect(res.status, res.text).toBe(201);
    const stored = await root(server, 'GET', '/rest/admin/issueLinkType/Blocks%20hard', {
      accept: JSON_ACCEPT,
    });
    expect(stored.status, stored.text).toBe(200);
    expect(stored.json()).toMatchObject({ name: 'Blocks hard', outwardName: 'blocks hard' });
    for (const name of ['Blocks\u00A0hard', 'blocks  HARD']) {
      await expectRefused(
        'PUT',
        linkTypePath(name, { outwardName: 'other phrase' }),
        409,
        'ALREADY_EXISTS',
        /^Issue link type \[ Blocks hard \] already exists\.$/i,
      );
    }
    await expectRefused(
      'POST',
      linkTypePath('Relates', { newName: 'Blocks\u205Fhard' }),
      409,
      'ALREADY_EXISTS',
      /already exists/,
    );
  });

  it('a phrase equal to a keyword, alias, field name or value is refused with 400 naming the field', async () => {
    for (const phrase of [
      'fixed',
      'FIXED',
      'state',
      'tag',
      'for',
      'me',
      'assigned to',
      'Critical',
      'Unassigned',
      'No subsystem',
      "won't fix",
      'priority',
      'in\u00A0progress',
    ]) {
      await expectRefused(
        'PUT',
        linkTypePath('Hijack', { outwardName: phrase }),
        400,
        'VALIDATION_FAILED',
        /^outwardName: \[ .+ \] already means something in commands \(a keyword, field or value\)$/,
      );
    }
    await expectRefused(
      'PUT',
      linkTypePath('Hijack', { outwardName: 'hijacks', inwardName: 'Verified', directed: 'true' }),
      400,
      'VALIDATION_FAILED',
      /^inwardName: \[ Verified \] already means/,
    );
    await expectRefused(
      'POST',
      linkTypePath('Relates', { outwardName: 'fixed' }),
      400,
      'VALIDATION_FAILED',
      /^outwardName: /,
    );
  });

  it('a phrase starting with such a phrase is refused: it would win over the shorter command', async () => {
    for (const phrase of ['state fixed', 'for me', 'tag urgent', 'add tag', 'Major problem']) {
      await expectRefused(
        'PUT',
        linkTypePath('Hijack', { outwardName: phrase }),
        400,
        'VALIDATION_FAILED',
        /^outwardName: \[ .+ \] starts with \[ .+ \], which already means something in commands/,
      );
    }
  });

  it('values projects add later are commands too', async () => {
    await addFieldValue(fork(server.orm), await actorFor(server.orm, 'root'), PRJ, 'Subsystem', {
      name: 'Storage layer',
    });
    await expectRefused(
      'PUT',
      linkTypePath('Hijack', { outwardName: 'storage\u00A0LAYER' }),
      400,
      'VALIDATION_FAILED',
      /^outwardName: \[ storage LAYER \] already means/,
    );
  });

  it('commands keep their meaning; an ordinary phrase still works', async () => {
    const res = await root(
      server,
      'PUT',
      linkTypePath('Blocker', { outwardName: 'blocks', inwardName: 'is blocked by', directed: 'true' }),
      {
        accept: JSON_ACCEPT,
      },
    );
    expect(res.status, res.text).toBe(201);
    const id = await createIssue(server, 'still fixable');
    const other = await createIssue(server, 'blocked one');
    const ran = await execute(server, id, { command: `Fixed blocks ${other}` });
    expect(ran.status, ran.text).toBe(200);
    const issue = await getIssueJson(server, id);
    expect(fieldOf(issue, 'State')).toBe('Fixed');
    expect(issue.link.map((l) => [l.typeName, l.target])).toContainEqual(['Blocker', other]);
  });
});
