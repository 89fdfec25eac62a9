import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOrm, type Orm } from '@trackline/domain';
import { TEST_DIALECT } from '@trackline/domain/testing';
import { type LimitsStore, openLimitsStore } from '../src/auth/limit-stores.js';
import type { LimitsOptions } from '../src/auth/limits.js';

/**
 * The harness's several-hosts mode (`TRACKLINE_TEST_HOSTS=2`, PostgreSQL only): a test's server
 * is that many servers on the one test database, each with its own connection pool (and whatever
 * else a host keeps: caches, limiters, folders), behind a load balancer that sends each request
 * to the host after the one the previous request went to. Whatever a host keeps for itself that
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

/** One listening server: its address and how to stop it. */
export type Host = { url: string; close(): Promise<void> };

/**
 * Starts `testHosts()` hosts on the database of `orm` (the first on `orm` itself, the others on
 * pools of their own, as other machines would open it) and the load balancer in front of them,
 * whose address the test uses. `startHost` starts one host on an ORM with the test's server
 * options, in which limits without a store get the store a production server on PostgreSQL
 * opens by default (its counters in the database), one per host.
 */
export async function startHosts<Handler extends { limits?: LimitsOptions | undefined }>(
  orm: Orm,
  handler: Handler | undefined,
  startHost: (orm: Orm, handler: Handler | undefined) => Promise<Host>,
): Promise<Host> {
  const url = orm.config.get('clientUrl') as string;
  const others = await Promise.all(
    Array.from({ length: testHosts() - 1 }, () => createOrm({ kind: 'postgresql', url })),
  );
  const limitsStores: LimitsStore[] = [];
  const hosts = await Promise.all(
    [orm, ...others].map(async (hostOrm) => {
      const limits = handler?.limits;
      if (!limits || limits.store) return startHost(hostOrm, handler);
      const store = await openLimitsStore({ kind: 'postgres', url });
      limitsStores.push(store);
      return startHost(hostOrm, { ...handler, limits: { ...limits, store } } as Handler);
    }),
  );
  const balancer = await startBalancer(hosts.map((h) => h.url));
  return {
    url: balancer.url,
    async close() {
      await balancer.close();
      await Promise.all(hosts.map((h) => h.close()));
      await Promise.all(limitsStores.map((s) => s.close()));
      await Promise.all(others.map((o) => o.close(true)));
    },
  };
}

/**
 * A load balancer on 127.0.0.1 (port 0) sending request i to host i mod n, request and answer
 * passed through as they are (raw header names and order; the client's Host header, so absolute
 * URLs in answers name the balancer, as behind a real one).
 */
async function startBalancer(targets: string[]): Promise<Host> {
  let next = 0;
  // Connections to the hosts are kept and reused, as a balancer's are.
  const agent = new Agent({ keepAlive: true });
  const server: Server = createServer((req, res) =>
    forward(req, res, new URL(targets[next++ % targets.length] as string)),
  );
  function forward(req: IncomingMessage, res: ServerResponse, target: URL) {
    let upstream: ReturnType<typeof httpRequest>;
    try {
      upstream = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: req.rawHeaders,
          setHost: false,
          agent,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
          answer.pipe(res);
          answer.on('error', () => res.destroy());
        },
      );
    } catch {
      // A header the host would refuse as well: the client sees the connection end.
      return void req.socket.destroy();
    }
    upstream.on('error', () => {
      if (!res.headersSent) res.destroy();
      // What the client still sends is read and dropped, as a server does with a body it did not read.
      req.unpipe(upstream);
      req.resume();
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    // A host that answered before the whole body arrived (a refusal) may stop reading it: once the
    // answer is out, the rest is dropped here, so the client's connection is free for its next request.
    res.on('finish', () => {
      if (req.readableEnded) return;
      req.unpipe(upstream);
      req.resume();
      upstream.destroy();
    });
    req.pipe(upstream);
  }
  // As the hosts' (harness.ts): longer than a test's pauses, so pooled connections are not reset.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
