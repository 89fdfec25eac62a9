import type { IncomingMessage } from 'node:http';
import { mediaTypeOf } from '@trackline/contracts';
import type { XmlBodyReader } from './import-xml.js';
import { readMultipartFields } from './multipart.js';
import {
  DEFAULT_INPUT_LIMITS,
  fromSearchParams,
  type InputLimits,
  REST_BODY_LIMIT,
  readInput,
  readRawBody,
} from './request-body.js';

/**
 * A request's query parameters and body as one input (the body wins): JSON, form, XML, or
 * `multipart/form-data` (its text fields, read like a form body, streamed). Within `limits`
 * together; a body over `maxBytes` is 413.
 */
export async function readRequestInput(
  req: IncomingMessage,
  query: URLSearchParams,
  limits: InputLimits = DEFAULT_INPUT_LIMITS,
  maxBytes = REST_BODY_LIMIT,
  xmlReader?: XmlBodyReader,
): Promise<Record<string, unknown>> {
  if (mediaTypeOf(req.headers['content-type']) === 'multipart/form-data') {
    const fromQuery = fromSearchParams(query, limits.maxParameters);
    let queryCount = 0;
    for (const _ of query) queryCount++;
    const entries = await readMultipartFields(req, limits, maxBytes, queryCount);
    return { ...fromQuery, ...fromSearchParams(entries, limits.maxParameters, queryCount) };
  }
  return readInput(query, await readRawBody(req, maxBytes), req.headers['content-type'], limits, xmlReader);
}
