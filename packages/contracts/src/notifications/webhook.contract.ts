import { z } from 'zod';
import { MAX_WEBHOOK_URL_LENGTH } from '../common/limits.js';
import { QueryBool } from '../common/query-bool.js';
import { element, list, type RouteMeta } from '../common/route-meta.js';
import { ZMessage } from '../common/small-bodies.js';
import { name } from '../common/text-fields.js';
import { ZProjectList } from '../vcs/vcs.contract.js';
import { ZNotifiedPart } from './notification.contract.js';
import {
  NOTIFICATION_EVENT_KINDS,
  ZNotificationEventKind,
  ZWebhookDeliveryStatus,
} from './notification-kinds.js';

const TAGS = ['Webhooks'];

export const ZWebhookName = name(80).regex(/^[A-Za-z0-9_.-]+$/, 'may contain only letters, digits and _ . -');

/** `issue.changed,comment.added`, or repeated parameters, or an array (JSON, tRPC). */
export const ZEventKindList = z.codec(
  z.union([z.string(), z.array(z.string())]),
  z.array(ZNotificationEventKind),
  {
    decode: (value, ctx) => {
      const items = (Array.isArray(value) ? value : [value])
        .flatMap((v) => v.split(/[\s,]+/))
        .map((v) => v.trim())
        .filter((v) => v.length > 0);
      const unknown = items.filter((k) => !(NOTIFICATION_EVENT_KINDS as readonly string[]).includes(k));
      if (unknown.length) {
        ctx.issues.push({
          code: 'custom',
          input: value,
          message: `unknown event kind ${unknown.join(', ')} (known: ${NOTIFICATION_EVENT_KINDS.join(', ')})`,
        });
        return z.NEVER;
      }
      return items as z.infer<typeof ZNotificationEventKind>[];
    },
    encode: (value) => value,
  },
);

export const ZWebhook = z.object({
  name: z.string(),
  url: z.string(),
  /** Linked projects; none: every project. */
  projects: z.array(z.object({ shortName: z.string() })),
  kinds: z.array(z.object({ name: ZNotificationEventKind })),
  /** Whose read permissions decide what a payload carries; told when the hook is disabled. */
  owner: z.string(),
  enabled: z.boolean(),
  disabledReason: z.string().optional(),
  createdAt: z.string(),
});
export type WebhookDto = z.infer<typeof ZWebhook>;
/** Creation: the only answer that carries the signing secret. */
export const ZWebhookWithSecret = ZWebhook.extend({ secret: z.string() });

const webhookXml = element('webhook', {
  projects: list('projects', element('project')),
  kinds: list('kinds', element('kind')),
});

export const listWebhooksMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/webhook',
    summary: 'List outgoing webhooks',
    tags: TAGS,
    errorResponses: [401, 403],
  },
  xml: list('webhooks', webhookXml),
} satisfies RouteMeta;
export const ZListWebhooksOutput = z.array(ZWebhook);

export const getWebhookMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/webhook/{name}',
    summary: 'Get an outgoing webhook',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: webhookXml,
} satisfies RouteMeta;
export const ZWebhookNameInput = z.object({ name: ZWebhookName });

