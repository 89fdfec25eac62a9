import type { IncomingMessage } from 'node:http';
import { DomainError } from '@trackline/domain';
import busboy from 'busboy';
import { type InputLimits, tooManyParameters } from './request-body.js';

/** Parts a multipart body may hold beyond its fields (files, which are not inputs here). */
const MAX_FILES = 20;
const MAX_FIELD_NAME = 200;

const tooLarge = (limit: number) =>
  new DomainError('PAYLOAD_TOO_LARGE', `Request body exceeds ${limit} bytes.`);

/**
 * The text fields of a `multipart/form-data` body, streamed (busboy) and never buffered whole:
 * at most `maxParameters` fields counting `alreadySeen` query parameters (400 beyond), `maxBytes`
 * in all (413), names of at most 200 characters. File parts are not inputs of any route here:
 * they are read past and dropped (at most 20). Call only after the caller is authenticated.
 */
export function readMultipartFields(
  req: IncomingMessage,
  limits: InputLimits,
  maxBytes: number,
  alreadySeen: number,
): Promise<[string, string][]> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) return Promise.reject(tooLarge(maxBytes));
  const maxFields = Math.max(0, limits.maxParameters - alreadySeen);
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: {
        fieldNameSize: MAX_FIELD_NAME,
        fieldSize: maxBytes,
        fields: maxFields,
        files: MAX_FILES,
        fileSize: maxBytes,
        parts: maxFields + MAX_FILES,
        headerPairs: 100,
      },
    });
  } catch (error) {
    return Promise.reject(
      DomainError.invalid('body', `is not a readable multipart body (${(error as Error).message})`),
    );
  }
  return new Promise((resolve, reject) => {
    const entries: [string, string][] = [];
    let received = 0;
    let settled = false;
    const fail = (error: DomainError) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      parser.removeAllListeners();
      // The rest of the body is not read: the answer closes the connection (see writeRestError).
      reject(error);
    };
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) fail(tooLarge(maxBytes));
    });
    parser.on('field', (name, value, info) => {
      if (info.nameTruncated)
        return fail(DomainError.invalid('body', `a field name exceeds ${MAX_FIELD_NAME} characters`));
      if (info.valueTruncated) return fail(tooLarge(maxBytes));
      entries.push([name, value]);
    });
    parser.on('file', (_name, stream) => {
      stream.on('limit', () => fail(tooLarge(maxBytes)));
      stream.resume();
    });
    parser.on('fieldsLimit', () => fail(tooManyParameters(limits.maxParameters)));
    parser.on('partsLimit', () => fail(tooManyParameters(limits.maxParameters)));
    parser.on('filesLimit', () => fail(DomainError.invalid('body', `holds more than ${MAX_FILES} files`)));
    parser.on('error', (error: Error) =>
      fail(DomainError.invalid('body', `is not a readable multipart body (${error.message})`)),
    );
    parser.on('close', () => {
      if (settled) return;
      settled = true;
      resolve(entries);
    });
    req.pipe(parser);
  });
}
