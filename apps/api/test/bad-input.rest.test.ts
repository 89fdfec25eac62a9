import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminSnapshot,
  expectJsonError,
  expectNoStackTraces,
  expectXmlError,
  JSON_ACCEPT,
  startTestServer,
  type TestServer,
  userWithRole,
  xmlError,
} from './harness.js';

/**
 * Bad input on every admin route: each case is answered 4xx with a message naming the
 * offending field or object, in XML and in JSON, and leaves the database as it was.
 */

type Case = {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  path: string;
  body?: string;
  contentType?: string;
  status: 400 | 404 | 409 | 413 | 415;
  /** The whole message (string) or the words it must contain (field name, object name, value). */
  message: string | string[];
  /** For validation errors: the field the JSON `issues` must name. */
  field?: string;
};

const long = (n: number) => 'a'.repeat(n);
const CODE = {
  400: 'VALIDATION_FAILED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
} as const;
const SHORT_NAME_RULE = 'must start with a letter and contain only letters, digits and _';

const CASES: Record<string, Case> = {
  // Projects, legacy query form.
  'project: missing projectName': {
    method: 'PUT',
    path: '/rest/admin/project/NEWP',
    status: 400,
    message: 'projectName: is required',
    field: 'projectName',
  },
  'project: empty projectName': {
    method: 'PUT',
    path: '/rest/admin/project/NEWP?projectName=',
    status: 400,
    message: 'projectName: must not be empty',
    field: 'projectName',
  },
  'project: blank projectName': {
    method: 'PUT',
    path: '/rest/admin/project/NEWP?projectName=%20%20%20',
    status: 400,
    message: 'projectName: must not be empty',
    field: 'projectName',
  },
  'project: projectName of 201 characters': {
    method: 'PUT',
    path: `/rest/admin/project/NEWP?projectName=${long(201)}`,
    status: 400,
    message: 'projectName: must be at most 200 characters',
    field: 'projectName',
  },
  'project: short name of 51 characters': {
    method: 'PUT',
    path: `/rest/admin/project/${long(51)}?projectName=x`,
    status: 400,
    message: 'project: must be at most 50 characters',
    field: 'project',
  },
  'project: short name starting with a digit (1ABC)': {
    method: 'PUT',
    path: '/rest/admin/project/1ABC?projectName=x',
    status: 400,
    message: `project: ${SHORT_NAME_RULE}`,
    field: 'project',
  },
  'project: short name with a dash (A-B)': {
    method: 'PUT',
    path: '/rest/admin/project/A-B?projectName=x',
    status: 400,
    message: `project: ${SHORT_NAME_RULE}`,
    field: 'project',
  },
  'project: startingNumber=abc': {
    method: 'PUT',
    path: '/rest/admin/project/NEWP?projectName=x&startingNumber=abc',
    status: 400,
    message: 'startingNumber: expected number',
    field: 'startingNumber',
  },
  'project: startingNumber=0': {
    method: 'PUT',
    path: '/rest/admin/project/NEWP?projectName=x&startingNumber=0',
    status: 400,
    message: 'startingNumber: must be at least 1',
    field: 'startingNumber',
  },
  'project: startingNumber=-5': {
    method: 'PUT',
    path: '/rest/admin/project/NEWP?projectName=x&startingNumber=-5',
    status: 400,
    message: 'startingNumber: must be at least 1',
    field: 'startingNumber',
  },
  'project: startingNumber=1.5': {
    method: 'PUT',
    path: '/rest/admin/project/NEWP?projectName=x&startingNumber=1.5',
    status: 400,
    message: 'startingNumber: must be a whole number',
    field: 'startingNumber',
  },
  'project: unknown projectLeadLogin': {
    method: 'PUT',
    path: '/rest/admin/project/NEWP?projectName=x&projectLeadLogin=ghost',
    status: 400,
    message: 'projectLeadLogin: user [ ghost ] not found',
    field: 'projectLeadLogin',
  },
  'project: unknown lead (alias)': {
    method: 'PUT',
    path: '/rest/admin/project/NEWP?projectName=x&lead=ghost',
    status: 400,
    message: ['ghost', 'not found'],
  },
  'project: description of 4001 characters': {
    method: 'PUT',
    path: `/rest/admin/project/NEWP?projectName=x&description=${long(4001)}`,
    status: 400,
    message: 'description: must be at most 4000 characters',
    field: 'description',
  },
  'project: duplicate short name': {
    method: 'PUT',
    path: '/rest/admin/project/EXIST?projectName=Another',
    status: 409,
    message: 'Project [ EXIST ] already exists.',
  },
  'project: duplicate short name in another case': {
    method: 'PUT',
    path: '/rest/admin/project/exist?projectName=Another',
    status: 409,
    message: 'Project [ exist ] already exists.',
  },
  'project: duplicate name': {
    method: 'PUT',
    path: '/rest/admin/project/OTHER?projectName=Existing%20project',
    status: 409,
    message: 'Project with name [ Existing project ] already exists.',
  },
  'project: duplicate name in another case': {
    method: 'PUT',
    path: '/rest/admin/project/OTHER?projectName=EXISTING%20PROJECT',
    status: 409,
    message: 'Project with name [ EXISTING PROJECT ] already exists.',
  },
  // Projects, document body.
  'project body: malformed JSON': {
    method: 'PUT',
    path: '/rest/admin/project',
    contentType: 'application/json',
    body: '{"id": "BROKEN", ',
    status: 400,
    message: 'body: is not valid JSON',
    field: 'body',
  },
  'project body: JSON that is not an object': {
    method: 'PUT',
    path: '/rest/admin/project',
    contentType: 'application/json',
    body: '["BROKEN"]',
    status: 400,
    message: 'body: must be a JSON object',
    field: 'body',
  },
  'project body: malformed XML': {
    method: 'PUT',
    path: '/rest/admin/project',
    contentType: 'application/xml',
    body: '<project id="BROKEN" name="x"',
    status: 400,
    message: ['body: is not well-formed XML'],
    field: 'body',
  },
  'project body: XML with a DOCTYPE': {
    method: 'PUT',
    path: '/rest/admin/project',
    contentType: 'application/xml',
    body: '<!DOCTYPE project [<!ENTITY x "y">]><project id="DTD" name="&x;"/>',
    status: 400,
    message: 'body: XML with a DOCTYPE is not accepted',
    field: 'body',
  },
  'project body: missing id': {
    method: 'PUT',
    path: '/rest/admin/project',
    contentType: 'application/xml',
    body: '<project name="No id"/>',
    status: 400,
    message: 'id: is required (the project short name)',
    field: 'id',
  },
  'project body: missing name': {
    method: 'PUT',
    path: '/rest/admin/project',
    contentType: 'application/json',
    body: '{"id":"NONAME"}',
    status: 400,
    message: 'name: is required',
    field: 'name',
  },
  'project body: bad short name': {
    method: 'PUT',
    path: '/rest/admin/project',
    contentType: 'application/json',
    body: '{"id":"1X","name":"x"}',
    status: 400,
    message: `id: ${SHORT_NAME_RULE}`,
    field: 'id',
  },
  'project body: startingNumber of the wrong type': {
    method: 'PUT',
    path: '/rest/admin/project',
    contentType: 'application/json',
    body: '{"id":"TYPED","name":"x","startingNumber":"abc"}',
    status: 400,
    message: 'startingNumber: expected number',
    field: 'startingNumber',
  },
  'project body: unknown lead': {
    method: 'PUT',
    path: '/rest/admin/project',
    contentType: 'application/xml',
    body: '<project id="LEADLESS" name="Leadless" lead="ghost"/>',
    status: 400,
    message: 'projectLeadLogin: user [ ghost ] not found',
  },
  'project body: duplicate short name in another case': {
    method: 'PUT',
    path: '/rest/admin/project',
    contentType: 'application/json',
    body: '{"id":"Exist","name":"Another"}',
    status: 409,
    message: 'Project [ Exist ] already exists.',
  },
  'project body: unsupported content type': {
    method: 'PUT',
    path: '/rest/admin/project',
    contentType: 'application/yaml',
    body: 'id: YAML',
    status: 415,
    message: 'Unsupported content type application/yaml.',
  },
  'project body: more than 1 MiB': {
    method: 'PUT',
    path: '/rest/admin/project',
    contentType: 'application/json',
    body: `{"id":"BIG","name":"Big","description":"${long(1024 * 1024)}"}`,
    status: 413,
    message: 'Request body exceeds 1048576 bytes.',
  },
  'project: get an unknown project': {
    method: 'GET',
    path: '/rest/admin/project/NOPE',
    status: 404,
    message: 'Project [ NOPE ] not found.',
  },
  'project: delete an unknown project': {
    method: 'DELETE',
    path: '/rest/admin/project/NOPE',
    status: 404,
    message: 'Project [ NOPE ] not found.',
  },
  'project: get with a malformed short name': {
    method: 'GET',
    path: '/rest/admin/project/1X',
    status: 400,
    message: `project: ${SHORT_NAME_RULE}`,
    field: 'project',
  },

  // Roles and permissions.
  'role: name of 101 characters': {
    method: 'PUT',
    path: `/rest/admin/role/${long(101)}`,
    status: 400,
    message: 'role: must be at most 100 characters',
    field: 'role',
  },
  'role: blank name': {
    method: 'PUT',
    path: '/rest/admin/role/%20%20',
    status: 400,
    message: 'role: must not be empty',
    field: 'role',
  },
  'role: name with a control character': {
    method: 'PUT',
    path: '/rest/admin/role/Bad%01Name',
    status: 400,
    message: 'role: must not contain control characters',
    field: 'role',
  },
  'role: description of 1001 characters': {
    method: 'PUT',
    path: `/rest/admin/role/Wordy?description=${long(1001)}`,
    status: 400,
    message: 'description: must be at most 1000 characters',
    field: 'description',
  },
  'role: duplicate name in another case': {
    method: 'PUT',
    path: '/rest/admin/role/developer',
    status: 409,
    message: 'Role [ developer ] already exists.',
  },
  'role: update an unknown role': {
    method: 'POST',
    path: '/rest/admin/role/Nope?newName=Yes',
    status: 404,
    message: 'Role [ Nope ] not found.',
  },
  'role: rename onto an existing role in another case': {
    method: 'POST',
    path: '/rest/admin/role/Custom?newName=OBSERVER',
    status: 409,
    message: 'Role [ OBSERVER ] already exists.',
  },
  'role: newName of 101 characters': {
    method: 'POST',
    path: `/rest/admin/role/Custom?newName=${long(101)}`,
    status: 400,
    message: 'newName: must be at most 100 characters',
    field: 'newName',
  },
  'role: permissions of an unknown role': {
    method: 'GET',
    path: '/rest/admin/role/Nope/permission',
    status: 404,
    message: 'Role [ Nope ] not found.',
  },
  'role: add an unknown permission': {
    method: 'POST',
    path: '/rest/admin/role/Custom/permission/FLY',
    status: 404,
    message: 'Permission [ FLY ] not found.',
  },
  'role: add a permission spelled in lower case': {
    method: 'POST',
    path: '/rest/admin/role/Custom/permission/read_issue',
    status: 404,
    message: 'Permission [ read_issue ] not found.',
  },
  'role: add a permission to an unknown role': {
    method: 'POST',
    path: '/rest/admin/role/Nope/permission/READ_ISSUE',
    status: 404,
    message: 'Role [ Nope ] not found.',
  },
  'role: remove a permission the role does not have': {
    method: 'DELETE',
    path: '/rest/admin/role/Custom/permission/CREATE_ISSUE',
    status: 404,
    message: 'Role [ Custom ] does not have permission [ CREATE_ISSUE ].',
  },
  'role: remove an unknown permission': {
    method: 'DELETE',
    path: '/rest/admin/role/Custom/permission/FLY',
    status: 404,
    message: 'Permission [ FLY ] not found.',
  },

  // Issue link types.
  'link type: missing outwardName': {
    method: 'PUT',
    path: '/rest/admin/issueLinkType/Fresh',
    status: 400,
    message: 'outwardName: is required',
    field: 'outwardName',
  },
  'link type: empty outwardName': {
    method: 'PUT',
    path: '/rest/admin/issueLinkType/Fresh?outwardName=',
    status: 400,
    message: 'outwardName: must not be empty',
    field: 'outwardName',
  },
  'link type: name of 101 characters': {
    method: 'PUT',
    path: `/rest/admin/issueLinkType/${long(101)}?outwardName=x`,
    status: 400,
    message: 'name: must be at most 100 characters',
    field: 'name',
  },
  'link type: outwardName of 101 characters': {
    method: 'PUT',
    path: `/rest/admin/issueLinkType/Fresh?outwardName=${long(101)}`,
    status: 400,
    message: 'outwardName: must be at most 100 characters',
    field: 'outwardName',
  },
  'link type: directed=maybe': {
    method: 'PUT',
    path: '/rest/admin/issueLinkType/Fresh?outwardName=x&directed=maybe',
    status: 400,
    message: ['directed'],
    field: 'directed',
  },
  'link type: aggregation=2': {
    method: 'PUT',
    path: '/rest/admin/issueLinkType/Fresh?outwardName=x&aggregation=2',
    status: 400,
    message: ['aggregation'],
    field: 'aggregation',
  },
  'link type: directed without inwardName': {
    method: 'PUT',
    path: '/rest/admin/issueLinkType/Fresh?outwardName=freshens&directed=true',
    status: 400,
    message: 'inwardName: is required for a directed link type',
    field: 'inwardName',
  },
  'link type: duplicate name in another case': {
    method: 'PUT',
    path: '/rest/admin/issueLinkType/relates?outwardName=x',
    status: 409,
    message: 'Issue link type [ relates ] already exists.',
  },
  'link type: outward name taken by another type': {
    method: 'PUT',
    path: '/rest/admin/issueLinkType/Fresh?outwardName=depends%20on',
    status: 409,
    message: 'Link name [ depends on ] is already used by issue link type [ Depend ].',
  },
  'link type: inward name taken by another type, in another case': {
    method: 'PUT',
    path: '/rest/admin/issueLinkType/Fresh?outwardName=fresh&inwardName=IS%20DUPLICATED%20BY&directed=true',
    status: 409,
    message: 'Link name [ IS DUPLICATED BY ] is already used by issue link type [ Duplicate ].',
  },
  'link type: update an unknown type': {
    method: 'POST',
    path: '/rest/admin/issueLinkType/Nope?outwardName=x',
    status: 404,
    message: 'Issue link type [ Nope ] not found.',
  },
  'link type: rename onto an existing type': {
    method: 'POST',
    path: '/rest/admin/issueLinkType/Relates?newName=DUPLICATE',
    status: 409,
    message: 'Issue link type [ DUPLICATE ] already exists.',
  },
  'link type: delete an unknown type': {
    method: 'DELETE',
    path: '/rest/admin/issueLinkType/Nope',
    status: 404,
    message: 'Issue link type [ Nope ] not found.',
  },
  'link type: count an unknown type': {
    method: 'GET',
    path: '/rest/admin/issueLinkType/Nope/count',
    status: 404,
    message: 'Issue link type [ Nope ] not found.',
  },

  // Users and grants.
  'user: login with a space': {
    method: 'PUT',
    path: '/rest/admin/user/bad%20login?password=password-1',
    status: 400,
    message: 'login: may contain only letters, digits and _ . @ + -',
    field: 'login',
  },
  'user: malformed e-mail': {
    method: 'PUT',
    path: '/rest/admin/user/mailer?email=not-an-address',
    status: 400,
    message: 'email: must be an e-mail address',
    field: 'email',
  },
  'user: password too short': {
    method: 'PUT',
    path: '/rest/admin/user/shorty?password=short',
    status: 400,
    message: 'password: must be at least 8 characters',
    field: 'password',
  },
  'user: duplicate login in another case': {
    method: 'PUT',
    path: '/rest/admin/user/DEV',
    status: 409,
    message: 'User [ DEV ] already exists.',
  },
  'user: get an unknown user': {
    method: 'GET',
    path: '/rest/admin/user/ghost',
    status: 404,
    message: 'User [ ghost ] not found.',
  },
  'grant: unknown user': {
    method: 'POST',
    path: '/rest/admin/user/ghost/role/Observer',
    status: 404,
    message: 'User [ ghost ] not found.',
  },
  'grant: unknown role': {
    method: 'POST',
    path: '/rest/admin/user/dev/role/Ghost',
    status: 404,
    message: 'Role [ Ghost ] not found.',
  },
  'grant: unknown project': {
    method: 'POST',
    path: '/rest/admin/user/dev/role/Observer?project=GHOST',
    status: 404,
    message: 'Project [ GHOST ] not found.',
  },
  'grant: malformed project short name': {
    method: 'POST',
    path: '/rest/admin/user/dev/role/Observer?project=A-B',
    status: 400,
    message: `project: ${SHORT_NAME_RULE}`,
    field: 'project',
  },
  'revoke: a role the user does not have': {
    method: 'DELETE',
    path: '/rest/admin/user/dev/role/Observer',
    status: 404,
    message: 'User [ dev ] does not have role [ Observer ] there.',
  },

  // Tokens.
  'token: name of 101 characters': {
    method: 'PUT',
    path: `/rest/user/token/${long(101)}`,
    status: 400,
    message: 'name: must be at most 100 characters',
    field: 'name',
  },
  'token: revoke an unknown token': {
    method: 'DELETE',
    path: '/rest/user/token/ghost',
    status: 404,
    message: 'Token [ ghost ] not found.',
  },
};

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await userWithRole(server.orm, 'dev', 'Developer');
  const setup = [
    server.request('PUT', '/rest/admin/project/EXIST?projectName=Existing%20project', { user: 'root' }),
    server.request('PUT', '/rest/admin/role/Custom', { user: 'root' }),
  ];
  for (const res of await Promise.all(setup)) expect(res.status).toBe(201);
});
afterAll(() => server.close());

