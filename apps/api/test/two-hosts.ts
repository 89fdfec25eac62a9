import { TEST_DIALECT } from '@trackline/domain/testing';

/**
 * The harness's several-hosts mode (`TRACKLINE_TEST_HOSTS=2`, PostgreSQL only): a test's server
 * is that many production servers (`startServer`) on the one test database, each with its own
 * connection pools, caches, limiters, workers and data folder, behind a load balancer
 * (src/testing/load-balancer.ts) that sends each request to the host after the one the previous
 * request went to. Whatever a host keeps for itself that
 * another host's answer depends on (a file, a session, a counter, a cache that missed a change)
 * makes a test fail. `./trackline test` runs the chosen files this way in its PostgreSQL pass
 * (vitest.config.ts, project `two-hosts`).
 */

/**
 * How many hosts a test server is: `TRACKLINE_TEST_HOSTS` (1 by default), read when a server
 * starts (the files of both vitest projects may share a worker's modules).
 */
export function testHosts(): number {
  const hosts = Number(process.env.TRACKLINE_TEST_HOSTS || '1');
  if (!(Number.isInteger(hosts) && hosts >= 1 && hosts <= 8))
    throw new Error('TRACKLINE_TEST_HOSTS must be a count from 1 to 8');
  if (hosts > 1 && TEST_DIALECT !== 'postgresql')
    throw new Error(
      'TRACKLINE_TEST_HOSTS > 1 needs TRACKLINE_TEST_DB=postgres (hosts share a database server)',
    );
  return hosts;
}
