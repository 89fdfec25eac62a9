import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import { z } from 'zod';
import type { Context } from '../../trpc/context.js';
import { authedProcedure, router } from '../../trpc/procedures.js';
import { created, restUrl } from '../respond.js';

const prototypeDto = (p: d.PrototypeView): c.FieldPrototypeDto => ({
  name: p.name,
  type: p.type,
  isPrivate: p.isPrivate,
  visibleByDefault: p.visibleByDefault,
  autoAttached: p.autoAttached,
  defaultParam: [
    ...(p.defaultBundle ? [{ name: 'defaultBundle', value: p.defaultBundle }] : []),
    { name: 'attachBundlePolicy', value: String(p.attachBundlePolicy) },
    ...(p.aliases.length > 0 ? [{ name: 'aliases', value: p.aliases.join(', ') }] : []),
  ],
});

const projectFieldDto = (
  ctx: Context,
  project: string,
  f: d.ProjectCustomFieldView,
): c.ProjectCustomFieldDto => ({
  name: f.name,
  type: f.type,
  emptyText: f.emptyText,
  canBeEmpty: f.canBeEmpty,
  url: restUrl(ctx, 'admin', 'project', project, 'customfield', f.name),
  param: f.bundle ? [{ name: 'bundle', value: f.bundle }] : [],
  defaultValue: f.defaultValues,
});

/** Field prototypes (`/admin/customfield/field`) and project fields (`/admin/project/{p}/customfield`). */
export const customFieldsRouter = router({
  listPrototypes: authedProcedure
    .meta(c.listFieldPrototypesMeta)
    .input(z.object({}))
    .output(c.ZListFieldPrototypesOutput)
    .query(async ({ ctx }) =>
      (await d.listPrototypes(ctx.em, ctx.actor)).map((p) => ({
        name: p.name,
        url: restUrl(ctx, 'admin', 'customfield', 'field', p.name),
      })),
    ),

  getPrototype: authedProcedure
    .meta(c.getFieldPrototypeMeta)
    .input(c.ZFieldNameInput)
    .output(c.ZFieldPrototype)
    .query(async ({ ctx, input }) => prototypeDto(await d.getPrototype(ctx.em, ctx.actor, input.name))),

  createPrototype: authedProcedure
    .meta(c.createFieldPrototypeMeta)
    .input(c.ZCreateFieldPrototypeInput)
    .output(c.ZFieldPrototype)
    .mutation(async ({ ctx, input }) => {
      const prototype = await d.createPrototype(ctx.em, ctx.actor, input);
      return created(ctx, `/admin/customfield/field/${prototype.name}`, prototypeDto(prototype));
    }),

  updatePrototype: authedProcedure
    .meta(c.updateFieldPrototypeMeta)
    .input(c.ZUpdateFieldPrototypeInput)
    .output(c.ZFieldPrototype)
    .mutation(async ({ ctx, input }) =>
      prototypeDto(
        await d.updatePrototype(ctx.em, ctx.actor, input.name, {
          aliases: input.aliases,
          isAssignee: input.isAssignee,
        }),
      ),
    ),

  deletePrototype: authedProcedure
    .meta(c.deleteFieldPrototypeMeta)
    .input(c.ZFieldNameInput)
    .output(c.ZEmpty)
    .mutation(async ({ ctx, input }) => {
      await d.deletePrototype(ctx.em, ctx.actor, input.name);
      return {};
    }),

  listProjectFields: authedProcedure
    .meta(c.listProjectCustomFieldsMeta)
    .input(c.ZProjectInput)
    .output(c.ZListProjectCustomFieldsOutput)
    .query(async ({ ctx, input }) =>
      (await d.listProjectCustomFields(ctx.em, ctx.actor, input.project)).map((name) => ({
        name,
        url: restUrl(ctx, 'admin', 'project', input.project, 'customfield', name),
      })),
    ),

  getProjectField: authedProcedure
    .meta(c.getProjectCustomFieldMeta)
    .input(c.ZProjectFieldInput)
    .output(c.ZProjectCustomField)
    .query(async ({ ctx, input }) =>
      projectFieldDto(
        ctx,
        input.project,
        await d.getProjectCustomField(ctx.em, ctx.actor, input.project, input.name),
      ),
    ),

  attachProjectField: authedProcedure
    .meta(c.attachProjectCustomFieldMeta)
    .input(c.ZAttachProjectCustomFieldInput)
    .output(c.ZProjectCustomField)
    .mutation(async ({ ctx, input }) => {
      const { project, name, ...settings } = input;
      const field = await d.attachProjectCustomField(ctx.em, ctx.actor, project, name, settings);
      return created(
        ctx,
        `/admin/project/${project}/customfield/${field.name}`,
        projectFieldDto(ctx, project, field),
      );
    }),

  updateProjectField: authedProcedure
    .meta(c.updateProjectCustomFieldMeta)
    .input(c.ZUpdateProjectCustomFieldInput)
    .output(c.ZProjectCustomField)
    .mutation(async ({ ctx, input }) => {
      const { project, name, ...settings } = input;
      return projectFieldDto(
        ctx,
        project,
        await d.updateProjectCustomField(ctx.em, ctx.actor, project, name, settings),
      );
    }),

  detachProjectField: authedProcedure
    .meta(c.detachProjectCustomFieldMeta)
    .input(c.ZProjectFieldInput)
    .output(c.ZEmpty)
    .mutation(async ({ ctx, input }) => {
      await d.detachProjectCustomField(ctx.em, ctx.actor, input.project, input.name);
      return {};
    }),
});
