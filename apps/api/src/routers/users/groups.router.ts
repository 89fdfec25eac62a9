import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import { z } from 'zod';
import type { Context } from '../../trpc/context.js';
import { authedProcedure, router } from '../../trpc/procedures.js';
import { created, restUrl } from '../respond.js';

const toGroupRef = (ctx: Context, g: d.IGroup) => ({
  name: g.name,
  url: restUrl(ctx, 'admin', 'group', g.name),
});
const toGroup = (ctx: Context, g: d.IGroup): c.GroupDto => ({
  name: g.name,
  description: g.description,
  autoJoin: g.autoJoin,
  url: restUrl(ctx, 'admin', 'group', g.name),
});
export const toUserRoles = (ctx: Context, roles: d.RoleScopes[]): c.UserRoleDto[] =>
  roles.map((r) => ({
    name: r.role,
    projects: r.projects.map((id) => ({ id, url: restUrl(ctx, 'admin', 'project', id) })),
  }));

/** `/admin/group/…` and group membership under `/admin/user/{login}/group`. */
export const groupsRouter = router({
  list: authedProcedure
    .meta(c.listGroupsMeta)
    .input(z.object({}))
    .output(c.ZListGroupsOutput)
    .query(async ({ ctx }) => (await d.listGroups(ctx.em, ctx.actor)).map((g) => toGroupRef(ctx, g))),

  get: authedProcedure
    .meta(c.getGroupMeta)
    .input(c.ZGroupInput)
    .output(c.ZGroup)
    .query(async ({ ctx, input }) => toGroup(ctx, await d.getGroup(ctx.em, ctx.actor, input.group))),

  create: authedProcedure
    .meta(c.createGroupMeta)
    .input(c.ZCreateGroupInput)
    .output(c.ZGroup)
    .mutation(async ({ ctx, input }) => {
      const group = await d.createGroup(ctx.em, ctx.actor, input.group, input);
      return created(ctx, `/admin/group/${group.name}`, toGroup(ctx, group));
    }),

  update: authedProcedure
    .meta(c.updateGroupMeta)
    .input(c.ZUpdateGroupInput)
    .output(c.ZGroup)
    .mutation(async ({ ctx, input }) =>
      toGroup(ctx, await d.updateGroup(ctx.em, ctx.actor, input.group, input)),
    ),

  delete: authedProcedure
    .meta(c.deleteGroupMeta)
    .input(c.ZGroupInput)
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await d.deleteGroup(ctx.em, ctx.actor, input.group);
      return {};
    }),

  roles: authedProcedure
    .meta(c.listGroupRolesMeta)
    .input(c.ZGroupInput)
    .output(c.ZUserRolesOutput)
    .query(async ({ ctx, input }) =>
      toUserRoles(ctx, await d.listGroupRoles(ctx.em, ctx.actor, input.group)),
    ),

  grantRole: authedProcedure
    .meta(c.grantGroupRoleMeta)
    .input(c.ZGrantGroupRoleInput)
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      const projects = [...(input.projects ?? []), ...(input.project ? [input.project] : [])];
      await d.grantGroupRole(ctx.em, ctx.actor, input.group, input.role, projects);
      return {};
    }),

  revokeRole: authedProcedure
    .meta(c.revokeGroupRoleMeta)
    .input(c.ZRevokeGroupRoleInput)
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await d.revokeGroupRole(ctx.em, ctx.actor, input.group, input.role, input.project);
      return {};
    }),

  ofUser: authedProcedure
    .meta(c.listUserGroupsMeta)
    .input(c.ZUserInput)
    .output(c.ZListGroupsOutput)
    .query(async ({ ctx, input }) =>
      (await d.listUserGroups(ctx.em, ctx.actor, input.login)).map((g) => toGroupRef(ctx, g)),
    ),

  addUser: authedProcedure
    .meta(c.addUserToGroupMeta)
    .input(c.ZUserGroupInput)
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await d.addUserToGroup(ctx.em, ctx.actor, input.login, input.group);
      return {};
    }),

  removeUser: authedProcedure
    .meta(c.removeUserFromGroupMeta)
    .input(c.ZUserGroupInput)
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await d.removeUserFromGroup(ctx.em, ctx.actor, input.login, input.group);
      return {};
    }),
});
