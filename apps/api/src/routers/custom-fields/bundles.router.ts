import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import { z } from 'zod';
import type { Context } from '../../trpc/context.js';
import { authedProcedure, router } from '../../trpc/procedures.js';
import { created, restUrl } from '../respond.js';

const bundleDto = (ctx: Context, b: d.BundleView): c.BundleDto => ({
  type: b.type,
  name: b.name,
  // An owned-field value without an owner says `owner="<no user>"`, as the original did (youtrack2youtrack
  // otherwise asks the source for the user with an empty login).
  values:
    b.type === 'ownedFieldBundle' ? b.values.map((v) => ({ ...v, owner: v.owner ?? d.NO_USER })) : b.values,
  users: b.users.map((login) => ({ login, url: restUrl(ctx, 'admin', 'user', login) })),
  groups: b.groups.map((group) => ({ name: group, url: restUrl(ctx, 'admin', 'group', group) })),
});

const flag = (v: string | undefined) => (v === undefined ? undefined : /^(true|1)$/i.test(v));
const num = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : Number(v));

/**
 * The values (or users) of a bundle from an XML body's children (`<value colorIndex="3">A</value>`,
 * `<state isResolved="true">Fixed</state>`, `<user login="x"/>`), validated like JSON values.
 */
function fromXml(
  type: c.BundleTypeName,
  children: Record<string, Record<string, string>[]>,
): { values?: z.infer<typeof c.ZNewBundleValue>[]; users?: string[]; groups?: string[] } {
  const tag = c.BUNDLE_XML[type].value;
  if (type === 'userBundle')
    return {
      users: (children.user ?? []).map((u) => u.login ?? u.$text ?? ''),
      groups: (children.userGroup ?? []).map((g) => g.name ?? g.$text ?? ''),
    };
  const values = (children[tag] ?? []).map((v) => ({
    name: v.$text ?? v.name ?? '',
    description: v.description,
    colorIndex: num(v.colorIndex),
    // `is_resolved`: what the python library's StateField.toXml writes.
    isResolved: flag(v.isResolved ?? v.is_resolved),
    released: flag(v.released),
    archived: flag(v.archived),
    releaseDate: num(v.releaseDate),
    assembleDate: num(v.assembleDate),
    owner: v.owner,
  }));
  const parsed = z.array(c.ZNewBundleValue).safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw d.DomainError.invalid(
      tag,
      `${issue?.path.slice(1).join('.') || 'name'}: ${issue?.message ?? 'is invalid'}`,
    );
  }
  return { values: parsed.data };
}

