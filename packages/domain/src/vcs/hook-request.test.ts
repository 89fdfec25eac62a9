import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.js';
import { extractPayload, parsePayloadJson } from './hook-request.js';

const JSON_TEXT = '{"ref":"refs/heads/main"}';
const form = `payload=${encodeURIComponent(JSON_TEXT)}&other=1`;

const outcome = (contentType: string | undefined, body: string, queryPayload: string | null = null) => {
  try {
    const { text, signed } = extractPayload({ contentType, body: Buffer.from(body), queryPayload });
    return { text, signed: signed.toString('utf8') };
  } catch (error) {
    if (error instanceof DomainError) return `${error.code}: ${error.message}`;
    throw error;
  }
};

describe('extractPayload', () => {
  it.each<[string, string | undefined, string, string | null, unknown]>([
    ['raw JSON', 'application/json', JSON_TEXT, null, { text: JSON_TEXT, signed: JSON_TEXT }],
    [
      'JSON with charset',
      'application/json; charset=utf-8',
      JSON_TEXT,
      null,
      { text: JSON_TEXT, signed: JSON_TEXT },
    ],
    ['no content type', undefined, JSON_TEXT, null, { text: JSON_TEXT, signed: JSON_TEXT }],
    [
      'form field; the whole body is signed',
      'application/x-www-form-urlencoded',
      form,
      null,
      { text: JSON_TEXT, signed: form },
    ],
    ['form without a content type', undefined, form, null, { text: JSON_TEXT, signed: form }],
    [
      'query payload when the body is empty',
      undefined,
      '',
      JSON_TEXT,
      { text: JSON_TEXT, signed: JSON_TEXT },
    ],
    [
      'the body wins over the query',
      'application/json',
      JSON_TEXT,
      '{"x":1}',
      { text: JSON_TEXT, signed: JSON_TEXT },
    ],
    [
      'form without payload',
      'application/x-www-form-urlencoded',
      'a=1',
      null,
      'VALIDATION_FAILED: payload: the form body has no payload field',
    ],
    [
      'nothing at all',
      'application/json',
      '  ',
      null,
      'VALIDATION_FAILED: payload: is required (a JSON body, a form field or a query parameter)',
    ],
    [
      'other media types',
      'application/xml',
      '<a/>',
      null,
      'UNSUPPORTED_MEDIA_TYPE: Unsupported content type application/xml.',
    ],
  ])('%s', (_name, contentType, body, query, expected) => {
    expect(outcome(contentType, body, query)).toEqual(expected);
  });
});

describe('parsePayloadJson', () => {
  it.each([
    ['{', 'payload: is not valid JSON'],
    ['[1]', 'payload: must be a JSON object'],
    ['null', 'payload: must be a JSON object'],
  ])('%j → %s', (text, message) => {
    expect(() => parsePayloadJson(text)).toThrow(message);
  });
});
