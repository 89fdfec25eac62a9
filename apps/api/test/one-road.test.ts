import { createIssue, createProject } from '@trackline/domain';
import { actorFor, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callProcedure } from './caller.js';
import { JSON_ACCEPT, startTestServer, type TestServer } from './harness.js';

/**
 * One declaration, two transports: `/rest` runs an operation itself (rest/run-operation.ts)
 * and `/trpc` through tRPC (trpc/procedures.ts). For the same caller and input both must give
 * the same data, or the same error code and message.
 */
describe('/rest and /trpc run the same operation alike', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    const root = await actorFor(server.orm, 'root');
    await createProject(fork(server.orm), root, { shortName: 'ROAD', name: 'One road', startingNumber: 7 });
    await userWithRole(server.orm, 'dev', 'Developer', 'ROAD');
    await createIssue(fork(server.orm), root, { project: 'ROAD', summary: 'walked both ways' });
  });
  afterAll(() => server.close());

  const viaTrpc = async (login: string, path: string, input: unknown) => {
    const result = await callProcedure(server.orm, await actorFor(server.orm, login), path, input);
    return result.ok
      ? { ok: true, data: result.value }
      : { ok: false, code: result.code, message: result.message };
  };
  const viaRest = async (login: string, method: string, path: string) => {
    const res = await server.request(method, path, { user: login, accept: JSON_ACCEPT });
    // The caller's context answers URLs under http://trackline.test (test/caller.ts).
    const body = JSON.parse(res.text.replaceAll(server.url, 'http://trackline.test'));
    return res.status < 300 ? { ok: true, data: body } : { ok: false, code: body.code, message: body.value };
  };

  const CASES: [string, string, string, string, unknown][] = [
    ['root', 'GET', '/rest/admin/role/Developer', 'roles.get', { role: 'Developer' }],
    ['dev', 'GET', '/rest/issue/ROAD-7', 'issues.get', { issue: 'ROAD-7' }],
    [
      'dev',
      'GET',
      '/rest/issue?filter=project%3A%20ROAD&max=5',
      'issues.search',
      { filter: 'project: ROAD', max: 5 },
    ],
    ['dev', 'GET', '/rest/admin/role/Developer', 'roles.get', { role: 'Developer' }],
    ['dev', 'GET', '/rest/issue/NOPE-1', 'issues.get', { issue: 'NOPE-1' }],
    ['root', 'GET', '/rest/issue?filter=State%3A&max=5', 'issues.search', { filter: 'State:', max: 5 }],
    ['root', 'GET', '/rest/issue?max=0', 'issues.search', { max: 0 }],
  ];

  it.each(CASES)('%s %s %s', async (login, method, path, procedure, input) => {
    const rest = await viaRest(login, method, path);
    const trpc = await viaTrpc(login, procedure, input);
    // A validation error's text is written by each transport's formatter; its code must agree.
    if (!trpc.ok && trpc.code === 'VALIDATION_FAILED')
      expect(rest).toMatchObject({ ok: false, code: trpc.code });
    else expect(rest).toEqual(trpc);
  });

  it('REST takes numbers as text where the contract takes numbers; /trpc stays strict', async () => {
    const rest = await viaRest('root', 'GET', '/rest/issue?filter=&max=1');
    expect(rest.ok).toBe(true);
    const trpc = await viaTrpc('root', 'issues.search', { filter: '', max: '1' });
    expect(trpc).toMatchObject({ ok: false, code: 'VALIDATION_FAILED' });
  });
});
