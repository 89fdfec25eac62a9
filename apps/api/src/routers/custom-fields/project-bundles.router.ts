import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import { z } from 'zod';
import type { Context } from '../../trpc/context.js';
import { authedProcedure, router } from '../../trpc/procedures.js';
import { created, restUrl } from '../respond.js';

const subsystem = (ctx: Context, project: string, v: d.ProjectBundleValueView) => ({
  name: v.name,
  isDefault: v.isDefault,
  defaultAssignee: v.owner ?? d.NO_USER,
  url: restUrl(ctx, 'admin', 'project', project, 'subsystem', v.name),
});

const version = (ctx: Context, project: string, v: d.BundleValueView) => ({
  name: v.name,
  description: v.description ?? '',
  ...(v.releaseDate !== undefined ? { releaseDate: v.releaseDate } : {}),
  isReleased: v.released ?? false,
  isArchived: v.archived ?? false,
  url: restUrl(ctx, 'admin', 'project', project, 'version', v.name),
});

const build = (ctx: Context, project: string, v: d.BundleValueView) => ({
  name: v.name,
  ...(v.assembleDate !== undefined ? { assembleDate: v.assembleDate } : {}),
  url: restUrl(ctx, 'admin', 'project', project, 'build', v.name),
});

/** `/admin/project/{project}/subsystem|version|build`: views of the project's field bundles. */
export const projectBundlesRouter = router({
  subsystems: authedProcedure
    .meta(c.listSubsystemsMeta)
    .input(c.ZProjectOnlyInput)
    .output(z.array(c.ZSubsystem))
    .query(async ({ ctx, input }) =>
      (await d.listProjectBundleValues(ctx.em, ctx.actor, input.project, 'ownedField')).map((v) =>
        subsystem(ctx, input.project, v),
      ),
    ),

  subsystem: authedProcedure
    .meta(c.getSubsystemMeta)
    .input(c.ZProjectValueInput)
    .output(c.ZSubsystem)
    .query(async ({ ctx, input }) =>
      subsystem(
        ctx,
        input.project,
        await d.getProjectBundleValue(ctx.em, ctx.actor, input.project, 'ownedField', input.name),
      ),
    ),

  createSubsystem: authedProcedure
    .meta(c.createSubsystemMeta)
    .input(c.ZCreateSubsystemInput)
    .output(c.ZEmpty)
    .mutation(async ({ ctx, input }) => {
      const value = await d.addProjectBundleValue(ctx.em, ctx.actor, input.project, 'ownedField', {
        name: input.name,
        owner: input.defaultAssignee,
        isDefault: input.isDefault,
      });
      return created(ctx, `/admin/project/${input.project}/subsystem/${value.name}`, {});
    }),

  deleteSubsystem: authedProcedure
    .meta(c.deleteSubsystemMeta)
    .input(c.ZProjectValueInput)
    .output(c.ZEmpty)
    .mutation(async ({ ctx, input }) => {
      await d.deleteProjectBundleValue(ctx.em, ctx.actor, input.project, 'ownedField', input.name);
      return {};
    }),

  versions: authedProcedure
    .meta(c.listVersionsMeta)
    .input(c.ZListVersionsInput)
    .output(z.array(c.ZVersion))
    .query(async ({ ctx, input }) =>
      (await d.listProjectBundleValues(ctx.em, ctx.actor, input.project, 'version'))
        .filter((v) => input.showReleased !== false || !v.released)
        .map((v) => version(ctx, input.project, v)),
    ),

  version: authedProcedure
    .meta(c.getVersionMeta)
    .input(c.ZProjectValueInput)
    .output(c.ZVersion)
    .query(async ({ ctx, input }) =>
      version(
        ctx,
        input.project,
        await d.getProjectBundleValue(ctx.em, ctx.actor, input.project, 'version', input.name),
      ),
    ),

  createVersion: authedProcedure
    .meta(c.createVersionMeta)
    .input(c.ZCreateVersionInput)
    .output(c.ZEmpty)
    .mutation(async ({ ctx, input }) => {
      const value = await d.addProjectBundleValue(ctx.em, ctx.actor, input.project, 'version', {
        name: input.name,
        description: input.description,
        released: input.isReleased,
        archived: input.isArchived,
        releaseDate: input.releaseDate,
      });
      return created(ctx, `/admin/project/${input.project}/version/${value.name}`, {});
    }),

  updateVersion: authedProcedure
    .meta(c.updateVersionMeta)
    .input(c.ZUpdateVersionInput)
    .output(c.ZVersion)
    .mutation(async ({ ctx, input }) =>
      version(
        ctx,
        input.project,
        await d.updateProjectBundleValue(ctx.em, ctx.actor, input.project, 'version', input.name, {
          description: input.description,
          released: input.isReleased,
          archived: input.isArchived,
          releaseDate: input.releaseDate,
          newName: input.newName,
        }),
      ),
    ),

  deleteVersion: authedProcedure
    .meta(c.deleteVersionMeta)
    .input(c.ZProjectValueInput)
    .output(c.ZEmpty)
    .mutation(async ({ ctx, input }) => {
      await d.deleteProjectBundleValue(ctx.em, ctx.actor, input.project, 'version', input.name);
      return {};
    }),

  builds: authedProcedure
    .meta(c.listBuildsMeta)
    .input(c.ZProjectOnlyInput)
    .output(z.array(c.ZBuild))
    .query(async ({ ctx, input }) =>
      (await d.listProjectBundleValues(ctx.em, ctx.actor, input.project, 'build')).map((v) =>
        build(ctx, input.project, v),
      ),
    ),

  createBuild: authedProcedure
    .meta(c.createBuildMeta)
    .input(c.ZCreateBuildInput)
    .output(c.ZEmpty)
    .mutation(async ({ ctx, input }) => {
      const value = await d.addProjectBundleValue(ctx.em, ctx.actor, input.project, 'build', {
        name: input.name,
        assembleDate: input.assembleDate,
      });
      return created(ctx, `/admin/project/${input.project}/build/${value.name}`, {});
    }),

  assignees: authedProcedure
    .meta(c.listAssigneesMeta)
    .input(c.ZProjectOnlyInput)
    .output(z.array(c.ZAssignee))
    .query(({ ctx, input }) => d.listProjectAssignees(ctx.em, ctx.actor, input.project)),

  assigneeGroups: authedProcedure
    .meta(c.listAssigneeGroupsMeta)
    .input(c.ZProjectOnlyInput)
    .output(z.array(z.object({ name: z.string(), url: z.string() })))
    .query(async ({ ctx, input }) =>
      (await d.listProjectAssigneeGroups(ctx.em, ctx.actor, input.project)).map((name) => ({
        name,
        url: restUrl(ctx, 'admin', 'group', name),
      })),
    ),

  addAssignee: authedProcedure
    .meta(c.addAssigneeMeta)
    .input(c.ZProjectAssigneeInput)
    .output(c.ZEmpty)
    .mutation(async ({ ctx, input }) => {
      await d.addProjectAssignee(ctx.em, ctx.actor, input.project, input.login);
      return created(ctx, `/admin/project/${input.project}/assignee/${input.login}`, {});
    }),

  removeAssignee: authedProcedure
    .meta(c.removeAssigneeMeta)
    .input(c.ZProjectAssigneeInput)
    .output(c.ZEmpty)
    .mutation(async ({ ctx, input }) => {
      await d.removeProjectAssignee(ctx.em, ctx.actor, input.project, input.login);
      return {};
    }),
});
