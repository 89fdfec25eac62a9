import { useQueryClient } from '@tanstack/react-query';
import type { Me } from '@trackline/client';
import { type FormEvent, useEffect, useState } from 'react';
import { messageOf, trackline } from '../api';
import { sessionClosed } from '../lib/connection';
import { showNotice } from '../lib/notice';
import { keys } from '../lib/queries';
import { useTitle } from '../lib/title';
import { Field, Panel } from './admin/common';

/** One's own profile (full name, e-mail) and password. */
export function ProfilePage({ me }: { me: Me }) {
  useTitle('Your profile');
  const client = useQueryClient();
  const [profile, setProfile] = useState({ fullName: me.fullName, email: '' });
  const [passwords, setPasswords] = useState({ current: '', next: '', again: '' });
  const [message, setMessage] = useState({ error: '', done: '' });
  useEffect(() => {
    void trackline.users.account
      .query({ login: me.login })
      .then((a) => setProfile((p) => ({ ...p, email: a.email ?? '' })))
      .catch(() => undefined);
  }, [me.login]);
  const saveProfile = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await trackline.users.update.mutate({
        login: me.login,
        fullName: profile.fullName,
        email: profile.email,
      });
      await client.invalidateQueries({ queryKey: keys.me });
      setMessage({ error: '', done: 'Profile saved.' });
    } catch (e) {
      setMessage({ error: messageOf(e), done: '' });
    }
  };
  const changePassword = async (event: FormEvent) => {
    event.preventDefault();
    if (passwords.next !== passwords.again) {
      setMessage({ error: 'The new password and its repetition differ.', done: '' });
      return;
    }
    try {
      await trackline.users.changePassword.mutate({
        login: me.login,
        password: passwords.current,
        newPassword: passwords.next,
      });
      // A new password ends every session of the account, this one too: the login form, saying why.
      showNotice('Password changed: every session of your account ended. Log in with the new password.');
      sessionClosed();
      client.removeQueries({ predicate: (q) => q.queryKey[0] !== keys.me[0] });
      await client.resetQueries({ queryKey: keys.me });
    } catch (e) {
      setMessage({ error: messageOf(e), done: '' });
    }
  };
  return (
    <section className="profile-page">
      <h1>Your profile</h1>
      <p className="muted">
        {me.login} · {me.permissions.length > 0 ? 'with global permissions' : 'project permissions only'}
      </p>
      <Panel title="Profile">
        <form className="form grid" onSubmit={(e) => void saveProfile(e)}>
          <Field label="Full name">
            <input
              value={profile.fullName}
              onChange={(e) => setProfile({ ...profile, fullName: e.target.value })}
              required
              maxLength={200}
              autoComplete="name"
            />
          </Field>
          <Field label="E-mail">
            <input
              type="email"
              value={profile.email}
              onChange={(e) => setProfile({ ...profile, email: e.target.value })}
              maxLength={200}
              autoComplete="email"
            />
          </Field>
          <div className="actions">
            <button type="submit" className="primary">
              Save profile
            </button>
          </div>
        </form>
      </Panel>
      <Panel title="Password">
        <form className="form grid" onSubmit={(e) => void changePassword(e)}>
          <input type="text" name="username" value={me.login} autoComplete="username" readOnly hidden />
          <Field label="Current password">
            <input
              type="password"
              value={passwords.current}
              onChange={(e) => setPasswords({ ...passwords, current: e.target.value })}
              required
              autoComplete="current-password"
            />
          </Field>
          <Field label="New password">
            <input
              type="password"
              value={passwords.next}
              onChange={(e) => setPasswords({ ...passwords, next: e.target.value })}
              required
              minLength={8}
              autoComplete="new-password"
            />
          </Field>
          <Field label="Repeat the new password">
            <input
              type="password"
              value={passwords.again}
              onChange={(e) => setPasswords({ ...passwords, again: e.target.value })}
              required
              minLength={8}
              autoComplete="new-password"
            />
          </Field>
          <div className="actions">
            <button type="submit">Change password</button>
          </div>
        </form>
        <p className="muted small">
          Every session of your account ends; you log in again with the new password.
        </p>
      </Panel>
      {message.error && (
        <p className="error" role="alert">
          {message.error}
        </p>
      )}
      <p className="done" role="status">
        {message.done}
      </p>
    </section>
  );
}
