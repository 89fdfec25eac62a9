import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import { z } from 'zod';
import type { Context } from '../../trpc/context.js';
import { authedProcedure, router } from '../../trpc/procedures.js';
import { colorOrNull } from '../issues/issue-view.dto.js';
import { created, restUrl } from '../respond.js';
import { projectAllProcedures } from './project-all.procedures.js';

const toProject = (ctx: Context, p: d.IProject): c.ProjectDto => {
  const url = (...rest: string[]) => `${restUrl(ctx, 'admin', 'project', p.shortName, ...rest)}/`;
  return {
    id: p.shortName,
    name: p.name,
    lead: p.lead.login,
    description: p.description,
    startingNumber: p.startingNumber,
    assigneesUrl: url('assignee'),
    subsystemsUrl: url('subsystem'),
    buildsUrl: url('build'),
    versionsUrl: url('version'),
  };
};

async function createAndRespond(ctx: Context & { actor: d.Actor }, input: d.NewProject) {
  const project = await d.createProject(ctx.em, ctx.actor, input);
  return created(ctx, `/admin/project/${project.shortName}`, toProject(ctx, project));
}

export const projectsRouter = router({
  /** tRPC only: every value each field of the project may take, with colours (value pickers). */
  /** tRPC only (the console's project screen): who holds which role in the project. */
  grants: authedProcedure
    .input(c.ZProjectGrantsInput)
    .output(c.ZProjectGrantsOutput)
    .query(({ ctx, input }) => d.listProjectGrants(ctx.em, ctx.actor, input.project)),

  fieldOptions: authedProcedure
    .input(c.ZFieldOptionsInput)
    .output(c.ZFieldOptionsOutput)
    .query(async ({ ctx, input }) =>
      (await d.projectFieldOptions(ctx.em, ctx.actor, input.project)).map((f) => ({
        ...f,
        values: f.values.map(({ colorIndex, ...value }) => ({ ...value, color: colorOrNull(colorIndex) })),
      })),
    ),

  list: authedProcedure
    .meta(c.listProjectsMeta)
    .input(z.object({}))
    .output(c.ZListProjectsOutput, { trusted: true })
    .query(async ({ ctx }) =>
      (await d.listAccessibleProjects(ctx.reads, ctx.actor)).map((p) => ({
        id: p.shortName,
        url: restUrl(ctx, 'admin', 'project', p.shortName),
      })),
    ),

  get: authedProcedure
    .meta(c.getProjectMeta)
    .input(c.ZGetProjectInput)
    .output(c.ZProject)
    .query(async ({ ctx, input }) =>
      toProject(ctx, await d.getReadableProject(ctx.em, ctx.actor, input.project)),
    ),

  create: authedProcedure
    .meta(c.createProjectMeta)
    .input(c.ZCreateProjectInput)
    .output(c.ZProject)
    .mutation(({ ctx, input }) =>
      createAndRespond(ctx, {
        shortName: input.project,
        name: input.projectName,
        description: input.description,
        leadLogin: input.projectLeadLogin ?? input.lead,
        startingNumber: input.startingNumber,
      }),
    ),

  createFromBody: authedProcedure
    .meta(c.createProjectFromBodyMeta)
    .input(c.ZCreateProjectFromBodyInput)
    .output(c.ZProject)
    .mutation(({ ctx, input }) => {
      const shortName = input.id ?? input.shortName;
      const name = input.name ?? input.projectName;
      if (!shortName) throw d.DomainError.invalid('id', 'is required (the project short name)');
      if (!name) throw d.DomainError.invalid('name', 'is required');
      return createAndRespond(ctx, {
        shortName,
        name,
        description: input.description,
        leadLogin: input.lead ?? input.leader ?? input.projectLeadLogin,
        startingNumber: input.startingNumber,
      });
    }),

  trash: authedProcedure
    .meta(c.listProjectTrashMeta)
    .input(z.object({}))
    .output(z.array(c.ZTrashedProject))
    .query(async ({ ctx }) =>
      (await d.listTrashedProjects(ctx.em, ctx.actor, ctx.trashDays)).map((p) => ({
        id: p.shortName,
        name: p.name,
        deleted: p.deletedAt.getTime(),
        purgeAfter: p.purgeAfter.getTime(),
        issues: p.issues,
      })),
    ),

  restore: authedProcedure
    .meta(c.restoreProjectMeta)
    .input(c.ZGetProjectInput)
    .output(c.ZProject)
    .mutation(async ({ ctx, input }) => {
      return toProject(ctx, await d.restoreProject(ctx.em, ctx.actor, input.project));
    }),

  purge: authedProcedure
    .meta(c.purgeProjectMeta)
    .input(c.ZGetProjectInput)
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await d.purgeProject(ctx.em, ctx.actor, input.project);
      return {};
    }),

  delete: authedProcedure
    .meta(c.deleteProjectMeta)
    .input(c.ZGetProjectInput)
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await d.deleteProject(ctx.em, ctx.actor, input.project);
      return {};
    }),

  ...projectAllProcedures,
});
