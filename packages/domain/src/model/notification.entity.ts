import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_EVENT_STATUSES,
  NOTIFICATION_MESSAGE_STATUSES,
  NOTIFICATION_MODES,
  WEBHOOK_DELIVERY_STATUSES,
} from '@trackline/contracts';
import { Project } from './project.entity.js';
import { SavedSearch } from './saved-search.entity.js';
import { Tag } from './tag.entity.js';
import { User } from './user.entity.js';

/**
 * The notification outbox and what hangs off it (docs/notifications.md). Times are epoch
 * milliseconds (bigint), as in the VCS queue, so that claims and due times compare plain numbers
 * on SQLite and PostgreSQL.
 */

/** A user's channels; a user without a row has the defaults (both channels, each change). */
export const NotificationSetting = defineEntity({
  name: 'NotificationSetting',
  tableName: 'notification_settings',
  properties: {
    id: p.integer().primary().autoincrement(),
    user: () => p.manyToOne(User).deleteRule('cascade').unique(),
    emailMode: p.enum(NOTIFICATION_MODES).default('each'),
    emailDigestMinutes: p.integer().default(60),
    inappMode: p.enum(NOTIFICATION_MODES).default('each'),
    inappDigestMinutes: p.integer().default(60),
    /** Tell the user of their own changes too (off by default). */
    ownChanges: p.boolean().default(false),
  },
});
export type INotificationSetting = InferEntity<typeof NotificationSetting>;

