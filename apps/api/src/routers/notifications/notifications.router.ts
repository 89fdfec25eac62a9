import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import { authedProcedure, router } from '../../trpc/procedures.js';

/** An inbox entry on the wire: the rendered issue without its database id. */
const toEntry = (e: d.InboxEntry): c.InboxEntryDto => ({
  id: e.id,
  created: e.created,
  read: e.read,
  digest: e.digest,
  ...(e.issue
    ? {
        issue: {
          id: e.issue.issue.id,
          summary: e.issue.issue.summary,
          changes: e.issue.changes.map((ch) => ({ at: ch.at, author: ch.author, parts: ch.parts })),
        },
      }
    : {}),
  ...(e.system ? { note: e.system } : {}),
});

const settingsDto = async (
  ctx: { em: d.Em; actor: d.Actor; emailAvailable?: boolean | undefined },
  s: d.NotificationSettings,
) => ({
  ...s,
  emailAvailable: ctx.emailAvailable ?? false,
  address: (await d.getUser(ctx.em, ctx.actor, ctx.actor.login).catch(() => null))?.email ?? null,
});

/**
 * The caller's own notifications (tRPC only, for the console and typed clients): the inbox, the
 * channels, subscriptions; and a project's notification group. docs/notifications.md.
 */
export const notificationsRouter = router({
  inbox: authedProcedure
    .input(c.ZInboxInput)
    .output(c.ZInboxOutput)
    .query(async ({ ctx, input }) => ({
      entries: (await d.listInbox(ctx.em, ctx.actor, input)).map(toEntry),
      unread: await d.unreadCount(ctx.em, ctx.actor),
    })),

  unreadCount: authedProcedure
    .input(c.ZEmpty)
    .output(c.ZUnreadOutput)
    .query(async ({ ctx }) => ({ unread: await d.unreadCount(ctx.em, ctx.actor) })),

  markRead: authedProcedure
    .input(c.ZMarkReadInput)
    .output(c.ZUnreadOutput)
    .mutation(async ({ ctx, input }) => {
      await d.markInboxRead(ctx.em, ctx.actor, input.ids);
      return { unread: await d.unreadCount(ctx.em, ctx.actor) };
    }),

  settings: authedProcedure
    .input(c.ZEmpty)
    .output(c.ZNotificationSettings)
    .query(async ({ ctx }) => settingsDto(ctx, await d.getNotificationSettings(ctx.em, ctx.actor))),

  updateSettings: authedProcedure
    .input(c.ZUpdateNotificationSettingsInput)
    .output(c.ZNotificationSettings)
    .mutation(async ({ ctx, input }) =>
      settingsDto(ctx, await d.updateNotificationSettings(ctx.em, ctx.actor, input)),
    ),

  subscriptions: authedProcedure
    .input(c.ZEmpty)
    .output(c.ZSubscriptionsOutput)
    .query(({ ctx }) => d.listSubscriptions(ctx.em, ctx.actor)),

  subscribe: authedProcedure
    .input(c.ZSetSubscriptionInput)
    .output(c.ZSubscriptionsOutput)
    .mutation(({ ctx, input }) =>
      d.setSubscription(ctx.em, ctx.actor, { savedSearch: input.savedSearch, tag: input.tag }, input.notify),
    ),

  projectGroup: authedProcedure
    .input(c.ZProjectNotificationGroupInput)
    .output(c.ZProjectNotificationGroup)
    .query(async ({ ctx, input }) => ({
      project: input.project,
      group: await d.getProjectNotificationGroup(ctx.em, ctx.actor, input.project),
    })),

  setProjectGroup: authedProcedure
    .input(c.ZSetProjectNotificationGroupInput)
    .output(c.ZProjectNotificationGroup)
    .mutation(async ({ ctx, input }) => ({
      project: input.project,
      group: await d.setProjectNotificationGroup(ctx.em, ctx.actor, input.project, input.group),
    })),
});