function expectMessage(message: string, expected: Case['message']) {
  if (typeof expected === 'string') expect(message).toBe(expected);
  else for (const word of expected) expect(message).toContain(word);
}

describe.each(['xml', 'json'] as const)('bad input answered in %s', (format) => {
  for (const [name, c] of Object.entries(CASES)) {
    it(`${name} → ${c.status}`, async () => {
      const before = await adminSnapshot(server.orm);
      const res = await server.request(c.method, c.path, {
        user: 'root',
        accept: format === 'json' ? JSON_ACCEPT : '',
        ...(c.body !== undefined ? { body: c.body } : {}),
        ...(c.contentType !== undefined ? { contentType: c.contentType } : {}),
      });
      if (format === 'xml') {
        expectXmlError(res, c.status, /./);
        expectMessage(xmlError(res.text) ?? '', c.message);
      } else {
        const body = expectJsonError(res, c.status, CODE[c.status], /./);
        expectMessage(body.value, c.message);
        if (c.field) expect(body.issues?.map((i: { field: string }) => i.field)).toContain(c.field);
      }
      expect(await adminSnapshot(server.orm)).toEqual(before);
    });
  }
});

describe('hygiene', () => {
  it('no response of this suite carried a stack trace', () => {
    expectNoStackTraces(server);
  });
});
