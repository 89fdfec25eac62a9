import {
  MAX_DIGEST_MINUTES,
  MIN_DIGEST_MINUTES,
  type NotificationChannel,
  type NotificationMode,
} from '@trackline/contracts';
import type { Actor } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { toBool } from '../orm/row-values.js';
import { type Param, perLength, prepareRead, prepareWrite } from '../orm/typed-query.js';

export type ChannelSetting = { mode: NotificationMode; digestMinutes: number };
export type NotificationSettings = {
  email: ChannelSetting;
  inapp: ChannelSetting;
  /** Whether the user is told of their own changes. */
  ownChanges: boolean;
};

/** A user without a row: both channels, a message per change, not of their own changes. */
export const DEFAULT_SETTINGS: NotificationSettings = {
  email: { mode: 'each', digestMinutes: 60 },
  inapp: { mode: 'each', digestMinutes: 60 },
  ownChanges: false,
};

/** Who a recipient is, for the fan-out: whether they may be told at all, and how. */
export type Recipient = {
  userId: number;
  email: string | null;
  settings: NotificationSettings;
};

const recipientsQuery = perLength((count) =>
  prepareRead((param: Param<{ ids: number[] }>) =>
    tables
      .selectFrom('users as u')
      .leftJoin('notification_settings as s', 's.user_id', 'u.id')
      .select([
        'u.id',
        'u.email',
        'u.type',
        'u.banned',
        's.email_mode',
        's.email_digest_minutes',
        's.inapp_mode',
        's.inapp_digest_minutes',
        's.own_changes',
      ])
      .where('u.id', 'in', param.list('ids', count)),
  ),
);

type SettingsRow = {
  email_mode: NotificationMode | null;
  email_digest_minutes: number | null;
  inapp_mode: NotificationMode | null;
  inapp_digest_minutes: number | null;
  own_changes: unknown;
};
const settingsOf = (r: SettingsRow): NotificationSettings =>
  r.email_mode === null
    ? DEFAULT_SETTINGS
    : {
        email: { mode: r.email_mode, digestMinutes: Number(r.email_digest_minutes) },
        inapp: { mode: r.inapp_mode ?? 'each', digestMinutes: Number(r.inapp_digest_minutes) },
        ownChanges: toBool(r.own_changes),
      };

/**
 * The users among `ids` who may be told anything, with their settings: people (not guest, system,
 * workflow or service accounts), not banned.
 */
export async function loadRecipients(em: Em, ids: readonly number[]): Promise<Recipient[]> {
  const out: Recipient[] = [];
  const list = [...new Set(ids)];
  for (let i = 0; i < list.length; i += 500) {
    const chunk = list.slice(i, i + 500);
    for (const r of await recipientsQuery(chunk.length).all(em, { ids: chunk })) {
      if ((r.type !== 'user' && r.type !== 'root') || toBool(r.banned)) continue;
      out.push({ userId: Number(r.id), email: r.email?.trim() || null, settings: settingsOf(r) });
    }
  }
  return out;
}

const ownQuery = prepareRead((param: Param<{ userId: number }>) =>
  tables
    .selectFrom('notification_settings as s')
    .select([
      's.email_mode',
      's.email_digest_minutes',
      's.inapp_mode',
      's.inapp_digest_minutes',
      's.own_changes',
    ])
    .where('s.user_id', '=', param('userId')),
);

/** The caller's notification settings (the defaults until they change one). */
export async function getNotificationSettings(em: Em, actor: Actor): Promise<NotificationSettings> {
  const row = await ownQuery.first(em, { userId: actor.userId });
  return row ? settingsOf(row) : DEFAULT_SETTINGS;
}

export type SettingsChange = {
  email?: Partial<ChannelSetting> | undefined;
  inapp?: Partial<ChannelSetting> | undefined;
  ownChanges?: boolean | undefined;
};

const upsert = prepareWrite(
  (
    param: Param<{
      userId: number;
      emailMode: NotificationMode;
      emailDigest: number;
      inappMode: NotificationMode;
      inappDigest: number;
      own: boolean;
    }>,
  ) =>
    tables
      .insertInto('notification_settings')
      .values({
        user_id: param('userId'),
        email_mode: param('emailMode'),
        email_digest_minutes: param('emailDigest'),
        inapp_mode: param('inappMode'),
        inapp_digest_minutes: param('inappDigest'),
        own_changes: param('own'),
      })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({
          email_mode: param('emailMode'),
          email_digest_minutes: param('emailDigest'),
          inapp_mode: param('inappMode'),
          inapp_digest_minutes: param('inappDigest'),
          own_changes: param('own'),
        }),
      ),
);

function checkDigest(channel: NotificationChannel, minutes: number) {
  if (!Number.isInteger(minutes) || minutes < MIN_DIGEST_MINUTES || minutes > MAX_DIGEST_MINUTES)
    throw DomainError.invalid(
      `${channel}.digestMinutes`,
      `must be a whole number of minutes from ${MIN_DIGEST_MINUTES} to ${MAX_DIGEST_MINUTES}`,
    );
}

/** Changes the caller's own settings (no permission: they are the caller's). */
export async function updateNotificationSettings(
  em: Em,
  actor: Actor,
  change: SettingsChange,
): Promise<NotificationSettings> {
  const current = await getNotificationSettings(em, actor);
  const next: NotificationSettings = {
    email: { ...current.email, ...defined(change.email) },
    inapp: { ...current.inapp, ...defined(change.inapp) },
    ownChanges: change.ownChanges ?? current.ownChanges,
  };
  checkDigest('email', next.email.digestMinutes);
  checkDigest('inapp', next.inapp.digestMinutes);
  await setSettings(em, actor.userId, next);
  return next;
}

export async function setSettings(em: Em, userId: number, settings: NotificationSettings): Promise<void> {
  await upsert.run(em, {
    userId,
    emailMode: settings.email.mode,
    emailDigest: settings.email.digestMinutes,
    inappMode: settings.inapp.mode,
    inappDigest: settings.inapp.digestMinutes,
    own: settings.ownChanges,
  });
}

const defined = <T extends object>(value: T | undefined): Partial<T> =>
  Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;

/** The one-click unsubscribe: the user's e-mail channel off (their other settings kept). */
export async function switchEmailOff(em: Em, userId: number): Promise<void> {
  const row = await ownQuery.first(em, { userId });
  const current = row ? settingsOf(row) : DEFAULT_SETTINGS;
  await setSettings(em, userId, { ...current, email: { ...current.email, mode: 'off' } });
}
