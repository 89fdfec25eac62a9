import { describe, expect, it } from 'vitest';
import {
  countFormEntries,
  groupFormEntries,
  mediaKindOf,
  mediaTypeOf,
  parseJsonObject,
} from './media-type.js';

describe('media types and bodies: the one parser REST and the hook receiver share', () => {
  it('reads the media type of a header, parameters dropped', () => {
    expect(mediaTypeOf(' Application/JSON ; charset=utf-8')).toBe('application/json');
    expect(mediaTypeOf(undefined)).toBe('');
  });

  it('classifies media types, suffixes included', () => {
    const kinds = [
      '',
      'text/plain',
      'application/json',
      'application/vnd.x+json',
      'application/x-www-form-urlencoded',
      'text/xml',
      'application/atom+xml',
      'image/png',
    ].map(mediaKindOf);
    expect(kinds).toEqual(['none', 'text', 'json', 'json', 'form', 'xml', 'xml', 'other']);
  });

  it('counts and groups form entries like URLSearchParams, within a cap', () => {
    expect(countFormEntries('a=1&&b=2&', 10)).toBe(2);
    expect(groupFormEntries(new URLSearchParams('a=1&b=2&a=3'), 3)).toEqual({ a: ['1', '3'], b: '2' });
    expect(groupFormEntries(new URLSearchParams('a=1&b=2'), 2, 1)).toBeUndefined();
  });

  it('parses a JSON object or says why not', () => {
    expect(parseJsonObject('{"a":1}')).toEqual({ value: { a: 1 } });
    expect(parseJsonObject('{')).toEqual({ problem: 'is not valid JSON' });
    expect(parseJsonObject('[1]')).toEqual({ problem: 'must be a JSON object' });
  });
});
