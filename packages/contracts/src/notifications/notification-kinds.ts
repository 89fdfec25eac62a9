import { z } from 'zod';

/**
 * What a change tells (`docs/notifications.md`): each kind is one part of a change to an issue.
 * Webhooks choose among them; a message to a person shows the parts they may read.
 */
export const NOTIFICATION_EVENT_KINDS = [
  'issue.created',
  'issue.changed',
  'issue.visibility',
  'comment.added',
  'comment.updated',
  'attachment.added',
  'link.added',
  'link.removed',
  'tag.added',
  'tag.removed',
] as const;
export const ZNotificationEventKind = z.enum(NOTIFICATION_EVENT_KINDS);
export type NotificationEventKind = z.infer<typeof ZNotificationEventKind>;

/** The channels a person is told through. */
export const NOTIFICATION_CHANNELS = ['email', 'inapp'] as const;
export const ZNotificationChannel = z.enum(NOTIFICATION_CHANNELS);
export type NotificationChannel = z.infer<typeof ZNotificationChannel>;

/** Per channel: nothing, a message per change (merged within the window), or a digest every N minutes. */
export const NOTIFICATION_MODES = ['off', 'each', 'digest'] as const;
export const ZNotificationMode = z.enum(NOTIFICATION_MODES);
export type NotificationMode = z.infer<typeof ZNotificationMode>;

/** The outbox's stages (events, messages, webhook deliveries) share these statuses. */
export const NOTIFICATION_EVENT_STATUSES = ['pending', 'processing', 'done'] as const;
export const NOTIFICATION_MESSAGE_STATUSES = ['pending', 'sending', 'sent', 'skipped', 'failed'] as const;
export type NotificationMessageStatus = (typeof NOTIFICATION_MESSAGE_STATUSES)[number];
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'sending', 'delivered', 'failed', 'skipped'] as const;
export const ZWebhookDeliveryStatus = z.enum(WEBHOOK_DELIVERY_STATUSES);
export type WebhookDeliveryStatus = z.infer<typeof ZWebhookDeliveryStatus>;

/** Digest periods a user may choose (minutes). */
export const MIN_DIGEST_MINUTES = 5;
export const MAX_DIGEST_MINUTES = 7 * 24 * 60;
