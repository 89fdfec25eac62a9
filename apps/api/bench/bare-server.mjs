// The baseline: a bare node:http server answering each recorded route with the exact bytes
// Trackline answered, from memory. Routes come as JSON on argv[2] (keyed by the benchmark row,
// sent as `x-bench-row`, or by URL); prints its port.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const routes = new Map(
  Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8'))).map(([url, r]) => [
    url,
    { status: r.status, headers: r.headers, body: Buffer.from(r.body, 'base64') },
  ]),
);
const server = createServer((req, res) => {
  const route = routes.get(req.headers['x-bench-row']) ?? routes.get(req.url);
  if (!route) {
    res.statusCode = 404;
    return res.end();
  }
  // Drain any request body so keep-alive connections stay usable.
  req.resume();
  req.on('end', () => {
    res.writeHead(route.status, { ...route.headers, 'content-length': route.body.length });
    res.end(route.body);
  });
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
