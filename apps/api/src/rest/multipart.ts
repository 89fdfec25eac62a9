import type { IncomingMessage } from 'node:http';
import { DomainError } from '@trackline/domain';
import { MultipartReader } from './multipart/multipart-reader.js';
import { invalidMultipart } from './multipart/part-headers.js';
import { type InputLimits, tooManyParameters } from './request-body.js';

/** Parts a multipart body may hold beyond its fields (files, which are not inputs here). */
const MAX_FILES = 20;
const MAX_FIELD_NAME = 200;
/** A part's header block: far above any client's (a disposition, a type, a length). */
export const MAX_PART_HEADER_BYTES = 8 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The text fields of a `multipart/form-data` body, streamed (rest/multipart/) and never buffered
 * whole: at most `maxParameters` fields counting `alreadySeen` query parameters (400 beyond),
 * `maxBytes` in all (413), names of at most 200 characters, values in UTF-8. File parts are not
 * inputs of any route here: they are read past and dropped (at most 20). Call only after the
 * caller is authenticated.
 */
export async function readMultipartFields(
  req: IncomingMessage,
  limits: InputLimits,
  maxBytes: number,
  alreadySeen: number,
): Promise<[string, string][]> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes)
    throw new DomainError('PAYLOAD_TOO_LARGE', `Request body exceeds ${maxBytes} bytes.`);
  const maxFields = Math.max(0, limits.maxParameters - alreadySeen);
  const reader = new MultipartReader(req, req.headers['content-type'] ?? '', {
    maxHeaderBytes: MAX_PART_HEADER_BYTES,
    maxParts: maxFields + MAX_FILES,
    maxBytes,
  });
  const entries: [string, string][] = [];
  let files = 0;
  try {
    for (let part = await reader.next(); part; part = await reader.next()) {
      if (part.filename !== undefined) {
        if (++files > MAX_FILES) throw DomainError.invalid('body', `holds more than ${MAX_FILES} files`);
        continue; // its bytes are skipped by the next read
      }
      if (part.name.length > MAX_FIELD_NAME)
        throw DomainError.invalid('body', `a field name exceeds ${MAX_FIELD_NAME} characters`);
      if (entries.length >= maxFields) throw tooManyParameters(limits.maxParameters);
      const chunks: Buffer[] = [];
      for await (const chunk of part.body) chunks.push(chunk);
      let value: string;
      try {
        value = utf8.decode(Buffer.concat(chunks));
      } catch {
        throw invalidMultipart(
          `has field ${JSON.stringify(part.name.slice(0, 60))} whose value is not UTF-8`,
        );
      }
      entries.push([part.name, value]);
    }
  } catch (error) {
    // The rest of the body is not parsed: it flows past unread (a 413 closes the connection).
    reader.abandon();
    throw error;
  }
  return entries;
}
