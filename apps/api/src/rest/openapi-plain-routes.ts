import { VCS_HOSTS } from '@trackline/contracts';

/*
 * The routes the server answers outside the tRPC procedures (server.ts): login, the VCS hook
 * receivers, this document, the docs page, and the tRPC endpoint. They are written here by
 * hand because no procedure declares them; a test walks the server's routes against the
 * document, so a plain route added to server.ts without a line here fails it.
 */

type Json = Record<string, unknown>;

const xmlError = {
  description: 'Refused: `<error>message</error>` (JSON `{"value": message}` when JSON is preferred)',
  content: {
    'application/xml': { schema: { type: 'string' } },
    'application/json': { schema: { type: 'object', properties: { value: { type: 'string' } } } },
  },
};
const PUBLIC: Json[] = [];

const issueParameter = { name: 'issue', in: 'path', required: true, schema: { type: 'string' } };
const multipartUpload = (summary: string, description: string, extra: Json[] = []) => ({
  summary,
  description,
  security: [{ Authorization: [] }, { Basic: [] }],
  parameters: [issueParameter, ...extra],
  requestBody: {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          properties: {
            files: { type: 'array', items: { type: 'string', format: 'binary' } },
            group: { type: 'string', description: 'The visibility group (wins over the query parameter)' },
          },
        },
      },
    },
  },
  responses: {
    '201': {
      description: "Stored; `Location` is the first file's download URL (JSON: the stored files)",
      headers: { Location: { description: 'Download URL', schema: { type: 'string' } } },
    },
    '400': { description: 'Not a multipart form, or no file in it' },
    '401': { description: 'No or bad credentials' },
    '403': { description: 'Missing permission' },
    '404': { description: 'No such (readable) issue, or (upload) no such group' },
    '413': { description: 'A file is larger than TRACKLINE_MAX_ATTACHMENT_BYTES' },
    '415': { description: 'Not multipart/form-data' },
  },
});

/**
 * The attachment routes served beside the procedures (`attachments/attachments.route.ts`):
 * multipart uploads and the download URL, documented here by hand.
 */
