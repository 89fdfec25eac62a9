import type { IncomingMessage } from 'node:http';
import { DomainError } from '@trackline/domain';
import { XMLParser } from 'fast-xml-parser';

export const REST_BODY_LIMIT = 1024 * 1024;

/** Reads the raw body, refusing more than `limit` bytes with 413 before buffering it all. */
export async function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new DomainError('PAYLOAD_TOO_LARGE', `Request body exceeds ${limit} bytes.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new DomainError('PAYLOAD_TOO_LARGE', `Request body exceeds ${limit} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

type Fields = Record<string, unknown>;

/** Collects repeated names into arrays, single ones into strings. */
export function fromSearchParams(params: URLSearchParams): Fields {
  const fields: Fields = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    fields[key] = all.length === 1 ? all[0] : all;
  }
  return fields;
}

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  processEntities: true,
});

/** `<project id="X" name="Y"><description>d</description></project>` → its attributes and text children. */
function parseXmlBody(text: string): Fields {
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw DomainError.invalid('body', 'XML with a DOCTYPE is not accepted');
  let doc: Fields;
  try {
    doc = xmlParser.parse(text, true) as Fields;
  } catch (error) {
    throw DomainError.invalid('body', `is not well-formed XML (${(error as Error).message.split('\n')[0]})`);
  }
  const root = Object.values(doc)[0];
  if (root === undefined || root === '' || typeof root !== 'object' || root === null) return {};
  const fields: Fields = {};
  for (const [key, value] of Object.entries(root as Fields)) {
    if (typeof value === 'string') fields[key] = value;
    else if (value && typeof value === 'object' && '#text' in value) fields[key] = (value as Fields)['#text'];
  }
  return fields;
}

/** Parses a body by its declared type; an absent or empty body is `{}`. */
export function parseBody(raw: Buffer, contentType: string | undefined): Fields {
  const text = raw.toString('utf8').trim();
  if (!text) return {};
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/json' || type.endsWith('+json')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw DomainError.invalid('body', 'is not valid JSON');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw DomainError.invalid('body', 'must be a JSON object');
    }
    return value as Fields;
  }
  if (type === 'application/x-www-form-urlencoded') return fromSearchParams(new URLSearchParams(text));
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return parseXmlBody(text);
  if (type === '' || type === 'text/plain') return {};
  throw new DomainError('UNSUPPORTED_MEDIA_TYPE', `Unsupported content type ${type}.`);
}
