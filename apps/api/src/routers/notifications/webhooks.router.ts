import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import { authedProcedure, router } from '../../trpc/procedures.js';
import { created } from '../respond.js';

const iso = (ms: number) => new Date(ms).toISOString();

const toDto = (v: d.WebhookView): c.WebhookDto => ({
  name: v.name,
  url: v.url,
  projects: v.projects.map((shortName) => ({ shortName })),
  kinds: v.kinds.map((name) => ({ name })),
  owner: v.owner,
  enabled: v.enabled,
  ...(v.disabledReason ? { disabledReason: v.disabledReason } : {}),
  createdAt: iso(v.created),
});

const toDelivery = (v: d.WebhookDeliveryView): c.WebhookDeliveryDto => ({
  id: v.id,
  event: v.event,
  ...(v.issue ? { issue: v.issue } : {}),
  status: v.status,
  attempts: v.attempts,
  createdAt: iso(v.created),
  ...(v.delivered !== null ? { deliveredAt: iso(v.delivered) } : {}),
  ...(v.nextAttempt !== null ? { nextAttemptAt: iso(v.nextAttempt) } : {}),
  ...(v.lastStatus !== null ? { lastStatus: v.lastStatus } : {}),
  ...(v.lastError !== null ? { lastError: v.lastError } : {}),
  ...(v.payload !== null ? { payload: JSON.parse(v.payload) as c.WebhookPayloadDto } : {}),
  log: v.log.map((a) => ({
    at: iso(a.at),
    ...(a.status !== null ? { status: a.status } : {}),
    ...(a.error !== null ? { error: a.error } : {}),
    durationMs: a.durationMs,
    redelivery: a.redelivery,
  })),
});

/** Outgoing webhooks (`/rest/admin/webhook/...` and tRPC): docs/notifications.md. */
export const webhooksRouter = router({
  list: authedProcedure
    .meta(c.listWebhooksMeta)
    .input(c.ZEmpty)
    .output(c.ZListWebhooksOutput)
    .query(async ({ ctx }) => (await d.listWebhooks(ctx.em, ctx.actor)).map(toDto)),

  get: authedProcedure
    .meta(c.getWebhookMeta)
    .input(c.ZWebhookNameInput)
    .output(c.ZWebhook)
    .query(async ({ ctx, input }) => toDto(await d.getWebhook(ctx.em, ctx.actor, input.name))),

  create: authedProcedure
    .meta(c.createWebhookMeta)
    .input(c.ZCreateWebhookInput)
    .output(c.ZWebhookWithSecret)
    .mutation(async ({ ctx, input }) => {
      const { view, secret } = await d.createWebhook(ctx.em, ctx.actor, input);
      return created(ctx, `/admin/webhook/${view.name}`, { ...toDto(view), secret });
    }),

  update: authedProcedure
    .meta(c.updateWebhookMeta)
    .input(c.ZUpdateWebhookInput)
    .output(c.ZWebhook)
    .mutation(async ({ ctx, input }) => toDto(await d.updateWebhook(ctx.em, ctx.actor, input))),

  delete: authedProcedure
    .meta(c.deleteWebhookMeta)
    .input(c.ZWebhookNameInput)
    .output(c.ZDeleteWebhookOutput)
    .mutation(async ({ ctx, input }) => ({ value: await d.deleteWebhook(ctx.em, ctx.actor, input.name) })),

  deliveries: authedProcedure
    .meta(c.listWebhookDeliveriesMeta)
    .input(c.ZListWebhookDeliveriesInput)
    .output(c.ZListWebhookDeliveriesOutput)
    .query(async ({ ctx, input }) =>
      (await d.listWebhookDeliveries(ctx.em, ctx.actor, input.name, input)).map(toDelivery),
    ),

  redeliver: authedProcedure
    .meta(c.redeliverWebhookMeta)
    .input(c.ZRedeliverWebhookInput)
    .output(c.ZWebhookDelivery)
    .mutation(async ({ ctx, input }) =>
      toDelivery(await d.redeliverWebhook(ctx.em, ctx.actor, input.name, input.delivery)),
    ),
});
