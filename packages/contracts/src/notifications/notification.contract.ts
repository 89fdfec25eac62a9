import { z } from 'zod';

import { name } from '../common/text-fields.js';
import { MAX_DIGEST_MINUTES, MIN_DIGEST_MINUTES, ZNotificationMode } from './notification-kinds.js';

/** A field's values before and after a change (as the issue history records them). */
export const ZNotifiedFieldChange = z.object({
  name: z.string(),
  oldValues: z.array(z.string()),
  newValues: z.array(z.string()),
});

/**
 * One part of a change, as a reader may see it (docs/notifications.md). The same shapes are the
 * `parts` of a webhook payload.
 */
export const ZNotifiedPart = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('issue.created'), summary: z.string(), description: z.string() }),
  z.object({ kind: z.literal('issue.changed'), fields: z.array(ZNotifiedFieldChange) }),
  z.object({ kind: z.literal('issue.visibility'), from: z.string().nullable(), to: z.string().nullable() }),
  z.object({
    kind: z.enum(['comment.added', 'comment.updated']),
    commentId: z.number().int(),
    text: z.string(),
    group: z.string().nullable(),
  }),
  z.object({ kind: z.literal('attachment.added'), attachmentId: z.number().int(), name: z.string() }),
  z.object({
    kind: z.enum(['link.added', 'link.removed']),
    phrase: z.string(),
    issue: z.string(),
    summary: z.string(),
  }),
  z.object({ kind: z.enum(['tag.added', 'tag.removed']), tag: z.string() }),
]);
export type NotifiedPartDto = z.infer<typeof ZNotifiedPart>;

const ZUserRef = z.object({ login: z.string(), fullName: z.string() });

export const ZInboxEntry = z.object({
  id: z.number().int(),
  /** Milliseconds since the epoch. */
  created: z.number(),
  read: z.boolean(),
  digest: z.boolean(),
  /** A message about an issue: the changes the reader may see now. Absent for a note. */
  issue: z
    .object({
      id: z.string(),
      summary: z.string(),
      changes: z.array(z.object({ at: z.number(), author: ZUserRef, parts: z.array(ZNotifiedPart) })),
    })
    .optional(),
  /** A note from the system (a webhook disabled, an issue hidden from the reader now). */
  note: z.object({ subject: z.string(), text: z.string() }).optional(),
});
export type InboxEntryDto = z.infer<typeof ZInboxEntry>;

export const ZInboxInput = z.object({
  unreadOnly: z.boolean().optional(),
  /** Entries older than this entry id (the next page). */
  before: z.number().int().min(1).optional(),
  max: z.number().int().min(1).max(50).optional(),
});
export const ZInboxOutput = z.object({ entries: z.array(ZInboxEntry), unread: z.number().int() });
export const ZUnreadOutput = z.object({ unread: z.number().int() });
export const ZMarkReadInput = z.object({
  /** Absent: every entry. */
  ids: z.array(z.number().int().min(1)).max(500).optional(),
});

const ZChannelSetting = z.object({
  mode: ZNotificationMode,
  digestMinutes: z.number().int().min(MIN_DIGEST_MINUTES).max(MAX_DIGEST_MINUTES),
});
export const ZNotificationSettings = z.object({
  email: ZChannelSetting,
  inapp: ZChannelSetting,
  ownChanges: z.boolean(),
  /** Whether this server sends e-mail at all (TRACKLINE_SMTP_URL). */
  emailAvailable: z.boolean(),
  /** The caller's address (e-mail goes nowhere without one). */
  address: z.string().nullable(),
});
export type NotificationSettingsDto = z.infer<typeof ZNotificationSettings>;
export const ZUpdateNotificationSettingsInput = z.object({
  email: ZChannelSetting.partial().optional(),
  inapp: ZChannelSetting.partial().optional(),
  ownChanges: z.boolean().optional(),
});

export const ZSubscription = z.object({
  kind: z.enum(['savedSearch', 'tag']),
  name: z.string(),
  owner: z.string(),
  shared: z.boolean(),
});
export const ZSubscriptionsOutput = z.array(ZSubscription);
export const ZSetSubscriptionInput = z.object({
  savedSearch: name(100).optional(),
  tag: name(100).optional(),
  notify: z.boolean(),
});

export const ZProjectNotificationGroupInput = z.object({ project: name(50) });
export const ZSetProjectNotificationGroupInput = z.object({
  project: name(50),
  /** Empty: no group. */
  group: z.string().max(100),
});
export const ZProjectNotificationGroup = z.object({ project: z.string(), group: z.string().nullable() });
