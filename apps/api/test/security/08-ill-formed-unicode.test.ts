import { hasLoneSurrogates, MAX_ISSUE_NUMBER } from '@trackline/contracts';
import { Project } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminSnapshot,
  expectJsonError,
  expectNoStackTraces,
  fork,
  JSON_ACCEPT,
  startTestServer,
  type TestServer,
} from '../harness.js';
import { createIssue, createProjectOverHttp, getIssueJson, q } from '../issue-fixtures.js';

const WELL_FORMED = 'must be well-formed Unicode (no lone surrogate)';
const LONE = { low: 'Surr2\udfff', high: 'Surr\ud800x', reversed: 'Surr\udc00\ud800' };

describe('hardening item 8: input saved but answered with 500', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const json = (method: string, path: string, body: unknown, user = 'root') =>
    server.request(method, path, {
      user,
      accept: JSON_ACCEPT,
      contentType: 'application/json',
      body: JSON.stringify(body),
    });

  it('refuses a lone surrogate in a JSON body or a parameter name with 400 naming the field, and saves nothing', async () => {
    await server.request(
      'PUT',
      '/rest/admin/issueLinkType/Blocks2?outwardName=blocks&inwardName=is+blocked+by',
      {
        user: 'root',
      },
    );
    const before = await adminSnapshot(server.orm);
    for (const text of Object.values(LONE)) {
      // The probe's exact body: `{"newName":"Surr2\udfff"}` (JSON.stringify writes the escape).
      expect(JSON.stringify({ newName: text })).toMatch(/\\ud[89a-f]/);
      expectJsonError(
        await json('POST', '/rest/admin/role/Developer', { newName: text }),
        400,
        'VALIDATION_FAILED',
        `newName: ${WELL_FORMED}`,
      );
      expectJsonError(
        await json('POST', '/rest/admin/issueLinkType/Blocks2', { newName: text }),
        400,
        'VALIDATION_FAILED',
        `newName: ${WELL_FORMED}`,
      );
      expectJsonError(
        await json('PUT', '/rest/admin/issueLinkType/Blocks3', { outwardName: text }),
        400,
        'VALIDATION_FAILED',
        `outwardName: ${WELL_FORMED}`,
      );
      expectJsonError(
        await json('PUT', '/rest/admin/project/SURR', { projectName: 'P', description: text }),
        400,
        'VALIDATION_FAILED',
        `description: ${WELL_FORMED}`,
      );
    }
    // In a parameter name, and in an XML character reference.
    expectJsonError(
      await server.request('POST', '/rest/admin/role/Developer', {
        user: 'root',
        accept: JSON_ACCEPT,
        contentType: 'application/json',
        body: '{"\\udfff": "x"}',
      }),
      400,
      'VALIDATION_FAILED',
      `input: parameter names ${WELL_FORMED}`,
    );
    expect(await adminSnapshot(server.orm)).toEqual(before);
  });

  it('refuses a lone surrogate on /trpc, in a mutation body and in a query input', async () => {
    const before = await adminSnapshot(server.orm);
    const mutation = await server.request('POST', '/trpc/roles.create', {
      user: 'root',
      contentType: 'application/json',
      body: JSON.stringify({ role: LONE.low }),
    });
    expect(mutation.status, mutation.text).toBe(400);
    expect(mutation.json().error.message).toBe(`role: ${WELL_FORMED}`);
    const query = await server.request(
      'GET',
      `/trpc/roles.get?input=${encodeURIComponent(JSON.stringify({ role: LONE.high }))}`,
      { user: 'root' },
    );
    expect(query.status, query.text).toBe(400);
    expect(await adminSnapshot(server.orm)).toEqual(before);
  });

  it('never answers 500 for surrogates encoded in a URL or an XML reference (decoded to U+FFFD, dropped, or literal)', async () => {
    await createProjectOverHttp(server, 'URLS', 'Url surrogates');
    const paths = [
      ['PUT', '/rest/issue?project=URLS&summary=Surr2%ED%BF%BF'],
      ['POST', '/rest/admin/role/Developer?description=d%ED%BF%BF'],
      ['PUT', '/rest/admin/role/R%ED%BF%BF'],
      ['GET', '/rest/admin/role/R%ED%BF%BF'],
      ['GET', '/rest/issue?filter=%ED%BF%BF'],
    ] as const;
    for (const [method, path] of paths) {
      const res = await server.request(method, path, { user: 'root', accept: JSON_ACCEPT });
      expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(500);
    }
    // An XML character reference to a surrogate is not decoded into one.
    const xml = await server.request('PUT', '/rest/admin/project', {
      user: 'root',
      contentType: 'application/xml',
      body: '<project id="SURR" name="Surr&#xDFFF;"/>',
    });
    expect(xml.status, xml.text).toBeLessThan(500);
    expect(hasLoneSurrogates(xml.text)).toBe(false);
    const issue = await getIssueJson(server, 'URLS-1');
    expect(issue.field.find((f) => f.name === 'summary')?.value).toBe('Surr2\ufffd\ufffd\ufffd');
    // A well-formed pair is ordinary text.
    const res = await json('POST', '/rest/admin/role/Developer', { description: 'smile \ud83d\ude00' });
    expect(res.status, res.text).toBe(200);
    expectNoStackTraces(server);
  });

  it('reads every issue a project starting at 999999999 creates, by id over REST', async () => {
    await createProjectOverHttp(server, 'BIG', 'Big numbers', 999_999_999);
    const first = await createIssue(server, 'first', { project: 'BIG' });
    const second = await createIssue(server, 'second', { project: 'BIG' });
    expect([first, second]).toEqual(['BIG-999999999', 'BIG-1000000000']);
    for (const id of [first, second]) {
      expect((await getIssueJson(server, id)).id).toBe(id);
      const json = await server.request('GET', `/rest/issue/${id}`, { user: 'root' });
      expect(json.status, json.text).toBe(200);
    }
    const found = await server.request('GET', `/rest/issue${q({ filter: second })}`, {
      user: 'root',
      accept: JSON_ACCEPT,
    });
    expect(found.status, found.text).toBe(200);
    expect(found.json().issue.map((i: { id: string }) => i.id)).toEqual([second]);
    const command = await server.request(
      'POST',
      `/rest/issue/${second}/execute${q({ command: 'comment', comment: 'c' })}`,
      {
        user: 'root',
      },
    );
    expect(command.status, command.text).toBe(200);
  });

  it('agrees on the last number: ids beyond it are not found, and numbers run out with 409, not 500', async () => {
    await createProjectOverHttp(server, 'EDGE', 'Edge', 1_000_000_000);
    const em = fork(server.orm);
    await em.nativeUpdate(Project, { shortName: 'EDGE' }, { nextNumber: MAX_ISSUE_NUMBER - 1 });
    const last = await createIssue(server, 'last', { project: 'EDGE' });
    expect(last).toBe(`EDGE-${MAX_ISSUE_NUMBER - 1}`);
    expect((await getIssueJson(server, last)).id).toBe(last);
    const over = await server.request('PUT', '/rest/issue?project=EDGE&summary=over', {
      user: 'root',
      accept: JSON_ACCEPT,
    });
    expectJsonError(over, 409, 'CONFLICT', 'Project [ EDGE ] has no issue numbers left.');
    for (const id of [`EDGE-${MAX_ISSUE_NUMBER}`, 'EDGE-9999999999']) {
      const res = await server.request('GET', `/rest/issue/${id}`, { user: 'root', accept: JSON_ACCEPT });
      expect(res.status, res.text).toBe(404);
    }
    expectNoStackTraces(server);
  });
});
