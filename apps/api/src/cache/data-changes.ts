/**
 * One feed of "data may have changed" events for the in-memory caches (command vocabularies,
 * REST responses). Local events come from this process (mutations, stored webhook deliveries,
 * worker units) and are also published to other processes when a publisher is attached
 * (PostgreSQL NOTIFY, see `cross-process.ts`); remote events only invalidate.
 */
export type ChangeOrigin = 'local' | 'remote';
type Listener = (origin: ChangeOrigin) => void;

const listeners = new Set<Listener>();

export function onDataChanged(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function dataChanged(origin: ChangeOrigin = 'local'): void {
  for (const listener of listeners) listener(origin);
}
