import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectJsonError,
  expectXmlError,
  JSON_ACCEPT,
  type RequestOptions,
  startTestServer,
  type TestServer,
  XML_ACCEPT,
} from './harness.js';
import {
  createIssue,
  expectNoLeaks,
  issueSnapshot,
  PRJ,
  PRJ_START,
  q,
  setUpWorld,
} from './issue-fixtures.js';

let server: TestServer;
/** The issue the cases act on: PRJ's first issue. */
const ISSUE = `${PRJ}-${PRJ_START}`;

beforeAll(async () => {
  server = await startTestServer();
  await setUpWorld(server);
  expect(await createIssue(server, 'bad input target')).toBe(ISSUE);
});
afterAll(() => server.close());

type Case = {
  name: string;
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  path: string;
  options?: RequestOptions;
  status: number;
  code: string;
  /** The parameter the message must name (also `issues[0].field` for validation errors), if any. */
  field?: string;
  message: string | RegExp;
};

const x = (n: number) => 'x'.repeat(n);
const form = (fields: Record<string, string>): RequestOptions => ({
  body: new URLSearchParams(fields).toString(),
  contentType: 'application/x-www-form-urlencoded',
});
const invalid = (
  field: string,
  message: string,
  rest: Omit<Case, 'status' | 'code' | 'field' | 'message'>,
): Case => ({
  ...rest,
  status: 400,
  code: 'VALIDATION_FAILED',
  field,
  message: `${field}: ${message}`,
});
const execute = (params: Record<string, string>) => `/rest/issue/${ISSUE}/execute${q(params)}`;
const intellisense = (params: Record<string, string>) =>
  `/rest/issue/${ISSUE}/execute/intellisense${q(params)}`;
const suggest = (params: Record<string, string>) => `/rest/command/suggest${q(params)}`;

