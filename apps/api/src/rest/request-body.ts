import type { IncomingMessage } from 'node:http';
import {
  countFormEntries,
  groupFormEntries,
  mediaKindOf,
  mediaTypeOf,
  parseJsonObject,
} from '@trackline/contracts';
import { DomainError } from '@trackline/domain';
import { XMLParser } from 'fast-xml-parser';
import type { XmlBodyReader } from './import-xml.js';

export const REST_BODY_LIMIT = 1024 * 1024;

/**
 * Reads the raw body, refusing more than `limit` bytes with 413 before buffering it all. Plain
 * stream events: an async iterator per request cost more than reading a small body.
 */
export function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new DomainError('PAYLOAD_TOO_LARGE', `Request body exceeds ${limit} bytes.`);
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData);
      // The rest is discarded as it arrives (what node does with any body left unread), so
      // the 413 is still answered on this connection.
      req.resume();
      reject(new DomainError('PAYLOAD_TOO_LARGE', `Request body exceeds ${limit} bytes.`));
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}

type Fields = Record<string, unknown>;

/** What one request may carry, checked before any procedure sees its input. */
export type InputLimits = {
  /** Query and body parameters together (form fields, JSON or XML top-level members). */
  maxParameters: number;
  /** Nesting of JSON objects and arrays (the input object itself is level 1). */
  maxDepth: number;
};

/** `TRACKLINE_MAX_PARAMETERS` overrides `maxParameters` (see env.ts). */
export const DEFAULT_INPUT_LIMITS: InputLimits = { maxParameters: 1000, maxDepth: 64 };

export const tooManyParameters = (max: number) =>
  new DomainError(
    'VALIDATION_FAILED',
    `Too many parameters: at most ${max} query and body parameters are accepted.`,
  );

/** Query or form entries as fields (see `groupFormEntries`), refusing more than `maxParameters` with 400. */
export function fromSearchParams(
  params: Iterable<[string, string]>,
  maxParameters = DEFAULT_INPUT_LIMITS.maxParameters,
  alreadySeen = 0,
): Fields {
  const fields = groupFormEntries(params, maxParameters, alreadySeen);
  if (!fields) throw tooManyParameters(maxParameters);
  return fields;
}

/** Shared with the hook receiver; re-exported for this module's callers and tests. */
export { countFormEntries };

/**
 * Whether `value` nests objects or arrays deeper than `maxDepth`. Iterative: untrusted input
 * must not be able to overflow the stack of a recursive walk.
 */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > maxDepth) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

export const tooDeep = (max: number) =>
  DomainError.invalid('body', `nests objects or arrays deeper than ${max} levels`);

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  processEntities: true,
  // Bounded like JSON bodies; deeper documents are refused as not well-formed (400).
  maxNestedTags: DEFAULT_INPUT_LIMITS.maxDepth,
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
    // Nested elements (`<projects><projectRef id/></projects>`) are kept as parsed, for the
    // schemas that read them; elsewhere they fail validation instead of vanishing.
    else if (value && typeof value === 'object') fields[key] = value;
  }
  const children = childElements(text);
  // A list body (a bundle's `<value colorIndex="1">A</value>`...) as one parameter, however many children.
  if (children) fields.xmlChildren = children;
  return fields;
}

/** Parses attributes apart from child elements (`@_` prefix), to tell `<x a="1"/>` from `<x><a>1</a></x>`. */
const childParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  processEntities: true,
  maxNestedTags: DEFAULT_INPUT_LIMITS.maxDepth,
});

/** The root's child elements by tag, each as its attributes and text (`$text`); null when it has none. */
function childElements(text: string): Record<string, Record<string, string>[]> | null {
  const root = Object.values(childParser.parse(text, true) as Fields)[0];
  if (typeof root !== 'object' || root === null) return null;
  const children: Record<string, Record<string, string>[]> = {};
  for (const [key, value] of Object.entries(root as Fields)) {
    if (key.startsWith('@_') || key === '#text') continue;
    children[key] = (Array.isArray(value) ? value : [value]).map(childElement);
  }
  return Object.keys(children).length ? children : null;
}

/** `{ attr: 'x', '#text': 'A' }` or `'A'` → `{ attr: 'x', $text: 'A' }` (attributes and text as strings). */
function childElement(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return { $text: String(value ?? '') };
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value as Fields)) {
    if (k === '#text') out.$text = String(v);
    else if (k.startsWith('@_') && typeof v === 'string') out[k.slice(2)] = v;
  }
  return out;
}

/**
 * Parses a body by its declared type; an absent or empty body is `{}`. `alreadySeen` query
 * parameters count against `limits.maxParameters` with the body's own.
 */
export function parseBody(
  raw: Buffer,
  contentType: string | undefined,
  limits: InputLimits = DEFAULT_INPUT_LIMITS,
  alreadySeen = 0,
  xmlReader?: XmlBodyReader,
): Fields {
  const text = raw.toString('utf8').trim();
  if (!text) return {};
  const type = mediaTypeOf(contentType);
  const kind = mediaKindOf(type);
  let fields: Fields;
  if (xmlReader && (kind === 'xml' || ((kind === 'none' || kind === 'text') && text.startsWith('<')))) {
    // A whole document (the import routes); the parser bounds its nesting itself.
    fields = xmlReader(text);
  } else if (kind === 'json') {
    const parsed = parseJsonObject(text);
    if ('problem' in parsed) throw DomainError.invalid('body', parsed.problem);
    if (nestsDeeperThan(parsed.value, limits.maxDepth)) throw tooDeep(limits.maxDepth);
    fields = parsed.value;
  } else if (kind === 'form') {
    // Counted on the text first: an oversized form is refused without decoding its entries.
    if (alreadySeen + countFormEntries(text, limits.maxParameters + 1) > limits.maxParameters)
      throw tooManyParameters(limits.maxParameters);
    return fromSearchParams(new URLSearchParams(text), limits.maxParameters, alreadySeen);
  } else if (kind === 'xml') {
    // The parser refuses deeper nesting itself (`maxNestedTags`).
    fields = parseXmlBody(text);
  } else if (kind === 'none' || kind === 'text') {
    return {};
  } else {
    throw new DomainError('UNSUPPORTED_MEDIA_TYPE', `Unsupported content type ${type}.`);
  }
  if (alreadySeen + Object.keys(fields).length > limits.maxParameters)
    throw tooManyParameters(limits.maxParameters);
  return fields;
}

/** The query parameters and the body as one input (the body wins), within `limits` together. */
export function readInput(
  query: URLSearchParams,
  raw: Buffer,
  contentType: string | undefined,
  limits: InputLimits = DEFAULT_INPUT_LIMITS,
  xmlReader?: XmlBodyReader,
): Fields {
  const fromQuery = fromSearchParams(query, limits.maxParameters);
  let queryCount = 0;
  for (const _ of query) queryCount++;
  return { ...fromQuery, ...parseBody(raw, contentType, limits, queryCount, xmlReader) };
}
