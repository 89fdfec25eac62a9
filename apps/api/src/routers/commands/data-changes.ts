/**
 * "Data may have changed" events for the command-vocabulary cache (`vocabulary-cache.ts`), the
 * only in-memory cache of data. They come from this process: mutations, stored webhook
 * deliveries, applied worker units. Other processes are not told: their vocabularies expire
 * by TTL (3 s), and execution never uses a cached vocabulary.
 */
type Listener = () => void;

const listeners = new Set<Listener>();

export function onDataChanged(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function dataChanged(): void {
  for (const listener of listeners) listener();
}
