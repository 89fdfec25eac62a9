import { describe, expect, it } from 'vitest';
import { countFormEntries, fromSearchParams, nestsDeeperThan, parseBody, readInput } from './request-body.js';

const form = (text: string) => Buffer.from(text, 'utf8');
const FORM = 'application/x-www-form-urlencoded';

describe('request bodies', () => {
  it('collects repeated names into arrays in order, single names into strings', () => {
    expect(fromSearchParams(new URLSearchParams('a=1&b=2&a=3&a=4&c='))).toEqual({
      a: ['1', '3', '4'],
      b: '2',
      c: '',
    });
  });

  it('keeps a field named __proto__ as a plain field', () => {
    const fields = fromSearchParams(new URLSearchParams('__proto__=x&constructor=y'));
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
    expect(Object.keys(fields)).toEqual(['__proto__', 'constructor']);
  });

  it('accepts exactly the parameter limit and refuses one more, counting repeated names', () => {
    expect(Object.keys(fromSearchParams(new URLSearchParams('a=1&a=2&b=3'), 3))).toEqual(['a', 'b']);
    expect(() => fromSearchParams(new URLSearchParams('a=1&a=2&a=3&a=4'), 3)).toThrow(
      'Too many parameters: at most 3 query and body parameters are accepted.',
    );
  });

  it('stops at the first parameter beyond the limit', () => {
    let read = 0;
    const params = new URLSearchParams(Array.from({ length: 100 }, (_, i) => `k${i}=`).join('&'));
    const counting = {
      *[Symbol.iterator]() {
        for (const entry of params) {
          read++;
          yield entry;
        }
      },
    } as unknown as URLSearchParams;
    expect(() => fromSearchParams(counting, 10)).toThrow(/at most 10/);
    expect(read).toBe(11);
  });

  it('reads each entry once and never calls getAll', () => {
    const params = new URLSearchParams(Array.from({ length: 500 }, (_, i) => `k${i % 50}=${i}`).join('&'));
    params.getAll = () => {
      throw new Error('getAll called');
    };
    const fields = fromSearchParams(params);
    expect(Object.keys(fields)).toHaveLength(50);
    expect(fields.k7).toHaveLength(10);
  });

  it('counts form entries on the text as URLSearchParams reads them', () => {
    for (const text of ['', 'a', 'a=1&b=2', '&&a=1&&b&', 'a=1&a=2&a=3', '=&=&x', '&']) {
      expect(countFormEntries(text, 100), text).toBe([...new URLSearchParams(text)].length);
    }
    expect(countFormEntries('a&b&c&d&e', 3)).toBe(3);
  });

  it('counts query and body parameters together, for form, JSON and XML bodies', () => {
    const limits = { maxParameters: 3, maxDepth: 64 };
    const query = new URLSearchParams('a=1&b=2');
    expect(readInput(query, form('c=3'), FORM, limits)).toEqual({ a: '1', b: '2', c: '3' });
    expect(() => readInput(query, form('c=3&d=4'), FORM, limits)).toThrow(/at most 3/);
    expect(() => readInput(query, form('{"c":1,"d":2}'), 'application/json', limits)).toThrow(/at most 3/);
    expect(() => readInput(query, form('<x c="1" d="2"/>'), 'application/xml', limits)).toThrow(/at most 3/);
    expect(readInput(query, form('{"a":"body"}'), 'application/json', limits)).toEqual({ a: 'body', b: '2' });
  });

  it('measures nesting without recursion, and refuses JSON bodies nested beyond the bound', () => {
    const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    expect(nestsDeeperThan(JSON.parse(`{"a":${nested(63)}}`), 64)).toBe(false);
    expect(nestsDeeperThan(JSON.parse(`{"a":${nested(64)}}`), 64)).toBe(true);
    expect(nestsDeeperThan(JSON.parse(nested(500_000)), 64)).toBe(true);
    expect(() => parseBody(form(`{"a":${nested(100_000)}}`), 'application/json')).toThrow(
      'body: nests objects or arrays deeper than 64 levels',
    );
  });
});
