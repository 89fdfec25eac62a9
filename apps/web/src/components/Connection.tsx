import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { serverReachable, useConnection } from '../lib/connection';
import { useTitle } from '../lib/title';

/** How often `/health` is asked while the server is out of reach. */
const POLL_MS = 2_000;

/**
 * While the server is out of reach: asks `/health` every two seconds (and on Retry now); once it
 * answers, every query on the screen is fetched again, so the page recovers by itself.
 */
function useRecovery(): { retry(): void; checking: boolean } {
  const { unreachable } = useConnection();
  const client = useQueryClient();
  const [checking, setChecking] = useState(false);
  const retry = useCallback(() => {
    setChecking(true);
    fetch('/health', { cache: 'no-store' })
      .then(
        () => {
          serverReachable();
          void client.invalidateQueries();
        },
        () => undefined,
      )
      .finally(() => setChecking(false));
  }, [client]);
  useEffect(() => {
    if (!unreachable) return;
    const timer = setInterval(retry, POLL_MS);
    return () => clearInterval(timer);
  }, [unreachable, retry]);
  return { retry, checking };
}

/** Under the top bar while the server is out of reach: says so, and offers Retry now. */
export function UnreachableBanner() {
  const { unreachable } = useConnection();
  const { retry, checking } = useRecovery();
  if (!unreachable) return null;
  return (
    <div className="banner banner-warning" role="alert">
      Cannot reach the server. The page tries again every few seconds and shows what changed once it answers.{' '}
      <button type="button" onClick={retry} disabled={checking}>
        Retry now
      </button>
    </div>
  );
}

/** The first screen when the server could not be reached at all (no page to show yet). */
export function ServerDown() {
  useTitle('Cannot reach the server');
  const { retry, checking } = useRecovery();
  return (
    <main className="centered" id="main">
      <h1>Trackline</h1>
      <div className="banner banner-warning" role="alert">
        Cannot reach the server. The page tries again every few seconds.{' '}
        <button type="button" onClick={retry} disabled={checking}>
          Retry now
        </button>
      </div>
    </main>
  );
}