export const ATTACHMENT_PATHS: Record<string, Json> = {
  '/issue/{issue}/attachment': {
    post: multipartUpload(
      'Attach files to an issue (CREATE_ATTACHMENT_ISSUE)',
      'Every file part of the form is stored, whatever its field name. `group` (query, or a form field) restricts ' +
        'the files to the group: their author, its members and holders of READ_HIDDEN_STUFF in the project see them ' +
        'in lists, downloads and the issue; an unknown group answers 404 (nothing is stored); an empty `group=` means none.',
      [{ name: 'group', in: 'query', required: false, schema: { type: 'string' } }],
    ),
  },
  '/import/{issue}/attachment': {
    post: multipartUpload(
      'Import attachments with their author, group and time (IMPORT_DATA)',
      'An unknown `authorLogin` becomes a system-user reference; `group` (query or form field) is kept as given ' +
        '(a migration may bring files of groups not made yet) and restricts the files as on the route above.',
      [
        { name: 'authorLogin', in: 'query', required: false, schema: { type: 'string' } },
        { name: 'group', in: 'query', required: false, schema: { type: 'string' } },
        { name: 'created', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
      ],
    ),
  },
  '/issue/{issue}/attachment/{attachment}': {
    get: {
      summary: 'Download an attachment (readers of the issue only)',
      description:
        "Also served, outside `/rest`, under the original's path shape: `GET /_persistent/{name}?file={attachment}&issue={issue}`, " +
        "the root-relative `url` that attachment lists and the issue's `attachments` field give (clients prefix their base URL).",
      security: [{ Authorization: [] }, { Basic: [] }],
      parameters: [
        issueParameter,
        { name: 'attachment', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
      ],
      responses: {
        '200': {
          description: 'The file (`Content-Disposition: attachment`)',
          content: { 'application/octet-stream': {} },
        },
        '401': { description: 'No or bad credentials' },
        '404': { description: 'No such attachment on a readable issue' },
      },
    },
  },
};

/** `/rest`-relative paths (the document's server is `<base>/rest`). */
export const PLAIN_PATHS: Record<string, Json> = {
  ...ATTACHMENT_PATHS,
  '/user/login': {
    post: {
      operationId: 'user-login',
      summary: 'Log in: sets the session cookie',
      description:
        "Form (or multipart, or JSON) body `login`, `password`, or both as query parameters (the original's documented " +
        'form; `TRACKLINE_LOGIN_QUERY_PASSWORD=off` refuses a password there with 400; query strings are never logged). Answers exactly `<login>ok</login>` whatever the Accept header (clients compare the body), ' +
        'with one `Set-Cookie: JSESSIONID=…` without Expires.',
      security: PUBLIC,
      parameters: [
        { name: 'login', in: 'query', required: false, schema: { type: 'string' } },
        { name: 'password', in: 'query', required: false, schema: { type: 'string' } },
      ],
      requestBody: {
        required: false,
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              properties: { login: { type: 'string' }, password: { type: 'string' } },
            },
          },
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: { login: { type: 'string' }, password: { type: 'string' } },
            },
          },
        },
      },
      responses: {
        '200': {
          description: 'Logged in',
          headers: { 'Set-Cookie': { description: 'The session cookie', schema: { type: 'string' } } },
          content: { 'application/xml': { schema: { type: 'string', const: '<login>ok</login>' } } },
        },
        '400': xmlError,
        '401': xmlError,
        '429': xmlError,
      },
    },
  },
  '/vcsHooksReceiver/{host}': {
    post: {
      operationId: 'vcs-hook-receive',
      summary: 'Receive a push from a VCS host (GitHub, GitLab, Bitbucket)',
      description:
        'The integration is named by its `apiKey`, checked before the body is read. The payload is the raw JSON ' +
        'body, a form field `payload`, or the query parameter `payload`. Commands in commit messages ' +
        '(`#PRJ-1 Fixed`) run as the committer matched by e-mail. Answers a JSON receipt: 202 when queued, ' +
        '200 for a ping, an ignored event or a redelivery.',
      security: [{ VcsApiKey: [] }],
      parameters: [
        { name: 'host', in: 'path', required: true, schema: { type: 'string', enum: [...VCS_HOSTS] } },
        { name: 'payload', in: 'query', required: false, schema: { type: 'string' } },
      ],
      requestBody: {
        required: false,
        content: {
          'application/json': { schema: { type: 'object' } },
          'application/x-www-form-urlencoded': {
            schema: { type: 'object', properties: { payload: { type: 'string' } } },
          },
        },
      },
      responses: {
        '200': {
          description: 'Ping, ignored event or redelivery',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
        '202': {
          description: 'Stored; commands run in the background',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
        '400': xmlError,
        '401': xmlError,
        '404': xmlError,
        '405': xmlError,
        '413': xmlError,
      },
    },
  },
  '/openapi.json': {
    // Served at `<base>/rest/openapi.json` and at `<base>/openapi.json`.
    get: {
      operationId: 'openapi-document',
      summary: 'This OpenAPI document',
      security: PUBLIC,
      responses: {
        '200': {
          description: 'The document',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
    },
  },
  '/docs': {
    get: {
      operationId: 'docs-page',
      summary: 'This document rendered as a page (Swagger UI, served by this server)',
      security: PUBLIC,
      responses: {
        '200': { description: 'The page', content: { 'text/html': { schema: { type: 'string' } } } },
      },
    },
  },
  '/docs/{asset}': {
    get: {
      operationId: 'docs-asset',
      summary: 'A script, style sheet or image of the docs page',
      security: PUBLIC,
      parameters: [{ name: 'asset', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '200': { description: 'The asset', content: { '*/*': { schema: { type: 'string' } } } },
        '404': xmlError,
      },
    },
  },
};

/** Paths relative to the server root (not `/rest`): the tRPC endpoint. */
export function rootPaths(rootUrl: string): Record<string, Json> {
  const servers = [{ url: rootUrl }];
  const trpc = (method: 'get' | 'post') => ({
    operationId: `trpc-${method}`,
    summary:
      method === 'get' ? 'A tRPC query (batched when `batch=1`)' : 'A tRPC mutation, or batched queries',
    description:
      'The tRPC interface for TypeScript consumers (packages/client); the procedures mirror the REST routes.',
    security: [{ Authorization: [] }, { Basic: [] }],
    parameters: [
      { name: 'procedure', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'input', in: 'query', required: false, schema: { type: 'string' } },
      { name: 'batch', in: 'query', required: false, schema: { type: 'string' } },
    ],
    responses: {
      '200': { description: 'The result', content: { 'application/json': { schema: { type: 'object' } } } },
      '400': { description: 'Bad input', content: { 'application/json': { schema: { type: 'object' } } } },
      '401': { description: 'No caller', content: { 'application/json': { schema: { type: 'object' } } } },
    },
  });
  return { '/trpc/{procedure}': { servers, get: trpc('get'), post: trpc('post') } };
}

export const VCS_API_KEY_SCHEME = {
  type: 'apiKey',
  in: 'query',
  name: 'apiKey',
  description: 'The key of a VCS integration (see /admin/vcsIntegration)',
};