/** Bundles of every type (`/admin/customfield/{bundleType}`), their values and users. */
export const bundlesRouter = router({
  list: authedProcedure
    .meta(c.listBundlesMeta)
    .input(c.ZBundleTypeInput)
    .output(c.ZListBundlesOutput)
    .query(async ({ ctx, input }) =>
      (await d.listBundles(ctx.em, ctx.actor, input.bundleType)).map((name) => ({
        name,
        url: restUrl(ctx, 'admin', 'customfield', input.bundleType, name),
      })),
    ),

  get: authedProcedure
    .meta(c.getBundleMeta)
    .input(c.ZBundleInput)
    .output(c.ZBundle)
    .query(async ({ ctx, input }) =>
      bundleDto(ctx, await d.getBundle(ctx.em, ctx.actor, input.bundleType, input.bundle)),
    ),

  create: authedProcedure
    .meta(c.createBundleMeta)
    .input(c.ZCreateBundleInput)
    .output(c.ZBundle)
    .mutation(async ({ ctx, input }) => {
      const fromBody: ReturnType<typeof fromXml> = input.xmlChildren
        ? fromXml(input.bundleType, input.xmlChildren)
        : {};
      const bundle = await d.createBundle(ctx.em, ctx.actor, input.bundleType, {
        name: input.name,
        values: input.values ?? fromBody.values,
        users: input.users ?? fromBody.users,
        groups: input.groups ?? fromBody.groups,
      });
      return created(ctx, `/admin/customfield/${input.bundleType}/${bundle.name}`, bundleDto(ctx, bundle));
    }),

  rename: authedProcedure
    .meta(c.renameBundleMeta)
    .input(c.ZRenameBundleInput)
    .output(c.ZEmpty)
    .mutation(async ({ ctx, input }) => {
      const renamed = await d.renameBundle(ctx.em, ctx.actor, input.bundleType, input.bundle, input.newName);
      // The original: 200 for enumerations, 301 Moved Permanently to the new name for the others.
      if (input.bundleType !== 'bundle') {
        ctx.response.status = 301;
        ctx.response.headers.Location = restUrl(ctx, 'admin', 'customfield', input.bundleType, renamed.name);
      }
      return {};
    }),

  delete: authedProcedure
    .meta(c.deleteBundleMeta)
    .input(c.ZBundleInput)
    .output(c.ZEmpty)
    .mutation(async ({ ctx, input }) => {
      await d.deleteBundle(ctx.em, ctx.actor, input.bundleType, input.bundle);
      return {};
    }),

  addValue: authedProcedure
    .meta(c.addBundleValueMeta)
    .input(c.ZBundleValueInput)
    .output(c.ZBundleValue)
    .mutation(async ({ ctx, input }) => {
      const { bundleType, bundle, value, is_resolved, ...attributes } = input;
      const added = await d.addBundleValue(ctx.em, ctx.actor, bundleType, bundle, {
        name: value,
        ...attributes,
        isResolved: attributes.isResolved ?? is_resolved,
      });
      return created(ctx, `/admin/customfield/${bundleType}/${bundle}/${added.name}`, added);
    }),

  updateValue: authedProcedure
    .meta(c.updateBundleValueMeta)
    .input(c.ZUpdateBundleValueInput)
    .output(c.ZBundleValue)
    .mutation(async ({ ctx, input }) => {
      const { bundleType, bundle, value, ...attributes } = input;
      return d.updateBundleValue(ctx.em, ctx.actor, bundleType, bundle, value, attributes);
    }),

  deleteValue: authedProcedure
    .meta(c.deleteBundleValueMeta)
    .input(c.ZDeleteBundleValueInput)
    .output(c.ZEmpty)
    .mutation(async ({ ctx, input }) => {
      await d.deleteBundleValue(ctx.em, ctx.actor, input.bundleType, input.bundle, input.value);
      return {};
    }),

  /** tRPC only (the console): a value moved to another place in its bundle. */
  moveValue: authedProcedure
    .input(c.ZMoveBundleValueInput)
    .output(c.ZMoveBundleValueOutput)
    .mutation(async ({ ctx, input }) => ({
      values: await d.moveBundleValue(
        ctx.em,
        ctx.actor,
        input.bundleType,
        input.bundle,
        input.value,
        input.position,
      ),
    })),

  addUser: authedProcedure
    .meta(c.addBundleUserMeta)
    .input(c.ZBundleUserInput)
    .output(c.ZEmpty)
    .mutation(async ({ ctx, input }) => {
      await d.addBundleUser(ctx.em, ctx.actor, input.bundle, input.login);
      return created(ctx, `/admin/customfield/userBundle/${input.bundle}/individual/${input.login}`, {});
    }),

  removeUser: authedProcedure
    .meta(c.removeBundleUserMeta)
    .input(c.ZBundleUserInput)
    .output(c.ZEmpty)
    .mutation(async ({ ctx, input }) => {
      await d.removeBundleUser(ctx.em, ctx.actor, input.bundle, input.login);
      return {};
    }),

  addGroup: authedProcedure
    .meta(c.addBundleGroupMeta)
    .input(c.ZBundleGroupInput)
    .output(c.ZEmpty)
    .mutation(async ({ ctx, input }) => {
      await d.addBundleGroup(ctx.em, ctx.actor, input.bundle, input.group);
      return created(ctx, `/admin/customfield/userBundle/${input.bundle}/group/${input.group}`, {});
    }),

  removeGroup: authedProcedure
    .meta(c.removeBundleGroupMeta)
    .input(c.ZBundleGroupInput)
    .output(c.ZEmpty)
    .mutation(async ({ ctx, input }) => {
      await d.removeBundleGroup(ctx.em, ctx.actor, input.bundle, input.group);
      return {};
    }),
});
