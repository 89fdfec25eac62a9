import { request } from 'node:http';

/** One file part, as a client writes it: `disposition` is the part's Content-Disposition parameters. */
export const BOUNDARY = 'issue20boundary';
export const partHead = (disposition: string, type = 'text/plain') =>
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; ${disposition}\r\nContent-Type: ${type}\r\n\r\n`,
    'utf8',
  );
export const closing = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

/** A multipart body of file parts, each `[disposition, content]`. */
export function multipartBody(...parts: [disposition: string, content: string][]): Buffer {
  const chunks = parts.flatMap(([disposition, content], i) => [
    ...(i > 0 ? [Buffer.from('\r\n')] : []),
    partHead(disposition),
    Buffer.from(content),
  ]);
  return Buffer.concat([...chunks, closing]);
}

/**
 * A POST whose body the test writes piece by piece: `write` sends a chunk now, `end` the last one
 * and resolves with the answer.
 */
export function streamingPost(url: string, headers: Record<string, string>, length: number) {
  const target = new URL(url);
  let answer!: Promise<{ status: number; text: string }>;
  const req = request({
    host: target.hostname,
    port: target.port,
    method: 'POST',
    path: target.pathname,
    headers: {
      ...headers,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'content-length': String(length),
    },
  });
  answer = new Promise((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
  });
  return {
    write: (chunk: Buffer) => new Promise<void>((resolve) => req.write(chunk, () => resolve())),
    end: (chunk: Buffer) => {
      req.end(chunk);
      return answer;
    },
    answer: () => answer,
  };
}