const ZUrl = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_WEBHOOK_URL_LENGTH, `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
const ZWebhookSecret = z
  .string()
  .min(16, 'must be at least 16 characters')
  .max(200, 'must be at most 200 characters');

export const createWebhookMeta = {
  openapi: {
    method: 'PUT',
    path: '/admin/webhook/{name}',
    summary: 'Register an outgoing webhook; the signing secret is shown once',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404, 409],
  },
  xml: webhookXml,
} satisfies RouteMeta;
export const ZCreateWebhookInput = z.object({
  name: ZWebhookName,
  url: ZUrl,
  /** Short names; none: every project (UPDATE_PROJECT globally). */
  projects: ZProjectList.optional(),
  /** None: every kind. */
  kinds: ZEventKindList.optional(),
  /** The HMAC key (16-200 characters); made by the server when absent. */
  secret: ZWebhookSecret.optional(),
});

export const updateWebhookMeta = {
  openapi: {
    method: 'POST',
    path: '/admin/webhook/{name}',
    summary: 'Change an outgoing webhook (enabled=true brings a disabled one back)',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404],
  },
  xml: webhookXml,
} satisfies RouteMeta;
export const ZUpdateWebhookInput = z.object({
  name: ZWebhookName,
  url: ZUrl.optional(),
  projects: ZProjectList.optional(),
  kinds: ZEventKindList.optional(),
  secret: ZWebhookSecret.optional(),
  enabled: QueryBool.optional(),
});

export const deleteWebhookMeta = {
  openapi: {
    method: 'DELETE',
    path: '/admin/webhook/{name}',
    summary: 'Delete an outgoing webhook with its delivery log',
    tags: TAGS,
    errorResponses: [401, 403, 404],
  },
  xml: { kind: 'text', field: 'value' },
} satisfies RouteMeta;
export const ZDeleteWebhookOutput = ZMessage;

/**
 * The body of every webhook delivery (`Content-Type: application/json`), signed: the headers
 * `X-Trackline-Delivery` (this `delivery`: the idempotency key, kept by a redelivery),
 * `X-Trackline-Event` (the kinds), `X-Trackline-Timestamp` (seconds) and `X-Trackline-Signature`
 * (`sha256=` + hex HMAC-SHA256 of `<timestamp>.<body>` with the hook's secret). Stable: fields are
 * only ever added.
 */
export const ZWebhookPayload = z
  .object({
    delivery: z.string(),
    webhook: z.string(),
    event: z.object({ id: z.number().int(), kinds: z.array(ZNotificationEventKind), createdAt: z.number() }),
    issue: z.object({ id: z.string(), summary: z.string(), url: z.string() }),
    author: z.object({ login: z.string(), fullName: z.string() }),
    parts: z.array(ZNotifiedPart),
  })
  .meta({ id: 'WebhookPayload', description: 'The JSON body of an outgoing webhook delivery' });
export type WebhookPayloadDto = z.infer<typeof ZWebhookPayload>;

export const ZWebhookAttempt = z.object({
  at: z.string(),
  status: z.number().int().optional(),
  error: z.string().optional(),
  durationMs: z.number().int(),
  redelivery: z.boolean(),
});
export const ZWebhookDelivery = z.object({
  id: z.number().int(),
  event: z.number().int(),
  issue: z.string().optional(),
  status: ZWebhookDeliveryStatus,
  attempts: z.number().int(),
  createdAt: z.string(),
  deliveredAt: z.string().optional(),
  nextAttemptAt: z.string().optional(),
  lastStatus: z.number().int().optional(),
  lastError: z.string().optional(),
  /** What was (or is being) sent; absent before the first attempt and for a skipped delivery. */
  payload: ZWebhookPayload.optional(),
  log: z.array(ZWebhookAttempt),
});
export type WebhookDeliveryDto = z.infer<typeof ZWebhookDelivery>;
const deliveryXml = element('delivery', { log: list('log', element('attempt')) });

export const listWebhookDeliveriesMeta = {
  openapi: {
    method: 'GET',
    path: '/admin/webhook/{name}/delivery',
    summary: "A webhook's delivery log, newest first",
    tags: TAGS,
    errorResponses: [400, 401, 403, 404],
  },
  xml: list('deliveries', deliveryXml),
} satisfies RouteMeta;
export const ZListWebhookDeliveriesInput = z.object({
  name: ZWebhookName,
  /** Deliveries older than this one (the next page). */
  before: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  max: z.coerce.number().int().min(1).max(100).optional(),
});
export const ZListWebhookDeliveriesOutput = z.array(ZWebhookDelivery);

export const redeliverWebhookMeta = {
  openapi: {
    method: 'POST',
    path: '/admin/webhook/{name}/delivery/{delivery}/redeliver',
    summary: 'Send a delivered or failed delivery again (same body and delivery id, new signature)',
    tags: TAGS,
    errorResponses: [400, 401, 403, 404, 409],
  },
  xml: deliveryXml,
} satisfies RouteMeta;
export const ZRedeliverWebhookInput = z.object({
  name: ZWebhookName,
  delivery: z.coerce.number().int().min(1).max(2_147_483_647),
});
