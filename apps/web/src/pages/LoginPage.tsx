import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { logIn } from '../api';
import { sessionRestored } from '../lib/connection';
import { dismissNotice, useNotice } from '../lib/notice';
import { useTitle } from '../lib/title';

/**
 * The login form: the session cookie it gets authenticates every later call of the page. `ended`:
 * a session ended while the page was open; after logging in, the page shows the same URL again.
 */
export function LoginPage({ ended = false }: { ended?: boolean }) {
  useTitle('Log in');
  const notice = useNotice();
  const client = useQueryClient();
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  // The page's one purpose: the login field has the focus.
  useEffect(() => first.current?.focus(), []);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      await logIn(login, password);
      // Everything is read again as the new session sees it (another account may have logged in).
      await client.resetQueries();
      sessionRestored();
      dismissNotice();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="login" id="main">
      <form className="card" onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">Log in to Trackline</h1>
        {notice && (
          <p className="banner" role="status">
            {notice.text}
          </p>
        )}
        {ended && (
          <p className="banner" role="status">
            Your session has ended. Log in again to go on where you were.
          </p>
        )}
        <label className="field">
          <span>Login</span>
          <input
            ref={first}
            name="login"
            autoComplete="username"
            value={login}
            onChange={(e) => setLogin(e.target.value)}
            required
          />
        </label>
        <label className="field">
          <span>Password</span>
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
        </label>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
        <p className="muted small">
          The first administrator is <code>root</code>; its password is printed when the server starts on a
          new database (or set with <code>ADMIN_PASSWORD</code>). <a href="/rest/docs">API docs</a>
        </p>
      </form>
    </main>
  );
}
