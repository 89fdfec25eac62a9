import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MultipartReader } from './multipart-reader.js';

/*
 * The reader over every split of a body into chunks: a delimiter, a CR LF or a header block cut
 * across chunks must read the same parts as the body in one piece (the socket tests send it
 * whole). Bodies: urllib2_file's (trailing semicolon, per-part Content-Length), a two-part form
 * with CRLF, the same with bare LF.
 */

type Read = { name: string; filename?: string; contentType: string; bytes: string };

async function readAll(chunks: Buffer[], boundary: string): Promise<Read[]> {
  const reader = new MultipartReader(Readable.from(chunks), `multipart/form-data; boundary=${boundary}`, {
    maxHeaderBytes: 1024,
    maxParts: 10,
    maxBytes: 1_000_000,
  });
  const parts: Read[] = [];
  for (let part = await reader.next(); part; part = await reader.next()) {
    const bytes: Buffer[] = [];
    for await (const chunk of part.body) bytes.push(chunk);
    parts.push({
      name: part.name,
      ...(part.filename !== undefined ? { filename: part.filename } : {}),
      contentType: part.contentType,
      bytes: Buffer.concat(bytes).toString('utf8'),
    });
  }
  return parts;
}

/** Every way of cutting `body` in two, and in pieces of each size from 1 to 7 bytes. */
function splits(body: Buffer): Buffer[][] {
  const out: Buffer[][] = [[body]];
  for (let at = 1; at < body.length; at++) out.push([body.subarray(0, at), body.subarray(at)]);
  for (let size = 1; size <= 7; size++) {
    const pieces: Buffer[] = [];
    for (let i = 0; i < body.length; i += size) pieces.push(body.subarray(i, i + size));
    out.push(pieces);
  }
  return out;
}

const B = '127.0.0.1.0.2608.1795890348.231.1';
const cases: [string, string, Read[]][] = [
  [
    'urllib2_file',
    `--${B}\r\nContent-Disposition: form-data; name="a.txt"; filename="a.txt";\r\nContent-Type: text/plain\r\nContent-Length: 9\r\n\r\nline\r\n--x\r\n--${B}--\r\n\r\n`,
    [{ name: 'a.txt', filename: 'a.txt', contentType: 'text/plain', bytes: 'line\r\n--x' }],
  ],
  [
    'two parts, CRLF',
    `pre\r\n--${B}\r\nContent-Disposition: form-data; name="group"\r\n\r\nTeam\r\n--${B}\r\nContent-Disposition: form-data; name=f; filename=b.bin\r\n\r\n\r\n\r\n--${B}--`,
    [
      { name: 'group', contentType: 'text/plain', bytes: 'Team' },
      { name: 'f', filename: 'b.bin', contentType: 'application/octet-stream', bytes: '\r\n' },
    ],
  ],
  [
    'two parts, bare LF',
    `--${B}\nContent-Disposition: form-data; name="c"\n\nx\ny\n--${B}\nContent-Disposition: form-data; name="d"; filename="d.txt"\n\n\n--${B}--\n`,
    [
      { name: 'c', contentType: 'text/plain', bytes: 'x\ny' },
      { name: 'd', filename: 'd.txt', contentType: 'application/octet-stream', bytes: '' },
    ],
  ],
];

describe('MultipartReader across chunk boundaries', () => {
  it.each(cases)('%s: the same parts however the body is cut', async (_what, body, expected) => {
    for (const chunks of splits(Buffer.from(body, 'latin1')))
      expect(await readAll(chunks, B), chunks.map((c) => c.length).join(',')).toEqual(expected);
  });

  it('an empty body has no parts; a cut-short one is refused wherever it is cut', async () => {
    expect(await readAll([], B)).toEqual([]);
    const body = Buffer.from(
      `--${B}\r\nContent-Disposition: form-data; name="f"; filename="f"\r\n\r\nabc\r\n--${B}--`,
    );
    for (let end = 1; end < body.length - 1; end++)
      await expect(readAll([body.subarray(0, end)], B), String(end)).rejects.toThrow(/body/);
  });
});
