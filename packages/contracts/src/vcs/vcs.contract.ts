import { z } from 'zod';
import { MAX_BRANCH_FILTER_LENGTH } from '../common/limits.js';
import { QueryBool } from '../common/query-bool.js';
import { element, list, type RouteMeta } from '../common/route-meta.js';
import { ZMessage } from '../common/small-bodies.js';
import { name } from '../common/text-fields.js';
import { ZRoleName } from '../roles/role.contract.js';

const TAGS = ['VCS integrations'];

export const VCS_HOSTS = ['github', 'gitlab', 'bitbucket'] as const;
export const ZVcsHost = z.enum(VCS_HOSTS);
export type VcsHost = z.infer<typeof ZVcsHost>;

/** Also the suffix of the integration's service account login (`vcs@<name>`). */
export const ZVcsIntegrationName = name(80).regex(
  /^[A-Za-z0-9_.-]+$/,
  'may contain only letters, digits and _ . -',
);

/** `A,B`, `A B` or repeated parameters: a list of project short names. */
export const ZProjectList = z.codec(z.union([z.string(), z.array(z.string())]), z.array(z.string()), {
  decode: (value) =>
    (Array.isArray(value) ? value : [value])
      .flatMap((v) => v.split(/[\s,]+/))
      .map((v) => v.trim())
      .filter((v) => v.length > 0),
  encode: (value) => value,
});

export const ZVcsIntegration = z.object({
  name: z.string(),
  host: ZVcsHost,
  /** `owner/name` as the host names it (GitLab: `path_with_namespace`). */
  repository: z.string(),
  /** Linked projects; `deleted: true` while a linked project is in the trash (commits to it are not applied). */
  projects: z.array(z.object({ shortName: z.string(), deleted: z.boolean().optional() })),
  /** Space-separated branch names (`*` matches any run of characters); empty means every branch. */
  branches: z.string(),
  /** Users holding this role (globally or in the issue's project) may apply commands from commits. */
  committersRole: z.string().nullable(),
  hasSecret: z.boolean(),
  /**
   * Commands of a commit apply only when its author is the pusher (or sender) the host names;
   * otherwise the commit is recorded and its commands skipped with the reason.
   */
  requirePusherMatch: z.boolean(),
  /** The account that writes comments when no committer is matched. */
  serviceUser: z.string(),
  createdAt: z.string(),
});
export type VcsIntegrationDto = z.infer<typeof ZVcsIntegration>;
/** Create and key regeneration: the only responses that carry the apiKey (stored hashed). */
export const ZVcsIntegrationWithKey = ZVcsIntegration.extend({ apiKey: z.string(), hookUrl: z.string() });
export type VcsIntegrationWithKeyDto = z.infer<typeof ZVcsIntegrationWithKey>;

const integrationXml = element('vcsIntegration', { projects: list('projects', element('project')) });

export const listVcsIntegrationsMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/vcsIntegration',
    summary: 'List VCS integrations',
    tags: TAGS,
    errorResponses: [401, 403],
  },
  xml: list('vcsIntegrations', integrationXml),
} satisfies RouteMeta;
export const ZListVcsIntegrationsOutput = z.array(ZVcsIntegration);

export const getVcsIntegrationMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/vcsIntegration/{name}',
    summary: 'Get a VCS integration',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: integrationXml,
} satisfies RouteMeta;
export const ZGetVcsIntegrationInput = z.object({ name: ZVcsIntegrationName });

const ZSecret = z.string().max(200, 'must be at most 200 characters');
const ZBranches = z
  .string()
  .trim()
  .max(MAX_BRANCH_FILTER_LENGTH, `must be at most ${MAX_BRANCH_FILTER_LENGTH} characters`);

export const createVcsIntegrationMeta = {
  openapi: {
    method: 'PUT',
    path: '/admin/vcsIntegration/{name}',
    summary: 'Create a VCS integration; the apiKey is shown once',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404, 409],
  },
  xml: integrationXml,
} satisfies RouteMeta;
export const ZCreateVcsIntegrationInput = z.object({
  name: ZVcsIntegrationName,
  host: ZVcsHost,
  repository: name(300),
  projects: ZProjectList,
  committersRole: ZRoleName,
  branches: ZBranches.optional(),
  /** The webhook secret configured at the host (HMAC key, or GitLab's token). */
  secret: ZSecret.optional(),
  /** Default true: commit e-mails alone do not let commands in. */
  requirePusherMatch: QueryBool.optional(),
});
export type CreateVcsIntegrationInput = z.infer<typeof ZCreateVcsIntegrationInput>;

