import { DomainError } from '@trackline/domain';

/*
 * The headers of `multipart/form-data` (RFC 7578), read as the readers in the wild read them,
 * not as the grammar's strictest reading: what published clients send must be taken, the rest
 * refused with a 400 that names the problem.
 *
 * Taken: a trailing `;` and empty parameters (`name="a";`, the JetBrains library's
 * `urllib2_file` has written `filename="x";` since 2011), quoted and unquoted values, `\"` and
 * `\\` inside quotes (any other backslash is kept: old browsers send Windows paths unescaped),
 * `filename*=` (RFC 5987, UTF-8 or ISO-8859-1) before `filename`, header names in any case,
 * folded header lines, a per-part `Content-Length` (ignored, as RFC 7578 says of other headers).
 * Refused: a part without Content-Disposition, another disposition than form-data, a part
 * without a name, an unterminated quote, a parameter without a value, an unknown `filename*`
 * charset or a bad percent escape, a header line without a colon, base64 or quoted-printable
 * transfer encodings, headers that are not UTF-8.
 */

export const invalidMultipart = (problem: string) => DomainError.invalid('body', problem);

/** RFC 2046 allows 70 characters; some clients write longer ones (bounded all the same). */
const MAX_BOUNDARY = 200;

/**
 * The boundary of a `multipart/form-data` Content-Type (quoted or not), or a 400 naming what is
 * wrong with it.
 */
export function boundaryOf(contentType: string): string {
  const params = parseParameters(contentType, contentType.indexOf(';'), 'the Content-Type');
  const boundary = params.get('boundary');
  if (boundary === undefined) throw invalidMultipart('is multipart/form-data without a boundary parameter');
  if (boundary.length === 0 || boundary.length > MAX_BOUNDARY)
    throw invalidMultipart(
      `has a multipart boundary of ${boundary.length} characters (1 to ${MAX_BOUNDARY})`,
    );
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (/[\u0000-\u001f\u007f]/.test(boundary))
    throw invalidMultipart('has a multipart boundary with control characters');
  return boundary;
}

