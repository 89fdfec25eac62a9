import { lookup } from 'node:dns/promises';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import type { WebhookRequest, WebhookTransport } from '@trackline/domain';

/**
 * Addresses a webhook may not reach unless TRACKLINE_WEBHOOK_ALLOW_PRIVATE=on: loopback, private,
 * shared (CGNAT), link-local (cloud metadata at 169.254.169.254), documentation, benchmarking,
 * multicast, reserved and unspecified ranges, in IPv4 and IPv6.
 */
const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** Whether an address is outside the public internet (an IPv4-mapped IPv6 address counts as its IPv4 one). */
export function isNonPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return NOT_PUBLIC.check(mapped[1] as string, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class RefusedAddress extends Error {}

/**
 * The address to connect to: the URL's host resolved once, every answer checked; the request
 * then connects to exactly that address (no second lookup a DNS rebinding could change).
 */
async function checkedAddress(
  host: string,
  allowPrivate: boolean,
): Promise<{ address: string; family: number }> {
  const bare = host.replace(/^\[|\]$/g, '');
  const answers = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare, { all: true });
  if (answers.length === 0) throw new RefusedAddress(`${host} has no address`);
  if (!allowPrivate) {
    const refused = answers.find((a) => isNonPublicAddress(a.address));
    if (refused)
      throw new RefusedAddress(
        `refused: ${host} resolves to ${refused.address}, not a public address (TRACKLINE_WEBHOOK_ALLOW_PRIVATE)`,
      );
  }
  return answers[0] as { address: string; family: number };
}

/**
 * Outgoing webhook requests, made safe: only public addresses (unless allowed), one timeout for
 * the whole exchange, redirects never followed (a 3xx is a failed attempt), the answer's body
 * read no further than 64 KiB and dropped.
 */
export function createWebhookPoster(options: {
  allowPrivate: boolean;
  timeoutMs: number;
  baseUrl: string;
}): WebhookTransport {
  return {
    baseUrl: options.baseUrl,
    async post(req: WebhookRequest) {
      const url = new URL(req.url);
      const target = await checkedAddress(url.hostname, options.allowPrivate);
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const body = Buffer.from(req.body, 'utf8');
      const requestOptions: RequestOptions = {
        method: 'POST',
        host: url.hostname,
        port: url.port || (url.protocol === 'https:' ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        headers: { ...req.headers, 'Content-Length': String(body.length) },
        // Connect to the checked address, whatever a second lookup would say.
        lookup: (_host, _opts, callback) =>
          (callback as (e: null, a: string, f: number) => void)(null, target.address, target.family),
        signal: AbortSignal.timeout(options.timeoutMs),
        ...(url.protocol === 'https:' ? { servername: url.hostname } : {}),
      };
      return new Promise<{ status: number }>((resolve, reject) => {
        const request = send(requestOptions, (res) => {
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > 65_536) res.destroy();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
          res.on('close', () => resolve({ status: res.statusCode ?? 0 }));
          res.on('error', reject);
        });
        request.on('error', (error) =>
          reject(error.name === 'AbortError' ? new Error(`timed out after ${options.timeoutMs} ms`) : error),
        );
        request.end(body);
      });
    },
  };
}
