import { ERROR_CODES, type XmlShape } from '@trackline/contracts';
import type { Operation } from '../trpc/procedures.js';

/*
 * Makes the generated OpenAPI document true to the wire: the generator knows only the JSON
 * shapes of the contracts, while the server answers legacy XML by default, writes its errors as
 * `<error>` or `{value, code, status, issues?}`, reads PUT/POST parameters from forms too, and
 * its integer parameters take ordinary numbers. Applied once, after generation.
 */

type Json = Record<string, unknown>;
type Op = {
  parameters?: (Json & { name?: string; in?: string; description?: string; schema?: Json })[];
  requestBody?: { content?: Record<string, { schema?: Json }> };
  responses?: Record<string, Json & { content?: Record<string, { schema?: Json; example?: unknown }> }>;
};

/** What the server writes for every refused request (rest/error-writer.ts). */
const ERROR_SCHEMA = {
  type: 'object',
  description:
    'A refused request, as JSON (when JSON is preferred). In XML, the default: `<error>message</error>`.',
  properties: {
    value: {
      type: 'string',
      description: 'The message (the legacy `<error>` text)',
      example: 'Issue [ PRJ-1 ] not found.',
    },
    code: { type: 'string', enum: [...ERROR_CODES], description: 'The error code', example: 'NOT_FOUND' },
    status: { type: 'integer', description: 'The HTTP status', example: 404 },
    issues: {
      type: 'array',
      description: 'For invalid input: one entry per refused parameter',
      items: {
        type: 'object',
        properties: {
          field: { type: 'string', description: 'The parameter', example: 'startingNumber' },
          message: { type: 'string', description: 'What is wrong with it', example: 'must be at least 1' },
        },
        required: ['field', 'message'],
      },
    },
  },
  required: ['value', 'code', 'status'],
} as const;

const errorContent = (example: string) => ({
  'application/xml': { schema: { type: 'string' }, example: `<error>${example}</error>` },
  'application/json': { schema: { $ref: '#/components/schemas/Error' } },
});

/** The root element a route's legacy XML answer has, for its description. */
function xmlRootOf(shape: XmlShape): string | null {
  switch (shape.kind) {
    case 'element':
      return `<${shape.name}>`;
    case 'list':
      return `<${shape.root}>`;
    case 'scalar':
      return `<${shape.name}>`;
    case 'custom':
      return `the legacy ${shape.renderer} document`;
    default:
      return null;
  }
}

/** Descriptions of the parameters that recur across routes; others get one from their name and type. */
const PARAMETERS: Record<string, string> = {
  issue: 'Readable issue id, `PRJ-12`',
  project: 'Short name of the project, `PRJ`',
  login: 'Login of the user',
  group: 'Name of the user group',
  role: 'Name of the role',
  permission: 'Permission key, `READ_ISSUE`',
  name: 'Name',
  newName: 'New name (renames)',
  description: 'Description text',
  filter: "Search query in the original's query language, `State: Open for: me`",
  query: "Search query in the original's query language",
  after: 'How many results to skip (paging)',
  start: 'How many results to skip (paging)',
  max: 'How many results to answer at most',
  command: 'Command text, `State Fixed Priority Major`',
  comment: 'Comment text',
  caret: 'Caret position in the text (0-based)',
  optionsLimit: 'How many suggestions to answer at most',
  runAs: 'Login to act as (needs LOW_LEVEL_ADMIN)',
  disableNotifications: 'Tell no person of this change (webhooks are still told)',
  issueIds: 'Context issues (readable or compressed ids)',
  summary: 'Issue summary (one line)',
  permittedGroup: 'Group the issue is visible to',
  bundle: 'Name of the value bundle',
  bundleType:
    'Bundle type: `bundle`, `stateBundle`, `versionBundle`, `buildBundle`, `ownedFieldBundle`, `userBundle`',
  value: 'Name of the bundle value',
  workItem: 'Id of the work item',
  comment_path: 'Id of the comment',
  attachment: 'Id of the attachment',
  delivery: 'Id of the delivery',
  fullName: 'Full name of the user',
  email: 'E-mail address',
  password: 'Password (in a body, never in the query string)',
  newPassword: 'The new password',
  test: 'Check only: nothing is stored',
  assigneeGroup: 'Group the imported assignees join (created without roles when missing)',
  projectName: 'Display name of the project',
  startingNumber: 'Number of the first issue',
  type: 'Type',
  date: 'Date in ms since the epoch',
  created: 'Creation time in ms since the epoch',
  duration: 'Duration in minutes',
  host: 'Hosting service: `github`, `gitlab` or `bitbucket`',
  updatedAfter: 'Only issues updated after this time (ms since the epoch)',
};

