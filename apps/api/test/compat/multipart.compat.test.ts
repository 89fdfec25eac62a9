import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoStackTraces, startTestServer, type TestServer, USER_PASSWORD } from '../harness.js';
import {
  createIssue,
  getIssueJson,
  issueSnapshot,
  PRJ,
  q,
  root,
  setUpWorld,
  valuesOf,
} from '../issue-fixtures.js';

/*
 * `multipart/form-data` bodies are read like form bodies on every route (legacy-clients.md:
 * one client executes commands with a multipart body, one creates issues with an empty
 * multipart body), and an empty parameter value means absent (one client always sends
 * `disableNotifications=`). Limits: parameters (query and body together), body size, parts.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ handler: { inputLimits: { maxParameters: 20, maxDepth: 64 } } });
  await setUpWorld(server);
});
afterAll(() => server.close());

const BOUNDARY = '----tracklineBoundary7MA4YWxkTrZu0gW';
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** A multipart body of text fields (and optionally one file part), as browsers and HTTP libraries write it. */
function multipart(
  fields: [string, string][],
  file?: { name: string; filename: string; content: string },
): string {
  const parts = fields.map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  if (file) {
    parts.push(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\n` +
        `Content-Type: text/plain\r\n\r\n${file.content}\r\n`,
    );
  }
  return `${parts.join('')}--${BOUNDARY}--\r\n`;
}

const send = (method: string, path: string, body: string, user = 'root') =>
  root(server, method, path, { user, contentType: CONTENT_TYPE, body });

describe('multipart/form-data bodies are read like form bodies', () => {
  it('POST /rest/issue/{id}/execute with command and comment as multipart fields', async () => {
    const id = await createIssue(server, 'Multipart command');
    const res = await send(
      'POST',
      `/rest/issue/${id}/execute`,
      multipart([
        ['command', 'Priority Critical'],
        ['comment', 'from a multipart body'],
        ['disableNotifications', ''],
      ]),
    );
    expect(res.status, res.text).toBe(200);
    const issue = await getIssueJson(server, id);
    expect(valuesOf(issue, 'Priority')).toEqual(['Critical']);
    expect(issue.comment.map((c) => c.text)).toEqual(['from a multipart body']);
  });

  it('PUT /rest/issue with the query parameters and an empty multipart body', async () => {
    const res = await send(
      'PUT',
      `/rest/issue${q({ project: PRJ, summary: 'Empty multipart' })}`,
      `--${BOUNDARY}--\r\n`,
    );
    expect(res.status, res.text).toBe(201);
  });

  it('POST /rest/issue with the fields in the multipart body; a file part is not an input', async () => {
    const res = await send(
      'POST',
      '/rest/issue',
      multipart(
        [
          ['project', PRJ],
          ['summary', 'Created from multipart'],
        ],
        { name: 'files', filename: 'notes.txt', content: 'not a parameter' },
      ),
    );
    expect(res.status, res.text).toBe(201);
    const id = decodeURIComponent((res.headers.get('location') ?? '').split('/').pop() ?? '');
    expect(valuesOf(await getIssueJson(server, id), 'summary')).toEqual(['Created from multipart']);
  });

  it('POST /rest/user/login with a multipart body', async () => {
    const res = await server.request('POST', '/rest/user/login', {
      contentType: CONTENT_TYPE,
      body: multipart([
        ['login', 'u_dev'],
        ['password', USER_PASSWORD],
      ]),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe('<login>ok</login>');
  });
});

describe('an empty parameter value means absent', () => {
  it('disableNotifications= in the query or a form body is accepted as absent', async () => {
    const id = await createIssue(server, 'Empty values');
    const query = await root(
      server,
      'POST',
      `/rest/issue/${id}/execute?command=Priority%20Major&disableNotifications=`,
    );
    expect(query.status, query.text).toBe(200);
    const form = await root(server, 'POST', `/rest/issue/${id}/execute`, {
      contentType: 'application/x-www-form-urlencoded',
      body: 'command=Priority%20Minor&comment=&disableNotifications=',
    });
    expect(form.status, form.text).toBe(200);
    expect(valuesOf(await getIssueJson(server, id), 'Priority')).toEqual(['Minor']);
    // `comment=` added no comment.
    expect((await getIssueJson(server, id)).comment).toEqual([]);
  });

  it('max= and after= on a search are absent (defaults), not 0', async () => {
    const res = await root(server, 'GET', '/rest/issue?filter=&max=&after=', { accept: 'application/json' });
    expect(res.status, res.text).toBe(200);
    expect(res.json().issue.length).toBeGreaterThan(0);
  });
});

describe('limits and refusals', () => {
  it('more fields than the parameter limit (query and body together) is 400, nothing stored', async () => {
    const id = await createIssue(server, 'Too many parts');
    const before = await issueSnapshot(server);
    const fields: [string, string][] = Array.from({ length: 19 }, (_, i) => [`x${i}`, 'v']);
    const res = await send(
      'POST',
      `/rest/issue/${id}/execute?command=Priority%20Major&comment=c`,
      multipart(fields),
    );
    expect(res.status, res.text).toBe(400);
    expect(res.text).toMatch(/Too many parameters/);
    expect(await issueSnapshot(server)).toEqual(before);
  });

  it('a body over the size limit is 413', async () => {
    const id = await createIssue(server, 'Too large');
    const res = await send(
      'POST',
      `/rest/issue/${id}/execute`,
      multipart([['comment', 'x'.repeat(1024 * 1024 + 10)]]),
    );
    expect(res.status).toBe(413);
  });

  it('a multipart type without a boundary is 400 naming the body', async () => {
    const id = await createIssue(server, 'No boundary');
    const res = await root(server, 'POST', `/rest/issue/${id}/execute`, {
      contentType: 'multipart/form-data',
      body: 'command=Fixed',
    });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/body/);
  });

  it('an unauthenticated multipart request is 401 before its body is read', async () => {
    const res = await server.request('POST', `/rest/issue/${PRJ}-10/execute`, {
      contentType: CONTENT_TYPE,
      body: multipart([['command', 'Fixed']]),
    });
    expect(res.status).toBe(401);
  });
});

describe('hygiene', () => {
  it('no response of this suite carried a stack trace', () => expectNoStackTraces(server));
});
