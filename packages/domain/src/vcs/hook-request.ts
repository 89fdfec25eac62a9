import type { VcsHost } from '@trackline/contracts';
import { DomainError } from '../errors.js';

/** A request header by lower-case name; undefined when absent. */
export type HeaderReader = (name: string) => string | undefined;

/** A hook call as the HTTP layer hands it over: nothing parsed yet. */
export type HookRequest = {
  host: VcsHost;
  header: HeaderReader;
  contentType: string | undefined;
  /** The exact bytes received: signatures are computed over them. */
  body: Buffer;
  /** The `payload` query parameter, when present. */
  queryPayload: string | null;
};

/** The payload text and the bytes its signature covers. */
export type ExtractedPayload = { text: string; signed: Buffer };

const mediaType = (contentType: string | undefined) =>
  (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/**
 * Finds the payload: a form field `payload` (GitHub's form content type, the Bitbucket POST
 * service), a raw JSON body, or (with an empty body) the `payload` query parameter. The body
 * wins over the query. A query payload is signed as its own UTF-8 bytes: an empty body's
 * signature would otherwise be a constant that authorises any query payload.
 */
export function extractPayload(
  request: Pick<HookRequest, 'contentType' | 'body' | 'queryPayload'>,
): ExtractedPayload {
  const { body, queryPayload } = request;
  const text = body.toString('utf8');
  if (text.trim().length === 0) {
    if (queryPayload === null || queryPayload.trim() === '') {
      throw DomainError.invalid('payload', 'is required (a JSON body, a form field or a query parameter)');
    }
    return { text: queryPayload, signed: Buffer.from(queryPayload, 'utf8') };
  }
  const type = mediaType(request.contentType);
  const looksLikeForm = type === '' && /^\s*payload=/.test(text);
  if (type === 'application/x-www-form-urlencoded' || looksLikeForm) {
    const payload = new URLSearchParams(text).get('payload');
    if (payload === null || payload.trim() === '') {
      throw DomainError.invalid('payload', 'the form body has no payload field');
    }
    return { text: payload, signed: body };
  }
  if (type === '' || type === 'application/json' || type.endsWith('+json') || type === 'text/plain') {
    return { text, signed: body };
  }
  throw new DomainError('UNSUPPORTED_MEDIA_TYPE', `Unsupported content type ${type}.`);
}

/** The payload as a JSON object, or a 400 saying why not. */
export function parsePayloadJson(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw DomainError.invalid('payload', 'is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw DomainError.invalid('payload', 'must be a JSON object');
  }
  return value as Record<string, unknown>;
}
