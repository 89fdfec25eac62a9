import { useSyncExternalStore } from 'react';

/**
 * What the page knows of its server: whether the session ended (a call answered 401: the login
 * form shows, the URL stays) and whether the server is out of reach (a call failed in the network:
 * the page says so, offers Retry, and asks `/health` until the server answers again).
 */
type State = { sessionEnded: boolean; unreachable: boolean };
let state: State = { sessionEnded: false, unreachable: false };
/** Whether the page holds a session (a 401 before one, or after logging out, ends nothing). */
let active = false;
const listeners = new Set<() => void>();

function set(next: Partial<State>) {
  const merged = { ...state, ...next };
  if (merged.sessionEnded === state.sessionEnded && merged.unreachable === state.unreachable) return;
  state = merged;
  for (const listener of listeners) listener();
}

export const sessionStarted = () => {
  active = true;
  set({ sessionEnded: false });
};
export const sessionClosed = () => {
  active = false;
  set({ sessionEnded: false });
};
const sessionEnded = () => {
  if (active) set({ sessionEnded: true });
};
/** After logging in again: the page shows what it showed, as the new session sees it. */
export const sessionRestored = () => set({ sessionEnded: false });
export const serverUnreachable = () => set({ unreachable: true });
export const serverReachable = () => set({ unreachable: false });

export function useConnection(): State {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );
}

/** Statuses a proxy answers for a server that is down or restarting: out of reach, as a refused connection. */
const GATEWAY = new Set([502, 503, 504]);

/**
 * `fetch` as the page's client calls it: a 401 ends the session; a network failure or a gateway's
 * 502/503/504 marks the server out of reach; any other answer marks it back.
 */
export const watchedFetch: typeof fetch = async (input, init) => {
  let response: Response;
  try {
    response = await fetch(input, init);
  } catch (error) {
    // An aborted call (a newer keystroke's completion) says nothing about the server.
    if (!(error instanceof DOMException && error.name === 'AbortError')) serverUnreachable();
    throw error;
  }
  if (GATEWAY.has(response.status)) serverUnreachable();
  else serverReachable();
  if (response.status === 401) sessionEnded();
  return response;
};

/** Whether a failed call failed in the network (no answer), not with an answer of the server. */
export const isNetworkError = (error: unknown): boolean =>
  error instanceof Error && /Failed to fetch|NetworkError|Load failed|fetch failed/i.test(error.message);