const words = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

function describeParameter(parameter: NonNullable<Op['parameters']>[number]): string {
  const name = String(parameter.name ?? '');
  const key = parameter.in === 'path' && name === 'comment' ? 'comment_path' : name;
  const known = PARAMETERS[key];
  if (known) return known;
  const type = parameter.schema?.type;
  if (type === 'boolean' || parameter.schema?.anyOf) return `Whether ${words(name)} (true or false)`;
  return `The ${words(name)}${typeof type === 'string' ? ` (${type})` : ''}`;
}

const SAFE_MIN = -Number.MAX_SAFE_INTEGER;
const SAFE_MAX = Number.MAX_SAFE_INTEGER;

/** Drops zod's safe-integer bounds (not a limit of this API) and gives integers a plain example. */
function tidySchema(schema: unknown): void {
  if (Array.isArray(schema)) {
    for (const item of schema) tidySchema(item);
    return;
  }
  if (typeof schema !== 'object' || schema === null) return;
  const s = schema as Json;
  if (s.minimum === SAFE_MIN) delete s.minimum;
  if (s.maximum === SAFE_MAX) delete s.maximum;
  if (s.type === 'integer' && s.example === undefined && s.default === undefined)
    s.example = typeof s.minimum === 'number' && s.minimum > 0 ? s.minimum : 1;
  for (const value of Object.values(s)) tidySchema(value);
}

export function describeWire(
  doc: { paths?: unknown; components?: unknown },
  operations: ReadonlyMap<string, Operation>,
): void {
  const components = (doc.components ?? {}) as { schemas?: Record<string, unknown> };
  const schemas = Object.fromEntries(
    Object.entries(components.schemas ?? {}).filter(([name]) => !name.startsWith('error.')),
  );
  components.schemas = { ...schemas, Error: ERROR_SCHEMA };
  // Named schemas (the webhook payload) are tidied like the operations' own.
  for (const schema of Object.values(schemas)) tidySchema(schema);
  doc.components = components;

  const metaOf = new Map<string, Operation['meta']>();
  for (const operation of operations.values()) {
    const openapi = operation.meta.openapi;
    if (openapi) metaOf.set(`${openapi.method.toLowerCase()} ${openapi.path}`, operation.meta);
  }

  const paths = (doc.paths ?? {}) as Record<string, Record<string, Op>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (typeof op !== 'object' || op === null || !('responses' in op)) continue;
      for (const parameter of op.parameters ?? []) {
        if (!parameter.description) parameter.description = describeParameter(parameter);
        tidySchema(parameter.schema);
      }
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const code = Number(status);
        if (code >= 400 && response.content?.['application/json']?.schema?.$ref)
          response.content = errorContent(String(response.description ?? 'Refused'));
      }
      const meta = metaOf.get(`${method} ${path}`);
      if (!meta) continue;
      // PUT/POST parameters also come as form fields (and the import documents as XML); a route
      // that takes a document (JSON or XML) is left as it is declared.
      const json = op.requestBody?.content?.['application/json'];
      if (op.requestBody?.content && json && !op.requestBody.content['application/xml'])
        op.requestBody.content['application/x-www-form-urlencoded'] = { schema: json.schema ?? {} };
      if (op.requestBody?.content && meta.xmlBody)
        op.requestBody.content['application/xml'] = {
          schema: { type: 'string', description: 'The legacy XML document' },
        };
      const ok = Object.entries(op.responses ?? {}).find(([status]) => status.startsWith('2'))?.[1];
      const root = meta.xml ? xmlRootOf(meta.xml) : null;
      if (ok?.content && root) {
        const xml = {
          schema: {
            type: 'string',
            description: `Legacy XML (the default answer, also for \`*/*\`): ${root}; JSON with \`Accept: application/json\`.`,
          },
        };
        ok.content =
          meta.defaultFormat === 'json'
            ? { ...ok.content, 'application/xml': xml }
            : { 'application/xml': xml, ...ok.content };
      } else if (ok && meta.xml?.kind === 'text') {
        ok.content = { 'text/plain': { schema: { type: 'string' } }, ...ok.content };
      }
      tidySchema(op.requestBody);
      tidySchema(op.responses);
    }
  }
}
