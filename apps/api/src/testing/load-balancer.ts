import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** A load balancer's address, and how to stop it. */
export type Balancer = { url: string; close(): Promise<void> };

/**
 * A load balancer on 127.0.0.1 (port 0) sending request i to host i mod n, request and answer
 * passed through as they are (raw header names and order; the client's Host header, so absolute
 * URLs in answers name the balancer, as behind a real one).
 */
export async function startBalancer(targets: string[]): Promise<Balancer> {
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
  // As the hosts' (test-server.ts): longer than a test's pauses, so pooled connections are not reset.
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
