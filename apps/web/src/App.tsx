import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Me } from '@trackline/client';
import { type MouseEvent, useEffect, useState } from 'react';
import { isUnauthenticated, trackline } from './api';
import { ServerDown, UnreachableBanner } from './components/Connection';
import { InboxBell } from './components/InboxBell';
import { NotFound } from './components/NotFound';
import { ShortcutsHelp } from './components/ShortcutsHelp';
import { sessionClosed, sessionStarted, useConnection } from './lib/connection';
import { isPageKey, isTyping } from './lib/keys';
import { dismissNotice, useNotice } from './lib/notice';
import { keys } from './lib/queries';
import { Link, match, navigate, useLocation } from './lib/router';
import { AdminPage } from './pages/admin/AdminPage';
import { isAdmin } from './pages/admin/sections';
import { IssuePage } from './pages/IssuePage';
import { IssuesPage } from './pages/IssuesPage';
import { LoginPage } from './pages/LoginPage';
import { InboxPage } from './pages/notifications/InboxPage';
import { NotificationSettingsPage } from './pages/notifications/NotificationSettingsPage';
import { ProfilePage } from './pages/ProfilePage';

export { isAdmin };

export function App() {
  const me = useQuery({ queryKey: keys.me, queryFn: () => trackline.userProfiles.me.query({}) });
  const connection = useConnection();
  useEffect(() => {
    if (me.data) sessionStarted();
  }, [me.data]);
  // A session that ended while the page was open: the login form, at the same URL.
  if (connection.sessionEnded) return <LoginPage ended />;
  if (me.isPending) return <p className="loading">Loading…</p>;
  if (me.error) {
    if (isUnauthenticated(me.error)) return <LoginPage />;
    return <ServerDown />;
  }
  return <Shell me={me.data} />;
}

function Shell({ me }: { me: Me }) {
  const { path } = useLocation();
  const client = useQueryClient();
  const [help, setHelp] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (
        event.key === '?' &&
        !isTyping(event.target) &&
        isPageKey(event) &&
        !event.ctrlKey &&
        !event.metaKey
      ) {
        event.preventDefault();
        setHelp(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const logOut = async () => {
    // What answers 401 from here on is the logging out, not an ended session.
    sessionClosed();
    try {
      await trackline.users.logout.mutate({});
    } finally {
      navigate('/', { replace: true });
      // Nothing of the session stays in memory; `me` is asked again and answers 401: the login form.
      client.removeQueries({ predicate: (q) => q.queryKey[0] !== keys.me[0] });
      await client.resetQueries({ queryKey: keys.me });
    }
  };
  const issue = match('/issue/:issue', path);
  const admin = path === '/admin' || path.startsWith('/admin/');
  const inbox = path === '/inbox';
  const settings = path === '/settings/notifications';
  const list = path === '/' || path === '';
  const profile = path === '/profile';
  return (
    <>
      {/* biome-ignore lint/a11y/useValidAnchor: a skip link is an in-page link; its click moves the focus without a fragment in the URL */}
      <a href="#main" className="skip-link" onClick={skipTo('main')}>
        Skip to content
      </a>
      {issue && (
        // biome-ignore lint/a11y/useValidAnchor: a skip link, as above
        <a href="#fields" className="skip-link" onClick={skipTo('fields')}>
          Skip to fields
        </a>
      )}
      <header className="topbar">
        <Link href="/" className="brand">
          Trackline
        </Link>
        <nav aria-label="Main">
          <Link href="/" aria-current={list ? 'page' : undefined}>
            Issues
          </Link>
          {isAdmin(me) && (
            <Link href="/admin" aria-current={admin ? 'page' : undefined}>
              Administration
            </Link>
          )}
          <a href="/rest/docs">API docs</a>
        </nav>
        <div className="user">
          <InboxBell current={inbox} />
          <Link href="/profile" className="profile-link" aria-current={profile ? 'page' : undefined}>
            {me.fullName}
            <span className="visually-hidden">, your profile</span>
          </Link>
          <button type="button" onClick={() => void logOut()}>
            Log out
          </button>
        </div>
      </header>
      <UnreachableBanner />
      <main id="main" tabIndex={-1}>
        <Notice />
        {issue ? (
          <IssuePage id={issue.issue as string} me={me} />
        ) : inbox ? (
          <InboxPage />
        ) : settings ? (
          <NotificationSettingsPage />
        ) : admin ? (
          <AdminPage me={me} path={path} />
        ) : list ? (
          <IssuesPage me={me} />
        ) : profile ? (
          <ProfilePage me={me} />
        ) : (
          <NotFound />
        )}
      </main>
      {help && <ShortcutsHelp onClose={() => setHelp(false)} />}
    </>
  );
}

/** A skip link's click: the focus moves to the landmark (no fragment in the URL, no history entry). */
const skipTo = (id: string) => (event: MouseEvent) => {
  const target = document.getElementById(id);
  if (!target) return;
  event.preventDefault();
  target.focus();
  target.scrollIntoView({ block: 'start' });
};

/** The page's notice ("Deleted DEMO-7."), until dismissed or replaced. */
function Notice() {
  const notice = useNotice();
  return (
    <div role="status" className={notice ? 'banner notice' : 'visually-hidden'}>
      {notice && (
        <>
          {notice.text}{' '}
          <button type="button" className="link-button" onClick={dismissNotice}>
            Dismiss
          </button>
        </>
      )}
    </div>
  );
}
