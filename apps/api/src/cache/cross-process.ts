import pg from 'pg';
import { dataChanged, onDataChanged } from './data-changes.js';

const CHANNEL = 'trackline_changes';

/**
 * Several API processes on one PostgreSQL: each publishes its local changes with NOTIFY and
 * invalidates its caches when another process's change arrives. A dedicated connection is
 * needed because LISTEN belongs to a session (pool connections come and go). Staleness in
 * another process is bounded by the notification's delivery (milliseconds), and by the
 * caches' TTL should the connection drop. Returns a function that closes the connection.
 */
export async function linkProcesses(
  databaseUrl: string,
  logError: (e: unknown) => void,
): Promise<() => Promise<void>> {
  const me = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`listen ${CHANNEL}`);
  client.on('notification', (message) => {
    if (message.channel === CHANNEL && message.payload !== me) dataChanged('remote');
  });
  client.on('error', logError);
  const unsubscribe = onDataChanged((origin) => {
    if (origin !== 'local') return;
    client.query('select pg_notify($1, $2)', [CHANNEL, me]).catch(logError);
  });
  return async () => {
    unsubscribe();
    await client.end();
  };
}
