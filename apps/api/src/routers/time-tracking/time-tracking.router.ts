import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import type { Context } from '../../trpc/context.js';
import { authedProcedure, router } from '../../trpc/procedures.js';
import { created, restUrl } from '../respond.js';

const toWorkItem = (ctx: Context, w: d.WorkItemView): c.WorkItemDto => ({
  id: String(w.id),
  url: restUrl(ctx, 'issue', w.issueId, 'timetracking', 'workitem', String(w.id)),
  date: w.date,
  duration: w.duration,
  description: w.description,
  ...(w.workType ? { worktype: { name: w.workType } } : {}),
  author: { login: w.author.login, url: restUrl(ctx, 'admin', 'user', w.author.login) },
});

/** Every work type is available in every project: `autoAttached` (added to projects) is always true. */
const toWorkType = (ctx: Context, t: d.WorkTypeView): c.WorkTypeDto => ({
  id: String(t.id),
  name: t.name,
  url: restUrl(ctx, 'admin', 'timetracking', 'worktype', String(t.id)),
  autoAttached: true,
});

const toProjectSettings = (s: d.ProjectTimeTrackingView) => ({
  enabled: s.enabled,
  ...(s.estimation ? { estimation: { name: s.estimation } } : {}),
  ...(s.spentTime ? { spentTime: { name: s.spentTime } } : {}),
});

/** Work items, their import, work types, and the project and global time tracking settings. */
export const timeTrackingRouter = router({
  workItems: authedProcedure
    .meta(c.listWorkItemsMeta)
    .input(c.ZListWorkItemsInput)
    .output(c.ZListWorkItemsOutput)
    .query(async ({ ctx, input }) =>
      (await d.listWorkItems(ctx.em, ctx.actor, input.issue)).map((w) => toWorkItem(ctx, w)),
    ),

  createWorkItem: authedProcedure
    .meta(c.createWorkItemMeta)
    .input(c.ZCreateWorkItemInput)
    .output(c.ZWorkItem)
    .mutation(async ({ ctx, input }) => {
      const item = await d.createWorkItem(ctx.em, ctx.actor, input.issue, {
        date: input.date,
        duration: input.duration,
        description: input.description,
        workType: input.worktype,
      });
      return created(ctx, `/issue/${item.issueId}/timetracking/workitem/${item.id}`, toWorkItem(ctx, item));
    }),

  updateWorkItem: authedProcedure
    .meta(c.updateWorkItemMeta)
    .input(c.ZUpdateWorkItemInput)
    .output(c.ZWorkItem)
    .mutation(async ({ ctx, input }) =>
      toWorkItem(
        ctx,
        await d.updateWorkItem(ctx.em, ctx.actor, input.issue, input.workItem, {
          date: input.date,
          duration: input.duration,
          description: input.description,
          workType: input.worktype,
        }),
      ),
    ),

  deleteWorkItem: authedProcedure
    .meta(c.deleteWorkItemMeta)
    .input(c.ZDeleteWorkItemInput)
    .output(c.ZWorkItemEmptyOutput)
    .mutation(async ({ ctx, input }) => {
      await d.deleteWorkItem(ctx.em, ctx.actor, input.issue, input.workItem);
      return {};
    }),

  importWorkItems: authedProcedure
    .meta(c.importWorkItemsMeta)
    .input(c.ZImportWorkItemsInput)
    .output(c.ZImportWorkItemsOutput)
    .mutation(({ ctx, input }) => d.importWorkItems(ctx.em, ctx.actor, input.issue, input.workItems)),

  workTypes: authedProcedure
    .meta(c.listWorkTypesMeta)
    .input(c.ZListWorkTypesInput)
    .output(c.ZListWorkTypesOutput)
    .query(async ({ ctx }) => (await d.listWorkTypes(ctx.em)).map((t) => toWorkType(ctx, t))),

  projectWorkTypes: authedProcedure
    .meta(c.listProjectWorkTypesMeta)
    .input(c.ZListProjectWorkTypesInput)
    .output(c.ZListWorkTypesOutput)
    .query(async ({ ctx, input }) =>
      (await d.listProjectWorkTypes(ctx.em, ctx.actor, input.project)).map((t) => toWorkType(ctx, t)),
    ),

  attachProjectWorkType: authedProcedure
    .meta(c.attachProjectWorkTypeMeta)
    .input(c.ZAttachProjectWorkTypeInput)
    .output(c.ZWorkItemEmptyOutput)
    .mutation(async ({ ctx, input }) => {
      await d.attachProjectWorkType(ctx.em, ctx.actor, input.project, input.workType);
      return {};
    }),

  workType: authedProcedure
    .meta(c.getWorkTypeMeta)
    .input(c.ZWorkTypeNameInput)
    .output(c.ZWorkType)
    .query(async ({ ctx, input }) => toWorkType(ctx, await d.getWorkType(ctx.em, input.name))),

  createWorkTypeByPost: authedProcedure
    .meta(c.createWorkTypeByPostMeta)
    .input(c.ZCreateWorkTypeInput)
    .output(c.ZWorkType)
    .mutation(async ({ ctx, input }) => {
      const type = await d.createWorkType(ctx.em, ctx.actor, input.name);
      return created(ctx, `/admin/timetracking/worktype/${type.id}`, toWorkType(ctx, type));
    }),

  createWorkType: authedProcedure
    .meta(c.createWorkTypeMeta)
    .input(c.ZWorkTypeNameInput)
    .output(c.ZWorkType)
    .mutation(async ({ ctx, input }) => {
      const type = await d.createWorkType(ctx.em, ctx.actor, input.name);
      return created(ctx, `/admin/timetracking/worktype/${type.id}`, toWorkType(ctx, type));
    }),

  deleteWorkType: authedProcedure
    .meta(c.deleteWorkTypeMeta)
    .input(c.ZWorkTypeNameInput)
    .output(c.ZWorkItemEmptyOutput)
    .mutation(async ({ ctx, input }) => {
      await d.deleteWorkType(ctx.em, ctx.actor, input.name);
      return {};
    }),

  projectSettings: authedProcedure
    .meta(c.getProjectTimeTrackingMeta)
    .input(c.ZProjectTimeTrackingInput)
    .output(c.ZProjectTimeTracking)
    .query(async ({ ctx, input }) =>
      toProjectSettings(await d.getProjectTimeTracking(ctx.em, ctx.actor, input.project)),
    ),

  setProjectSettings: authedProcedure
    .meta(c.setProjectTimeTrackingMeta)
    .input(c.ZSetProjectTimeTrackingInput)
    .output(c.ZProjectTimeTracking)
    .mutation(async ({ ctx, input }) =>
      toProjectSettings(
        await d.setProjectTimeTracking(ctx.em, ctx.actor, input.project, {
          enabled: input.enabled,
          estimation: input.estimation,
          spentTime: input.spentTime,
        }),
      ),
    ),

  settings: authedProcedure
    .meta(c.getTimeSettingsMeta)
    .input(c.ZGetTimeSettingsInput)
    .output(c.ZTimeSettings)
    .query(({ ctx }) => d.getTimeSettings(ctx.em)),

  setSettings: authedProcedure
    .meta(c.setTimeSettingsMeta)
    .input(c.ZSetTimeSettingsInput)
    .output(c.ZTimeSettings)
    .mutation(({ ctx, input }) => d.setTimeSettings(ctx.em, ctx.actor, input)),
});
