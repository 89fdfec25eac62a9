import { connect } from 'node:net';

/*
 * Requests written byte for byte on a socket, as a client library puts them on the wire: the
 * request line (HTTP/1.0 for urllib2's `httplib.HTTP`), the headers in the client's order and
 * spelling, and the body as the library's encoder builds it. No helper tidies anything: what is
 * given is what is sent.
 */

export type RawResponse = { status: number; headers: Record<string, string>; body: string };

/** `head` is the request line and headers (CRLF-separated, no final blank line); `body` follows. */
export function requestBytes(head: string[], body: Buffer | string = ''): Buffer {
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.from(body)]);
}

/** Sends `bytes` to `baseUrl`'s host and reads one response (by its Content-Length, or to the close). */
export function sendRaw(baseUrl: string, bytes: Buffer): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let received = Buffer.alloc(0);
    let done = false;
    const finish = () => {
      const parsed = parse(received);
      if (!parsed || done) return false;
      done = true;
      socket.destroy();
      resolve(parsed);
      return true;
    };
    // Written, not ended: a half-closed socket makes node abort the request before it answers.
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      finish();
    });
    socket.on('end', () => {
      if (!finish() && !done) reject(new Error(`incomplete response: ${received.toString('latin1')}`));
    });
    socket.on('error', (error) => {
      if (!done) reject(error);
    });
  });
}

function parse(data: Buffer): RawResponse | null {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine = '', ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? Number.NaN);
  const body = data.subarray(end + 4);
  if (Number.isFinite(length) && body.length < length) return null;
  if (!Number.isFinite(length)) return null;
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: body.subarray(0, length).toString('utf8'),
  };
}
