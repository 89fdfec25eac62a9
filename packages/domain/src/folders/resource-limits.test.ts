import { describe, expect, it } from 'vitest';
import { checkQuerySyntax, MAX_QUERY_TERMS } from '../query/query-parser.js';
import { pageOverSegments, type Segment, WHOLE_LIST } from './resource-limits.js';

const segment = (items: string[], loads: string[][]): Segment<string> => ({
  count: async () => items.length,
  load: async (offset, limit) => {
    const slice = items.slice(offset, Number.isFinite(limit) ? offset + limit : undefined);
    loads.push(slice);
    return slice;
  },
});

describe('pageOverSegments', () => {
  const own = ['a', 'b', 'c'];
  const shared = ['x', 'y', 'z', 'w'];
  const all = [...own, ...shared];

  it('answers the same slice as the concatenated list, for every start and max', async () => {
    for (let start = 0; start <= all.length + 1; start++) {
      for (let max = 1; max <= all.length + 1; max++) {
        const page = await pageOverSegments([segment(own, []), segment(shared, [])], { start, max });
        expect(page, `${start}/${max}`).toEqual(all.slice(start, start + max));
      }
    }
  });

  it('loads only what the page needs: skipped segments and later ones are not loaded', async () => {
    const loads: string[][] = [];
    expect(
      await pageOverSegments([segment(own, loads), segment(shared, loads)], { start: 3, max: 2 }),
    ).toEqual(['x', 'y']);
    expect(loads).toEqual([['x', 'y']]);
    const early: string[][] = [];
    await pageOverSegments([segment(own, early), segment(shared, early)], { start: 0, max: 2 });
    expect(early).toEqual([['a', 'b']]);
  });

  it('the whole list without a page', async () => {
    expect(await pageOverSegments([segment(own, []), segment(shared, [])], WHOLE_LIST)).toEqual(all);
  });
});

describe('search query size', () => {
  const words = (n: number) => 'x '.repeat(n).trim();
  it(`accepts ${MAX_QUERY_TERMS} words, values and #terms; refuses one more naming the query`, () => {
    expect(() => checkQuerySyntax(words(MAX_QUERY_TERMS))).not.toThrow();
    expect(() => checkQuerySyntax(words(MAX_QUERY_TERMS + 1))).toThrow(
      /^query: The query has 51 words and values; at most 50/,
    );
    expect(() => checkQuerySyntax(words(996))).toThrow(/has 996 words/);
  });
  it('colons and commas do not count; attribute values do', () => {
    const values = Array.from({ length: MAX_QUERY_TERMS - 1 }, (_, i) => `v${i}`).join(', ');
    expect(() => checkQuerySyntax(`State: ${values}`)).not.toThrow();
    expect(() => checkQuerySyntax(`State: ${values}, one-more`)).toThrow(/at most 50/);
  });
});
