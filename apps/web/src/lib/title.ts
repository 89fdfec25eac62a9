import { useEffect } from 'react';

/**
 * The tab's title: what the page shows, then "Trackline" ("DEMO-5 Crash on save — Trackline").
 * An empty text leaves the title to a component inside (a not-found page inside the admin screens).
 */
export function useTitle(text: string): void {
  useEffect(() => {
    if (text) document.title = `${text} — Trackline`;
  }, [text]);
}