/** "Notify on changes" of one saved search or one tag, for one user (the owner or, when shared, anyone). */
export const NotificationSubscription = defineEntity({
  name: 'NotificationSubscription',
  tableName: 'notification_subscriptions',
  uniques: [{ properties: ['user', 'savedSearch'] }, { properties: ['user', 'tag'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    // No index of its own: both unique indexes lead with it.
    user: () => p.manyToOne(User).deleteRule('cascade').index(false),
    savedSearch: () => p.manyToOne(SavedSearch).nullable().deleteRule('cascade').index(),
    tag: () => p.manyToOne(Tag).nullable().deleteRule('cascade').index(),
  },
});
export type INotificationSubscription = InferEntity<typeof NotificationSubscription>;

/**
 * One change of one issue, written in the change's own transaction (`recordIssueEvent`), and the
 * queue entry the fan-out claims. No foreign keys: an event outlives its issue (it is then
 * dropped when processed) and its author.
 */
export const NotificationEvent = defineEntity({
  name: 'NotificationEvent',
  tableName: 'notification_events',
  indexes: [
    {
      name: 'notification_events_claimable_index',
      properties: ['id'],
      where: "status in ('pending', 'processing')",
    },
  ],
  properties: {
    id: p.integer().primary().autoincrement(),
    issueId: p.integer(),
    projectId: p.integer(),
    authorId: p.integer(),
    /** The kinds of its parts, comma-separated (what webhooks choose among). */
    kinds: p.string().length(300),
    /** The parts (JSON): see `issues/history/issue-events.ts`. */
    payload: p.text(),
    /** `disableNotifications`: no person is told (webhooks still are). */
    quiet: p.boolean().default(false),
    createdAt: p.bigint('number'),
    status: p.enum(NOTIFICATION_EVENT_STATUSES).default('pending'),
    leaseUntil: p.bigint('number').nullable(),
    claimToken: p.string().length(64).nullable(),
    attempts: p.integer().default(0),
  },
});
export type INotificationEvent = InferEntity<typeof NotificationEvent>;

/**
 * A message: what one user is sent on one channel (an e-mail, an inbox entry), covering one or
 * more events. E-mails wait in `pending` until sent; inbox entries are `sent` when assembled.
 */
export const NotificationMessage = defineEntity({
  name: 'NotificationMessage',
  tableName: 'notification_messages',
  indexes: [
    { properties: ['user', 'channel', 'id'] },
    {
      name: 'notification_messages_claimable_index',
      properties: ['id'],
      where: "status in ('pending', 'sending')",
    },
  ],
  properties: {
    id: p.integer().primary().autoincrement(),
    // No index of its own: (user, channel, id) leads with it.
    user: () => p.manyToOne(User).deleteRule('cascade').index(false),
    channel: p.enum(NOTIFICATION_CHANNELS),
    digest: p.boolean().default(false),
    /** The issue of a per-change message; null for a digest e-mail and for system messages. */
    issueId: p.integer().nullable(),
    /** A message not about an issue (a webhook disabled): `{ subject, text }` as JSON. */
    system: p.text().nullable(),
    status: p.enum(NOTIFICATION_MESSAGE_STATUSES).default('pending'),
    leaseUntil: p.bigint('number').nullable(),
    claimToken: p.string().length(64).nullable(),
    attempts: p.integer().default(0),
    createdAt: p.bigint('number'),
    sentAt: p.bigint('number').nullable(),
    readAt: p.bigint('number').nullable(),
    error: p.text().nullable(),
  },
});
export type INotificationMessage = InferEntity<typeof NotificationMessage>;

/**
 * The ledger of "told once": one row per (event, recipient, channel), unique, made by the fan-out
 * and taken by exactly one message (`message` set in the message's own transaction).
 */
export const NotificationDelivery = defineEntity({
  name: 'NotificationDelivery',
  tableName: 'notification_deliveries',
  uniques: [{ properties: ['event', 'user', 'channel'] }],
  indexes: [
    {
      name: 'notification_deliveries_waiting_index',
      properties: ['groupKey', 'dueAt'],
      where: 'message_id is null',
    },
  ],
  properties: {
    id: p.integer().primary().autoincrement(),
    // No index of its own: the unique (event, user, channel) leads with it.
    event: () => p.manyToOne(NotificationEvent).deleteRule('cascade').index(false),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    channel: p.enum(NOTIFICATION_CHANNELS),
    /** Which deliveries go into one message (user, channel, and issue and author unless a digest). */
    groupKey: p.string().length(100),
    issueId: p.integer(),
    digest: p.boolean().default(false),
    /** When the message holding it is assembled: the merge window or the digest period after the change. */
    dueAt: p.bigint('number'),
    message: () => p.manyToOne(NotificationMessage).nullable().deleteRule('cascade').index(),
  },
});
export type INotificationDelivery = InferEntity<typeof NotificationDelivery>;

/** An outgoing webhook: a URL told of the chosen kinds of change in the chosen projects (all when none). */
export const Webhook = defineEntity({
  name: 'Webhook',
  tableName: 'webhooks',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(80),
    nameKey: p.string().length(80).unique(),
    url: p.string().length(2000),
    /** The HMAC key; kept in clear because signing needs it (shown once, at creation). */
    secret: p.string().length(200),
    /** The event kinds, comma-separated. */
    kinds: p.string().length(300),
    /** Whose permissions decide what a payload may carry; told when the hook is disabled. */
    owner: () => p.manyToOne(User).deleteRule('cascade').index(),
    enabled: p.boolean().default(true),
    disabledReason: p.text().nullable(),
    createdAt: p.bigint('number'),
  },
});
export type IWebhook = InferEntity<typeof Webhook>;

export const WebhookProject = defineEntity({
  name: 'WebhookProject',
  tableName: 'webhook_projects',
  uniques: [{ properties: ['webhook', 'project'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    webhook: () => p.manyToOne(Webhook).deleteRule('cascade').index(false),
    project: () => p.manyToOne(Project).deleteRule('cascade').index(),
  },
});
export type IWebhookProject = InferEntity<typeof WebhookProject>;

/** One event for one hook: claimed like the VCS queue, retried with backoff, its attempts logged. */
export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  uniques: [{ properties: ['webhook', 'event'] }],
  indexes: [
    {
      name: 'webhook_deliveries_claimable_index',
      properties: ['leaseUntil'],
      where: "status in ('pending', 'sending')",
    },
  ],
  properties: {
    id: p.integer().primary().autoincrement(),
    webhook: () => p.manyToOne(Webhook).deleteRule('cascade').index(false),
    event: () => p.manyToOne(NotificationEvent).deleteRule('cascade').index(),
    status: p.enum(WEBHOOK_DELIVERY_STATUSES).default('pending'),
    /** When it may be claimed next: a retry's time, or a claim's expiry. */
    leaseUntil: p.bigint('number').default(0),
    claimToken: p.string().length(64).nullable(),
    attempts: p.integer().default(0),
    /** The body as first built (retries send the same bytes); null until the first attempt. */
    payload: p.text().nullable(),
    createdAt: p.bigint('number'),
    firstAttemptAt: p.bigint('number').nullable(),
    deliveredAt: p.bigint('number').nullable(),
    lastStatus: p.integer().nullable(),
    lastError: p.text().nullable(),
  },
});
export type IWebhookDelivery = InferEntity<typeof WebhookDelivery>;

/** The delivery log: one row per HTTP attempt. */
export const WebhookAttempt = defineEntity({
  name: 'WebhookAttempt',
  tableName: 'webhook_attempts',
  properties: {
    id: p.integer().primary().autoincrement(),
    delivery: () => p.manyToOne(WebhookDelivery).deleteRule('cascade').index(),
    at: p.bigint('number'),
    statusCode: p.integer().nullable(),
    error: p.text().nullable(),
    durationMs: p.integer(),
    redelivery: p.boolean().default(false),
  },
});
export type IWebhookAttempt = InferEntity<typeof WebhookAttempt>;

/**
 * Keys of this installation, made once and shared by every process: the secret that signs
 * unsubscribe links and the id in every Message-ID.
 */
export const InstallationKey = defineEntity({
  name: 'InstallationKey',
  tableName: 'installation_keys',
  properties: {
    name: p.string().length(50).primary(),
    value: p.string().length(200),
  },
});
export type IInstallationKey = InferEntity<typeof InstallationKey>;
