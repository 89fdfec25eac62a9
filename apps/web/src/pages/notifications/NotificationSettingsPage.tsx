import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { RouterOutputs } from '@trackline/client';
import { type FormEvent, useEffect, useState } from 'react';
import { messageOf, trackline } from '../../api';
import { Link } from '../../lib/router';
import { notificationKeys } from './notification-keys';
import './notifications.css';

type Settings = RouterOutputs['notifications']['settings'];
type Channel = 'email' | 'inapp';
type Mode = Settings['email']['mode'];

const CHANNELS: { key: Channel; title: string }[] = [
  { key: 'email', title: 'E-mail' },
  { key: 'inapp', title: 'Inbox' },
];
const MODES: { mode: Mode; label: string }[] = [
  { mode: 'off', label: 'Off' },
  { mode: 'each', label: 'Each change' },
  { mode: 'digest', label: 'Digest' },
];

/** One channel: off, a message per change, or a digest every N minutes. */
function ChannelFieldset({
  channel,
  title,
  value,
  onChange,
  note,
}: {
  channel: Channel;
  title: string;
  value: Settings['email'];
  onChange: (value: Settings['email']) => void;
  note?: string | undefined;
}) {
  return (
    <fieldset>
      <legend>{title}</legend>
      {note && <p className="muted">{note}</p>}
      {MODES.map(({ mode, label }) => (
        <label key={mode}>
          <input
            type="radio"
            name={`${channel}-mode`}
            value={mode}
            checked={value.mode === mode}
            onChange={() => onChange({ ...value, mode })}
          />
          {label}
        </label>
      ))}
      <label className="digest">
        Digest every
        <input
          type="number"
          min={5}
          max={10080}
          value={value.digestMinutes}
          disabled={value.mode !== 'digest'}
          onChange={(e) => onChange({ ...value, digestMinutes: Number(e.target.value) })}
          aria-label={`${title}: digest every how many minutes`}
        />
        minutes
      </label>
    </fieldset>
  );
}

/** The caller's channels, whether they hear of their own changes, and their "Notify on changes" subscriptions. */
export function NotificationSettingsPage() {
  const client = useQueryClient();
  const settings = useQuery({
    queryKey: notificationKeys.settings,
    queryFn: () => trackline.notifications.settings.query({}),
  });
  const subscriptions = useQuery({
    queryKey: notificationKeys.subscriptions,
    queryFn: () => trackline.notifications.subscriptions.query({}),
  });
  const searches = useQuery({
    queryKey: ['folders', 'savedSearches'],
    queryFn: () => trackline.folders.savedSearches.query({}),
  });
  const tags = useQuery({ queryKey: ['folders', 'tags'], queryFn: () => trackline.folders.tags.query({}) });
  const [draft, setDraft] = useState<Settings | null>(null);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    if (settings.data && !draft) setDraft(settings.data);
  }, [settings.data, draft]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft) return;
    try {
      const saved = await trackline.notifications.updateSettings.mutate({
        email: { mode: draft.email.mode, digestMinutes: draft.email.digestMinutes },
        inapp: { mode: draft.inapp.mode, digestMinutes: draft.inapp.digestMinutes },
        ownChanges: draft.ownChanges,
      });
      setDraft(saved);
      client.setQueryData(notificationKeys.settings, saved);
      setStatus({ ok: true, text: 'Saved.' });
    } catch (e) {
      setStatus({ ok: false, text: messageOf(e) });
    }
  };
  /** What the boxes show: the server's subscriptions, with the clicks the server has not answered yet. */
  const [pending, setPending] = useState<ReadonlyMap<string, boolean>>(new Map());
  const subscribed = (kind: 'savedSearch' | 'tag', name: string) =>
    pending.get(`${kind}:${name}`) ??
    (subscriptions.data ?? []).some((s) => s.kind === kind && s.name === name);
  const toggle = async (kind: 'savedSearch' | 'tag', name: string, notify: boolean) => {
    const key = `${kind}:${name}`;
    setPending((p) => new Map(p).set(key, notify));
    try {
      const next = await trackline.notifications.subscribe.mutate(
        kind === 'savedSearch' ? { savedSearch: name, notify } : { tag: name, notify },
      );
      client.setQueryData(notificationKeys.subscriptions, next);
    } catch (e) {
      setStatus({ ok: false, text: messageOf(e) });
    } finally {
      setPending((p) => {
        const left = new Map(p);
        left.delete(key);
        return left;
      });
    }
  };

  return (
    <div className="settings-page">
      <h1>Notification settings</h1>
      <p>
        You are told of changes to issues you reported, are assigned to or watch (star), and of those you
        subscribe to below. <Link href="/inbox">Go to the inbox</Link>.
      </p>
      {(settings.isPending || !draft) && !settings.error && <p className="loading">Loading…</p>}
      {settings.error && <p role="alert">{messageOf(settings.error)}</p>}
      {draft && (
        <form onSubmit={(e) => void save(e)} aria-label="Channels">
          {CHANNELS.map(({ key, title }) => (
            <ChannelFieldset
              key={key}
              channel={key}
              title={title}
              value={draft[key]}
              onChange={(value) => setDraft({ ...draft, [key]: value })}
              note={
                key === 'email'
                  ? !draft.emailAvailable
                    ? 'This server sends no e-mail.'
                    : draft.address
                      ? `Sent to ${draft.address}.`
                      : 'Your account has no e-mail address.'
                  : undefined
              }
            />
          ))}
          <label>
            <input
              type="checkbox"
              checked={draft.ownChanges}
              onChange={(e) => setDraft({ ...draft, ownChanges: e.target.checked })}
            />
            Tell me of my own changes too
          </label>
          <p>
            <button type="submit">Save</button>
          </p>
          {status && (
            <p role={status.ok ? 'status' : 'alert'} className={status.ok ? 'muted' : undefined}>
              {status.text}
            </p>
          )}
        </form>
      )}
      <h2>Notify on changes</h2>
      <fieldset>
        <legend>Saved searches</legend>
        {(searches.data ?? []).length === 0 && <p className="muted">No saved searches.</p>}
        {(searches.data ?? []).map((s) => (
          <label key={`s-${s.owner}-${s.name}`}>
            <input
              type="checkbox"
              checked={subscribed('savedSearch', s.name)}
              onChange={(e) => void toggle('savedSearch', s.name, e.target.checked)}
            />
            {s.name}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Tags</legend>
        {(tags.data ?? []).length === 0 && <p className="muted">No tags.</p>}
        {(tags.data ?? []).map((t) => (
          <label key={`t-${t.owner}-${t.name}`}>
            <input
              type="checkbox"
              checked={subscribed('tag', t.name)}
              onChange={(e) => void toggle('tag', t.name, e.target.checked)}
            />
            {t.name}
          </label>
        ))}
      </fieldset>
    </div>
  );
}
