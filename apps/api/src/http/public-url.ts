import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';

const LABEL = '[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?';
/** `name[.name...][:port]` or `[ipv6][:port]`: a Host header worth echoing. */
const HOST = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*\\.?|\\[([0-9A-Fa-f:.]{2,45})\\])(?::(\\d{1,5}))?$`);

/** Whether `host` is a well-formed `host[:port]` (DNS name, IPv4 or bracketed IPv6; port 1-65535). */
export function isValidHostHeader(host: string): boolean {
  if (host.length > 260) return false;
  const match = HOST.exec(host);
  if (!match) return false;
  if (match[1] !== undefined && !isIPv6(match[1])) return false;
  return match[2] === undefined || (Number(match[2]) >= 1 && Number(match[2]) <= 65535);
}

/** `http://address:port` of the socket the request arrived on. */
function listeningAddress(req: IncomingMessage): string {
  const address = req.socket.localAddress ?? '127.0.0.1';
  const host = isIPv6(address) ? `[${address}]` : address;
  return req.socket.localPort ? `http://${host}:${req.socket.localPort}` : `http://${host}`;
}

/**
 * The base of the absolute URLs the API writes (legacy `url` attributes, `Location`, the OpenAPI
 * server): `publicUrl` when configured (`PUBLIC_URL`); otherwise `http://` and the request's Host
 * header, when it is a well-formed `host[:port]`, else the address the server listens on. A
 * malformed Host is never echoed.
 */
export function createBaseUrl(publicUrl?: string): (req: IncomingMessage) => string {
  if (publicUrl) return () => publicUrl;
  // Clients send the same Host on every call: the last valid one is remembered.
  let lastHost = '';
  return (req) => {
    const host = req.headers.host;
    if (host && host === lastHost) return `http://${host}`;
    if (!host || !isValidHostHeader(host)) return listeningAddress(req);
    lastHost = host;
    return `http://${host}`;
  };
}

/** A configured public URL without its trailing slash; refuses anything but an http(s) base. */
export function normalizePublicUrl(value: string): string {
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error('must be an http:// or https:// URL');
  if (url.search || url.hash || url.username || url.password)
    throw new Error('must not carry credentials, a query or a fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