/** One part's headers as the readers use them. */
export type PartHeaders = {
  /** The field name (`name`). */
  name: string;
  /** Present for a file part (`filename*` or `filename`), the directories cut off. */
  filename?: string;
  /** The part's media type (`text/plain` when absent, as RFC 7578 says). */
  contentType: string;
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Parses a part's header block (the bytes before its empty line, line ends CRLF or LF). */
export function parsePartHeaders(block: Buffer): PartHeaders {
  let text: string;
  try {
    text = utf8.decode(block);
  } catch {
    throw invalidMultipart('has a part whose headers are not UTF-8');
  }
  const headers = new Map<string, string>();
  let last: string | null = null;
  for (const rawLine of text.split('\n')) {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (line === '') continue;
    if ((line.startsWith(' ') || line.startsWith('\t')) && last !== null) {
      // An obsolete folded line continues the header before it.
      headers.set(last, `${headers.get(last) ?? ''} ${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) throw invalidMultipart(`has a part header line without a name and colon (${clip(line)})`);
    last = line.slice(0, colon).trim().toLowerCase();
    // The first of a repeated header counts (a second Content-Disposition is ignored).
    if (!headers.has(last)) headers.set(last, line.slice(colon + 1).trim());
  }
  const disposition = headers.get('content-disposition');
  if (disposition === undefined) throw invalidMultipart('has a part without a Content-Disposition header');
  const semicolon = disposition.indexOf(';');
  const type = (semicolon < 0 ? disposition : disposition.slice(0, semicolon)).trim().toLowerCase();
  if (type !== 'form-data')
    throw invalidMultipart(`has a part whose Content-Disposition is ${clip(type || 'empty')}, not form-data`);
  const params = parseParameters(disposition, semicolon, 'a part’s Content-Disposition');
  const name = params.get('name*') ?? params.get('name');
  if (name === undefined)
    throw invalidMultipart('has a part whose Content-Disposition names no field (name=)');
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  if (encoding !== undefined && !['7bit', '8bit', 'binary'].includes(encoding))
    throw invalidMultipart(`has a part in Content-Transfer-Encoding ${clip(encoding)}, which is not read`);
  const filename = params.get('filename*') ?? params.get('filename');
  const type0 = headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  return {
    name,
    ...(filename !== undefined ? { filename: baseName(filename) } : {}),
    contentType: type0 || (filename !== undefined ? 'application/octet-stream' : 'text/plain'),
  };
}

/** `C:\dir\a.txt` and `dir/a.txt` are `a.txt` (a client's directories are not part of the name). */
const baseName = (path: string) => path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);

const clip = (text: string) => JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);

/**
 * The `;`-separated parameters of a header value after position `from` (the first `;`, or -1
 * when there is none): names lower-cased, `name*` values decoded (RFC 5987). One pass over the
 * text, linear in its length.
 */
function parseParameters(value: string, from: number, where: string): Map<string, string> {
  const params = new Map<string, string>();
  if (from < 0) return params;
  let i = from;
  const n = value.length;
  const skipSpace = () => {
    while (i < n && (value[i] === ' ' || value[i] === '\t')) i++;
  };
  while (i < n) {
    if (value[i] === ';') {
      i++;
      continue;
    }
    skipSpace();
    if (i >= n) break;
    if (value[i] === ';') continue;
    const nameStart = i;
    while (i < n && value[i] !== '=' && value[i] !== ';') i++;
    const name = value.slice(nameStart, i).trim().toLowerCase();
    if (i >= n || value[i] === ';')
      throw invalidMultipart(`has a parameter without a value in ${where} (${clip(name)})`);
    if (!name) throw invalidMultipart(`has a parameter without a name in ${where}`);
    i++; // '='
    skipSpace();
    let raw: string;
    if (value[i] === '"') {
      i++;
      let text = '';
      let closed = false;
      while (i < n) {
        const c = value[i] as string;
        if (c === '"') {
          closed = true;
          i++;
          break;
        }
        if (c === '\\' && (value[i + 1] === '"' || value[i + 1] === '\\')) {
          text += value[i + 1];
          i += 2;
          continue;
        }
        text += c;
        i++;
      }
      if (!closed) throw invalidMultipart(`has an unterminated quoted value in ${where} (${clip(name)})`);
      raw = text;
      skipSpace();
      if (i < n && value[i] !== ';')
        throw invalidMultipart(`has text after the quoted value of ${clip(name)} in ${where}`);
    } else {
      const start = i;
      while (i < n && value[i] !== ';') i++;
      raw = value.slice(start, i).trim();
    }
    if (params.has(name)) continue;
    params.set(name, name.endsWith('*') ? decodeExtended(raw, name, where) : raw);
  }
  return params;
}

/** RFC 5987 `charset'language'percent-encoded`, in UTF-8 or ISO-8859-1 (US-ASCII is a subset of both). */
function decodeExtended(raw: string, name: string, where: string): string {
  const first = raw.indexOf("'");
  const second = first < 0 ? -1 : raw.indexOf("'", first + 1);
  if (second < 0) throw invalidMultipart(`has ${name} without charset'language' in ${where}`);
  const charset = raw.slice(0, first).toLowerCase();
  const encoded = raw.slice(second + 1);
  const decoder =
    charset === 'utf-8' || charset === 'us-ascii'
      ? utf8
      : charset === 'iso-8859-1' || charset === 'latin1'
        ? new TextDecoder('latin1')
        : null;
  if (!decoder)
    throw invalidMultipart(
      `has ${name} in charset ${clip(charset)} in ${where}; UTF-8 and ISO-8859-1 are read`,
    );
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i++) {
    const c = encoded.charCodeAt(i);
    if (c === 0x25) {
      const hex = encoded.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex))
        throw invalidMultipart(`has a bad percent escape in ${name} in ${where}`);
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else if (c < 0x80) bytes.push(c);
    else
      throw invalidMultipart(
        `has a raw non-ASCII character in ${name} in ${where} (it must be percent-encoded)`,
      );
  }
  try {
    return decoder.decode(Uint8Array.from(bytes));
  } catch {
    throw invalidMultipart(`has ${name} whose bytes are not ${charset.toUpperCase()}`);
  }
}
