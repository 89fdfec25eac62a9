import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import { z } from 'zod';
import type { Context } from '../../trpc/context.js';
import { authedProcedure, router } from '../../trpc/procedures.js';
import { created, restUrl } from '../respond.js';

const toRole = (ctx: Context, role: d.RoleView): c.RoleDto => ({
  name: role.name,
  description: role.description,
  permissionsUrl: restUrl(ctx, 'admin', 'role', role.name, 'permission'),
});
const toPermission = (p: { key: string; description: string }): c.PermissionDto => ({
  name: p.key,
  description: p.description,
});

export const rolesRouter = router({
  list: authedProcedure
    .meta(c.listRolesMeta)
    .input(z.object({}))
    .output(c.ZListRolesOutput, { trusted: true })
    .query(async ({ ctx }) =>
      (await d.listRoles(ctx.reads, ctx.actor)).map((r) => ({
        name: r.name,
        url: restUrl(ctx, 'admin', 'role', r.name),
      })),
    ),

  get: authedProcedure
    .meta(c.getRoleMeta)
    .input(c.ZGetRoleInput)
    .output(c.ZRole, { trusted: true })
    .query(async ({ ctx, input }) => toRole(ctx, await d.getRole(ctx.reads, ctx.actor, input.role))),

  create: authedProcedure
    .meta(c.createRoleMeta)
    .input(c.ZCreateRoleInput)
    .output(c.ZRole)
    .mutation(async ({ ctx, input }) => {
      const role = await d.createRole(ctx.em, ctx.actor, input.role, input.description ?? '');
      return created(ctx, `/admin/role/${role.name}`, toRole(ctx, role));
    }),

  update: authedProcedure
    .meta(c.updateRoleMeta)
    .input(c.ZUpdateRoleInput)
    .output(c.ZRole)
    .mutation(async ({ ctx, input }) =>
      toRole(
        ctx,
        await d.updateRole(ctx.em, ctx.actor, input.role, {
          newName: input.newName,
          description: input.description,
        }),
      ),
    ),

  permissions: authedProcedure
    .meta(c.listRolePermissionsMeta)
    .input(c.ZGetRoleInput)
    .output(c.ZListPermissionsOutput)
    .query(async ({ ctx, input }) =>
      (await d.listRolePermissions(ctx.em, ctx.actor, input.role)).map(toPermission),
    ),

  addPermission: authedProcedure
    .meta(c.addRolePermissionMeta)
    .input(c.ZRolePermissionInput)
    .output(c.ZListPermissionsOutput)
    .mutation(async ({ ctx, input }) =>
      (await d.addRolePermission(ctx.em, ctx.actor, input.role, input.permission)).map(toPermission),
    ),

  removePermission: authedProcedure
    .meta(c.removeRolePermissionMeta)
    .input(c.ZRolePermissionInput)
    .output(c.ZListPermissionsOutput)
    .mutation(async ({ ctx, input }) =>
      (await d.removeRolePermission(ctx.em, ctx.actor, input.role, input.permission)).map(toPermission),
    ),

  allPermissions: authedProcedure
    .meta(c.listPermissionsMeta)
    .input(z.object({}))
    .output(c.ZListPermissionsOutput)
    .query(({ ctx }) => d.listAllPermissions(ctx.actor).map(toPermission)),
});
