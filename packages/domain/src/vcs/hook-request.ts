import { formFieldOf, mediaKindOf, mediaTypeOf, parseJsonObject, type VcsHost } from '@trackline/contracts';
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
  const type = mediaTypeOf(request.contentType);
  const kind = mediaKindOf(type);
  const looksLikeForm = kind === 'none' && /^\s*payload=/.test(text);
  if (kind === 'form' || looksLikeForm) {
    const payload = formFieldOf(text, 'payload');
    if (payload === null || payload.trim() === '') {
      throw DomainError.invalid('payload', 'the form body has no payload field');
    }
    return { text: payload, signed: body };
  }
  if (kind === 'none' || kind === 'json' || kind === 'text') {
    return { text, signed: body };
  }
  throw new DomainError('UNSUPPORTED_MEDIA_TYPE', `Unsupported content type ${type}.`);
}

/** The payload as a JSON object, or a 400 saying why not. */
export function parsePayloadJson(text: string): Record<string, unknown> {
  const parsed = parseJsonObject(text);
  if ('problem' in parsed) throw DomainError.invalid('payload', parsed.problem);
  return parsed.value;
}