export const updateVcsIntegrationMeta = {
  openapi: {
    method: 'POST',
    path: '/admin/vcsIntegration/{name}',
    summary: 'Update a VCS integration (an empty secret removes it)',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404],
  },
  xml: integrationXml,
} satisfies RouteMeta;
export const ZUpdateVcsIntegrationInput = z.object({
  name: ZVcsIntegrationName,
  repository: name(300).optional(),
  projects: ZProjectList.optional(),
  committersRole: ZRoleName.optional(),
  branches: ZBranches.optional(),
  secret: ZSecret.optional(),
  requirePusherMatch: QueryBool.optional(),
  regenerateApiKey: QueryBool.optional(),
});
export type UpdateVcsIntegrationInput = z.infer<typeof ZUpdateVcsIntegrationInput>;
/** The apiKey appears only when it was regenerated. */
export const ZUpdateVcsIntegrationOutput = ZVcsIntegration.extend({
  apiKey: z.string().optional(),
  hookUrl: z.string().optional(),
});

export const deleteVcsIntegrationMeta = {
  openapi: {
    method: 'DELETE',
    path: '/admin/vcsIntegration/{name}',
    summary: 'Delete a VCS integration (recorded changes stay on the issues)',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: { kind: 'text', field: 'value' },
} satisfies RouteMeta;
export const ZDeleteVcsIntegrationOutput = ZMessage;

export const VCS_DELIVERY_STATUSES = ['pending', 'processing', 'done', 'failed'] as const;
export const ZVcsDeliveryStatus = z.enum(VCS_DELIVERY_STATUSES);
export type VcsDeliveryStatus = z.infer<typeof ZVcsDeliveryStatus>;

export const VCS_RESULT_STATUSES = ['applied', 'skipped', 'failed', 'pending'] as const;
export const ZVcsResultStatus = z.enum(VCS_RESULT_STATUSES);
export type VcsResultStatus = z.infer<typeof ZVcsResultStatus>;

/** One effect of a commit on one issue: the comment (`command: 'comment'`) or a command. */
export const ZVcsEffectResult = z.object({
  issue: z.string(),
  command: z.string(),
  status: ZVcsResultStatus,
  reason: z.string().optional(),
  /** Who the effect was applied as. */
  actor: z.string().optional(),
});
export type VcsEffectResultDto = z.infer<typeof ZVcsEffectResult>;

export const ZVcsCommitResult = z.object({
  sha: z.string(),
  branch: z.string(),
  url: z.string(),
  author: z.string(),
  /** failed if any effect failed, else pending if any is, else applied if any was, else skipped. */
  status: ZVcsResultStatus,
  reason: z.string().optional(),
  results: z.array(ZVcsEffectResult),
});
export type VcsCommitResultDto = z.infer<typeof ZVcsCommitResult>;

export const ZVcsDeliverySummary = z.object({
  id: z.number().int(),
  deliveryKey: z.string(),
  event: z.string(),
  receivedAt: z.string(),
  status: ZVcsDeliveryStatus,
  attempts: z.number().int(),
  commitCount: z.number().int(),
  finishedAt: z.string().optional(),
  error: z.string().optional(),
});
export type VcsDeliverySummaryDto = z.infer<typeof ZVcsDeliverySummary>;
export const ZVcsDeliveryReport = ZVcsDeliverySummary.extend({
  integration: z.string(),
  commits: z.array(ZVcsCommitResult),
});
export type VcsDeliveryReportDto = z.infer<typeof ZVcsDeliveryReport>;

const commitXml = element('commit', { results: list('results', element('result')) });

export const listVcsDeliveriesMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/vcsIntegration/{name}/delivery',
    summary: 'Recent deliveries of a VCS integration, newest first',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: list('deliveries', element('delivery')),
} satisfies RouteMeta;
export const ZListVcsDeliveriesInput = z.object({
  name: ZVcsIntegrationName,
  after: z.coerce.number().int().min(0).optional(),
  max: z.coerce.number().int().min(1).max(500).optional(),
});
export const ZListVcsDeliveriesOutput = z.array(ZVcsDeliverySummary);

export const getVcsDeliveryMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/vcsIntegration/{name}/delivery/{delivery}',
    summary: 'Per-commit results of one delivery (applied, skipped and why, failed and why)',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: element('delivery', { commits: list('commits', commitXml) }),
} satisfies RouteMeta;
export const ZGetVcsDeliveryInput = z.object({
  name: ZVcsIntegrationName,
  delivery: z.coerce.number().int().min(1),
});

/**
 * The answer of `POST /rest/vcsHooksReceiver/{host}` (JSON). `queued` (202): the delivery is
 * stored and each commit's references are listed as pending. `duplicate` (200): a delivery
 * with this id was already received; its recorded results. `pong`/`ignored` (200): nothing stored.
 */
export const ZVcsHookResponse = z.object({
  status: z.enum(['queued', 'duplicate', 'pong', 'ignored']),
  delivery: z.number().int().optional(),
  reason: z.string().optional(),
  commits: z.array(ZVcsCommitResult).optional(),
});
export type VcsHookResponseDto = z.infer<typeof ZVcsHookResponse>;
