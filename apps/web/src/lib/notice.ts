import { useSyncExternalStore } from 'react';

/**
 * One notice for the whole page ("Deleted DEMO-7."), shown under the top bar until dismissed or
 * replaced: it outlives a navigation (a deleted issue's page goes back to the list and says so).
 */
let current: { id: number; text: string } | null = null;
let sequence = 0;
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

export function showNotice(text: string): void {
  current = { id: ++sequence, text };
  notify();
}

export function dismissNotice(): void {
  current = null;
  notify();
}

export function useNotice(): { id: number; text: string } | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
}