const CASES: Case[] = [
  // PUT /rest/issue
  invalid('summary', 'is required', {
    name: 'create: missing summary',
    method: 'PUT',
    path: `/rest/issue?project=${PRJ}`,
  }),
  invalid('summary', 'must not be empty', {
    name: 'create: empty summary',
    method: 'PUT',
    path: `/rest/issue?project=${PRJ}&summary=`,
  }),
  invalid('summary', 'must not be empty', {
    name: 'create: blank summary',
    method: 'PUT',
    path: `/rest/issue?project=${PRJ}&summary=%20%20`,
  }),
  invalid('summary', 'must be at most 1000 characters', {
    name: 'create: summary too long',
    method: 'PUT',
    path: `/rest/issue${q({ project: PRJ, summary: x(1001) })}`,
  }),
  invalid('summary', 'must not contain control characters', {
    name: 'create: control character in summary',
    method: 'PUT',
    path: `/rest/issue${q({ project: PRJ, summary: 'a\u0007b' })}`,
  }),
  invalid('description', 'must be at most 64000 characters', {
    name: 'create: description too long',
    method: 'PUT',
    path: '/rest/issue',
    options: form({ project: PRJ, summary: 's', description: x(64_001) }),
  }),
  invalid('project', 'is required', {
    name: 'create: missing project',
    method: 'PUT',
    path: '/rest/issue?summary=s',
  }),
  invalid('project', 'must start with a letter and contain only letters, digits and _', {
    name: 'create: malformed project',
    method: 'PUT',
    path: '/rest/issue?project=1-X&summary=s',
  }),
  {
    name: 'create: unknown project',
    method: 'PUT',
    path: '/rest/issue?project=NOPE&summary=s',
    status: 404,
    code: 'NOT_FOUND',
    message: 'Project [ NOPE ] not found.',
  },

  // GET /rest/issue/{id}
  invalid('issue', 'must be an issue id like PRJ-12', {
    name: 'get: malformed id',
    method: 'GET',
    path: '/rest/issue/notanid',
  }),
  invalid('issue', 'must be an issue id like PRJ-12', {
    name: 'get: id without a number',
    method: 'GET',
    path: `/rest/issue/${PRJ}-`,
  }),
  invalid('issue', 'must be an issue id like PRJ-12', {
    // Ten digits are valid (a project may start at 1,000,000,000); eleven are not.
    name: 'get: number too long',
    method: 'GET',
    path: `/rest/issue/${PRJ}-12345678901`,
  }),
  {
    name: 'get: number beyond the last issue number',
    method: 'GET',
    path: `/rest/issue/${PRJ}-9999999999`,
    status: 404,
    code: 'NOT_FOUND',
    message: `Issue [ ${PRJ}-9999999999 ] not found.`,
  },
  {
    name: 'get: unknown issue',
    method: 'GET',
    path: `/rest/issue/${PRJ}-99999`,
    status: 404,
    code: 'NOT_FOUND',
    message: `Issue [ ${PRJ}-99999 ] not found.`,
  },

  // GET /rest/issue?filter=
  invalid('max', 'must be at least 1', { name: 'search: max 0', method: 'GET', path: '/rest/issue?max=0' }),
  // max beyond 500 is capped, not refused (a legacy client asks max=1000000).
  invalid('max', 'must be at most 2147483647', {
    name: 'search: max beyond a 32-bit integer',
    method: 'GET',
    path: '/rest/issue?max=2147483648',
  }),
  invalid('max', 'expected number', { name: 'search: max abc', method: 'GET', path: '/rest/issue?max=abc' }),
  invalid('after', 'must be at least 0', {
    name: 'search: after -1',
    method: 'GET',
    path: '/rest/issue?after=-1',
  }),
  invalid('filter', 'must be at most 2000 characters', {
    name: 'search: filter too long',
    method: 'GET',
    path: `/rest/issue${q({ filter: x(2001) })}`,
  }),
  invalid('filter', 'Unknown value [ Nope ] at position 7 of field [ State ]', {
    name: 'search: unknown value',
    method: 'GET',
    path: `/rest/issue${q({ filter: 'State: Nope' })}`,
  }),
  invalid('filter', 'Unknown search attribute [ colour ] at position 0', {
    name: 'search: unknown attribute',
    method: 'GET',
    path: `/rest/issue${q({ filter: 'colour: red' })}`,
  }),
  invalid('filter', 'Missing } to close [ {unclosed ] at position 0', {
    name: 'search: unclosed brace',
    method: 'GET',
    path: `/rest/issue${q({ filter: '{unclosed' })}`,
  }),
  invalid('filter', 'Unknown project [ NOPE ] at position 9', {
    name: 'search: unknown project',
    method: 'GET',
    path: `/rest/issue${q({ filter: 'project: NOPE' })}`,
  }),

  // POST /rest/issue/{id}/execute
  invalid('command', 'must be at most 2000 characters', {
    name: 'execute: command too long',
    method: 'POST',
    path: execute({ command: x(2001) }),
  }),
  invalid('command', 'must be at most 2000 characters', {
    name: 'execute: command too long (form body)',
    method: 'POST',
    path: `/rest/issue/${ISSUE}/execute`,
    options: form({ command: `Fixed ${x(1995)}` }),
  }),
  invalid('command', 'is required (or a comment)', {
    name: 'execute: neither command nor comment',
    method: 'POST',
    path: execute({}),
  }),
  invalid('command', 'is required (or a comment)', {
    name: 'execute: blank command',
    method: 'POST',
    path: execute({ command: '   ' }),
  }),
  invalid('command', 'Unknown command: zork (at 0-4)', {
    name: 'execute: unparseable command',
    method: 'POST',
    path: execute({ command: 'zork' }),
  }),
  invalid('comment', 'must be at most 64000 characters', {
    name: 'execute: comment too long',
    method: 'POST',
    path: `/rest/issue/${ISSUE}/execute`,
    options: form({ command: 'comment', comment: x(64_001) }),
  }),
  invalid('runAs', 'must be at most 100 characters', {
    name: 'execute: runAs too long',
    method: 'POST',
    path: execute({ command: 'vote', runAs: x(101) }),
  }),
  invalid('runAs', 'user [ ghost ] not found', {
    name: 'execute: unknown runAs user',
    method: 'POST',
    path: execute({ command: 'vote', runAs: 'ghost' }),
  }),
  invalid('issue', 'must be an issue id like PRJ-12', {
    name: 'execute: malformed id',
    method: 'POST',
    path: '/rest/issue/bad_id/execute?command=Fixed',
  }),
  invalid('body', 'is not valid JSON', {
    name: 'execute: malformed JSON body',
    method: 'POST',
    path: `/rest/issue/${ISSUE}/execute`,
    options: { body: '{"command":', contentType: 'application/json' },
  }),
  {
    name: 'execute: unsupported body type',
    method: 'POST',
    path: `/rest/issue/${ISSUE}/execute`,
    options: { body: 'command,Fixed', contentType: 'text/csv' },
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Unsupported content type text/csv.',
  },
  {
    name: 'execute: unknown issue',
    method: 'POST',
    path: `/rest/issue/${PRJ}-99999/execute?command=Fixed`,
    status: 404,
    code: 'NOT_FOUND',
    message: `Issue [ ${PRJ}-99999 ] not found.`,
  },

  // GET /rest/issue/{id}/execute/intellisense
  invalid('caret', 'must be at least 0', {
    name: 'intellisense: negative caret',
    method: 'GET',
    path: intellisense({ command: 'x', caret: '-1' }),
  }),
  invalid('optionsLimit', 'must be at least 1', {
    name: 'intellisense: optionsLimit 0',
    method: 'GET',
    path: intellisense({ optionsLimit: '0' }),
  }),
  invalid('optionsLimit', 'must be at most 100', {
    name: 'intellisense: optionsLimit 101',
    method: 'GET',
    path: intellisense({ optionsLimit: '101' }),
  }),
  invalid('optionsLimit', 'expected number', {
    name: 'intellisense: optionsLimit abc',
    method: 'GET',
    path: intellisense({ optionsLimit: 'abc' }),
  }),
  invalid('command', 'must be at most 2000 characters', {
    name: 'intellisense: command too long',
    method: 'GET',
    path: intellisense({ command: x(2001) }),
  }),

  // /rest/command/*
  invalid('caret', 'must be at least 0', {
    name: 'suggest: negative caret',
    method: 'GET',
    path: suggest({ command: 'x', caret: '-1' }),
  }),
  invalid('caret', 'must be at most 2000', {
    name: 'suggest: caret past the limit',
    method: 'GET',
    path: suggest({ command: 'x', caret: '2001' }),
  }),
  invalid('optionsLimit', 'must be at least 1', {
    name: 'suggest: optionsLimit 0',
    method: 'GET',
    path: suggest({ optionsLimit: '0' }),
  }),
  invalid('optionsLimit', 'must be at most 100', {
    name: 'suggest: optionsLimit 101',
    method: 'GET',
    path: suggest({ optionsLimit: '101' }),
  }),
  invalid('optionsLimit', 'expected number', {
    name: 'suggest: optionsLimit abc',
    method: 'GET',
    path: suggest({ optionsLimit: 'abc' }),
  }),
  invalid('command', 'must be at most 2000 characters', {
    name: 'suggest: command too long',
    method: 'GET',
    path: suggest({ command: x(2001) }),
  }),
  invalid('command', 'must be at most 2000 characters', {
    name: 'underline: command too long',
    method: 'GET',
    path: `/rest/command/underline${q({ command: x(2001) })}`,
  }),
  invalid('command', 'must be at most 2000 characters', {
    name: 'underlineAndSuggestAndCommands: command too long',
    method: 'GET',
    path: `/rest/command/underlineAndSuggestAndCommands${q({ command: x(2001) })}`,
  }),
  invalid('issueIds', 'must be issue ids (PRJ-12) or compressed persistent ids', {
    name: 'suggest: malformed issueIds',
    method: 'GET',
    path: suggest({ issueIds: 'a~b' }),
  }),
  invalid('issueIds', 'must be at most 10000 characters', {
    name: 'suggest: issueIds too long',
    method: 'GET',
    path: suggest({ issueIds: x(10_001) }),
  }),
  invalid('query', 'must be at most 2000 characters', {
    name: 'suggest: query too long',
    method: 'GET',
    path: suggest({ query: x(2001) }),
  }),
  invalid('query', 'Missing } to close [ {open ] at position 0', {
    name: 'suggest: malformed query',
    method: 'GET',
    path: suggest({ query: '{open' }),
  }),
  {
    name: 'suggest: noIssuesContext not a boolean',
    method: 'GET',
    path: suggest({ noIssuesContext: 'maybe' }),
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'noIssuesContext',
    message: /^noIssuesContext: /,
  },
  {
    name: 'suggest: unknown folder',
    method: 'GET',
    path: suggest({ folder: 'nope', command: 'x' }),
    status: 404,
    code: 'NOT_FOUND',
    message: 'Issue folder [ nope ] not found.',
  },
  {
    name: 'suggest: unknown issue',
    method: 'GET',
    path: suggest({ issueIds: `${PRJ}-99999` }),
    status: 404,
    code: 'NOT_FOUND',
    message: `Issue [ ${PRJ}-99999 ] not found.`,
  },

  // Folders, saved searches, tags
  {
    name: 'folder: unknown id',
    method: 'GET',
    path: '/rest/issuesFolder/zzz',
    status: 404,
    code: 'NOT_FOUND',
    message: 'Issue folder [ zzz ] not found.',
  },
  {
    name: 'setContextFolder: unknown id',
    method: 'POST',
    path: '/rest/issuesFolder/setContextFolder?folderId=zzz',
    status: 404,
    code: 'NOT_FOUND',
    message: 'Issue folder [ zzz ] not found.',
  },
  invalid('folderId', 'must be at most 200 characters', {
    name: 'setContextFolder: id too long',
    method: 'POST',
    path: `/rest/issuesFolder/setContextFolder${q({ folderId: x(201) })}`,
  }),
  invalid('query', 'is required', {
    name: 'saved search: missing query',
    method: 'PUT',
    path: '/rest/user/search/Mine',
  }),
  invalid('query', 'must be at most 2000 characters', {
    name: 'saved search: query too long',
    method: 'PUT',
    path: `/rest/user/search/Mine${q({ query: x(2001) })}`,
  }),
  invalid('name', 'must be at most 100 characters', {
    name: 'saved search: name too long',
    method: 'PUT',
    path: `/rest/user/search/${x(101)}?query=x`,
  }),
  {
    name: 'saved search: shared not a boolean',
    method: 'PUT',
    path: '/rest/user/search/Mine?query=x&shared=maybe',
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'shared',
    message: /^shared: /,
  },
  invalid('name', 'must be at most 100 characters', {
    name: 'tag: name too long',
    method: 'PUT',
    path: `/rest/user/tag/${x(101)}`,
  }),
  {
    name: 'tag: delete unknown',
    method: 'DELETE',
    path: '/rest/user/tag/never-made',
    status: 404,
    code: 'NOT_FOUND',
    message: 'Tag [ never-made ] not found.',
  },
  {
    name: 'saved search: delete unknown',
    method: 'DELETE',
    path: '/rest/user/search/never-made',
    status: 404,
    code: 'NOT_FOUND',
    message: 'Saved search [ never-made ] not found.',
  },
];

describe.each(['xml', 'json'] as const)('bad input answered in %s', (format) => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const before = await issueSnapshot(server);
    const res = await server.request(c.method, c.path, {
      user: 'root',
      accept: format === 'json' ? JSON_ACCEPT : XML_ACCEPT,
      ...c.options,
    });
    if (format === 'json') {
      const body = expectJsonError(res, c.status, c.code, c.message);
      if (c.field) expect(body.issues?.[0]?.field).toBe(c.field);
    } else {
      expectXmlError(res, c.status, c.message);
    }
    if (c.field) expect(format === 'json' ? res.json().value : res.text).toContain(`${c.field}:`);
    expect(await issueSnapshot(server)).toEqual(before);
  });
});

it('after all the refused creates, the next issue takes the next number', async () => {
  expect(await createIssue(server, 'after the bad ones')).toBe(`${PRJ}-${PRJ_START + 1}`);
});

describe('hygiene', () => {
  it('no response of this suite carried a stack trace', () => expectNoLeaks(server));
});
