import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import { authedProcedure, router } from '../../trpc/procedures.js';
import { created } from '../respond.js';

const toDto = (t: d.IIssueLinkType): c.IssueLinkTypeDto => ({
  name: t.name,
  outwardName: t.outwardName,
  inwardName: t.inwardName,
  directed: t.directed,
  aggregation: t.aggregation,
});

export const linkTypesRouter = router({
  list: authedProcedure
    .meta(c.listLinkTypesMeta)
    .input(c.ZListLinkTypesInput)
    .output(c.ZListLinkTypesOutput)
    .query(async ({ ctx }) => (await d.listLinkTypes(ctx.em)).map(toDto)),

  get: authedProcedure
    .meta(c.getLinkTypeMeta)
    .input(c.ZGetLinkTypeInput)
    .output(c.ZIssueLinkType)
    .query(async ({ ctx, input }) => toDto(await d.getLinkType(ctx.em, input.name))),

  count: authedProcedure
    .meta(c.countLinkTypeMeta)
    .input(c.ZGetLinkTypeInput)
    .output(c.ZCountLinkTypeOutput)
    .query(async ({ ctx, input }) => ({ value: await d.countLinkTypeUsages(ctx.em, ctx.actor, input.name) })),

  create: authedProcedure
    .meta(c.createLinkTypeMeta)
    .input(c.ZCreateLinkTypeInput)
    .output(c.ZIssueLinkType)
    .mutation(async ({ ctx, input }) => {
      const { name, ...fields } = input;
      const type = await d.createLinkType(ctx.em, ctx.actor, name, fields);
      return created(ctx, `/admin/issueLinkType/${type.name}`, toDto(type));
    }),

  update: authedProcedure
    .meta(c.updateLinkTypeMeta)
    .input(c.ZUpdateLinkTypeInput)
    .output(c.ZIssueLinkType)
    .mutation(async ({ ctx, input }) => {
      const { name, ...fields } = input;
      return toDto(await d.updateLinkType(ctx.em, ctx.actor, name, fields));
    }),

  delete: authedProcedure
    .meta(c.deleteLinkTypeMeta)
    .input(c.ZGetLinkTypeInput)
    .output(c.ZDeleteLinkTypeOutput)
    .mutation(async ({ ctx, input }) => ({ value: await d.deleteLinkType(ctx.em, ctx.actor, input.name) })),
});
