import type { ServerResponse } from 'node:http';
import type { Orm } from '@trackline/domain';

/** How long the database may take to answer `select 1` before the server reports itself unhealthy. */
const DATABASE_TIMEOUT_MS = 2000;

/**
 * `GET /health` (no credentials): 200 `{"status":"ok","database":"ok"}` when the database answers
 * a trivial statement, else 503 with `"database":"unreachable"` (no detail: the answer is public).
 * For load balancers and uptime checks; never cached.
 */
export async function serveHealth(
  orm: Orm,
  method: string,
  res: ServerResponse,
  logError: (e: unknown) => void,
) {
  let reachable = true;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      orm.em.fork().getConnection().execute('select 1'),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error('database did not answer within 2 s')),
          DATABASE_TIMEOUT_MS,
        );
      }),
    ]);
  } catch (error) {
    reachable = false;
    logError(error);
  } finally {
    clearTimeout(timer);
  }
  const body = JSON.stringify(
    reachable ? { status: 'ok', database: 'ok' } : { status: 'unavailable', database: 'unreachable' },
  );
  res.statusCode = reachable ? 200 : 503;
  res.setHeader('Content-Type', 'application/json;charset=UTF-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(method === 'HEAD' ? undefined : body);
}
