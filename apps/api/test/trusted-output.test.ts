import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestHandler } from '../src/server.js';
import {
  basic,
  JSON_ACCEPT,
  ROOT_PASSWORD,
  startTestServer,
  type TestServer,
  XML_ACCEPT,
} from './harness.js';
import { createIssue, mustExecute, PRJ, q, root, setUpWorld } from './issue-fixtures.js';

/*
 * Outputs declared `trusted` (the legacy issue DTOs, roles and the project list, built from typed rows) are written without
 * their schema check in production (`outputChecks: 'untrusted'`, rest/run-operation.ts). Tests
 * run with every check; this one serves the same database through a production handler as well
 * and requires the same bytes, so a DTO the schema would have changed (a key it strips, a value
 * it refuses) fails here.
 */

let server: TestServer;
let production: Server;
let productionUrl: string;

beforeAll(async () => {
  server = await startTestServer();
  await setUpWorld(server);
  const first = await createIssue(server, 'Trusted output', {
    description: 'Line one\n"quoted" <b>tag</b> \u00e9\u{1F600}',
  });
  const second = await createIssue(server, 'The other one');
  await mustExecute(
    server,
    first,
    `Priority Critical add Fix versions 1.0 add Fix versions 2.0 Assignee u_dev tag Reading relates to ${second}`,
  );
  const comment = await root(
    server,
    'POST',
    `/rest/issue/${first}/execute${q({ comment: 'A <comment> & "more"' })}`,
  );
  expect(comment.status, comment.text).toBe(200);
  await mustExecute(server, second, 'State Fixed vote');
  production = createServer(createRequestHandler({ orm: server.orm, outputChecks: 'untrusted' }));
  await new Promise<void>((resolve) => production.listen(0, '127.0.0.1', resolve));
  productionUrl = `http://127.0.0.1:${(production.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => production.close(() => resolve()));
  await server.close();
});

const bytes = async (base: string, path: string, accept: string) => {
  const res = await fetch(base + path, {
    headers: { accept, authorization: basic('root', ROOT_PASSWORD) },
  });
  // Absolute URLs in answers name the server's own origin, which differs between the two.
  const body = (await res.text()).replaceAll(base, '{origin}');
  return { status: res.status, type: res.headers.get('content-type'), body };
};

describe('trusted outputs are written unchecked in production, unchanged', () => {
  for (const path of [
    `/rest/issue/byproject/${PRJ}?max=50`,
    `/rest/issue?filter=${encodeURIComponent(`project: ${PRJ}`)}&max=50`,
    `/rest/issue/${PRJ}-10`,
    `/rest/issue/${PRJ}-11`,
    '/rest/admin/role/Developer',
    '/rest/admin/role',
    '/rest/admin/project',
  ]) {
    for (const accept of [JSON_ACCEPT, XML_ACCEPT]) {
      it(`${path} (${accept})`, async () => {
        const checked = await bytes(server.url, path, accept);
        expect(checked.status, checked.body).toBe(200);
        expect(await bytes(productionUrl, path, accept)).toEqual(checked);
      });
    }
  }
});
