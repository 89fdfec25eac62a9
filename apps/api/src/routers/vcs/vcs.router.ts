import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import type { Context } from '../../trpc/context.js';
import { authedProcedure, router } from '../../trpc/procedures.js';
import { created } from '../respond.js';

const toDto = (v: d.VcsIntegrationView): c.VcsIntegrationDto => ({
  name: v.integration.name,
  host: v.integration.host,
  repository: v.integration.repository,
  projects: v.projects.map((p) => ({ shortName: p.shortName, ...(p.deleted ? { deleted: true } : {}) })),
  branches: v.integration.branches,
  committersRole: v.committersRole,
  hasSecret: v.integration.secret !== null,
  requirePusherMatch: v.integration.requirePusherMatch,
  serviceUser: v.serviceUser,
  createdAt: v.integration.createdAt.toISOString(),
});

/** The URL to register at the host; carries the apiKey, so it is shown only with it. */
const withKey = (ctx: Context, v: d.VcsIntegrationView, apiKey: string) => ({
  ...toDto(v),
  apiKey,
  hookUrl: `${ctx.baseUrl}/rest/vcsHooksReceiver/${v.integration.host}?apiKey=${encodeURIComponent(apiKey)}`,
});

export const vcsRouter = router({
  list: authedProcedure
    .meta(c.listVcsIntegrationsMeta)
    .input(c.ZEmpty)
    .output(c.ZListVcsIntegrationsOutput)
    .query(async ({ ctx }) => (await d.listVcsIntegrations(ctx.em, ctx.actor)).map(toDto)),

  get: authedProcedure
    .meta(c.getVcsIntegrationMeta)
    .input(c.ZGetVcsIntegrationInput)
    .output(c.ZVcsIntegration)
    .query(async ({ ctx, input }) => toDto(await d.getVcsIntegration(ctx.em, ctx.actor, input.name))),

  create: authedProcedure
    .meta(c.createVcsIntegrationMeta)
    .input(c.ZCreateVcsIntegrationInput)
    .output(c.ZVcsIntegrationWithKey)
    .mutation(async ({ ctx, input }) => {
      const { view, apiKey } = await d.createVcsIntegration(ctx.em, ctx.actor, input);
      return created(ctx, `/admin/vcsIntegration/${view.integration.name}`, withKey(ctx, view, apiKey));
    }),

  update: authedProcedure
    .meta(c.updateVcsIntegrationMeta)
    .input(c.ZUpdateVcsIntegrationInput)
    .output(c.ZUpdateVcsIntegrationOutput)
    .mutation(async ({ ctx, input }) => {
      const { view, apiKey } = await d.updateVcsIntegration(ctx.em, ctx.actor, input);
      return apiKey ? withKey(ctx, view, apiKey) : toDto(view);
    }),

  delete: authedProcedure
    .meta(c.deleteVcsIntegrationMeta)
    .input(c.ZGetVcsIntegrationInput)
    .output(c.ZDeleteVcsIntegrationOutput)
    .mutation(async ({ ctx, input }) => ({
      value: await d.deleteVcsIntegration(ctx.em, ctx.actor, input.name),
    })),

  deliveries: authedProcedure
    .meta(c.listVcsDeliveriesMeta)
    .input(c.ZListVcsDeliveriesInput)
    .output(c.ZListVcsDeliveriesOutput)
    .query(({ ctx, input }) =>
      d.listVcsDeliveries(ctx.em, ctx.actor, input.name, { after: input.after, max: input.max }),
    ),

  delivery: authedProcedure
    .meta(c.getVcsDeliveryMeta)
    .input(c.ZGetVcsDeliveryInput)
    .output(c.ZVcsDeliveryReport)
    .query(({ ctx, input }) => d.getVcsDeliveryReport(ctx.em, ctx.actor, input.name, input.delivery)),
});
