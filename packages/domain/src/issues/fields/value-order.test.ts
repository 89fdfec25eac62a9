import { describe, expect, it } from 'vitest';
import { compareSqlite, compareUtf8, type OrderedValueRow, orderFieldValues } from './value-order.js';

const row = (
  issue: number,
  field: number,
  ordinal: number | null,
  id: number | null,
  login: string | null = null,
): OrderedValueRow => ({ issue_id: issue, field_id: field, value_ordinal: ordinal, value_id: id, login });

describe('orderFieldValues', () => {
  it('sorts each (issue, field) run by ordinal, value id, then login, keeping slot order on ties', () => {
    const rows = [
      row(1, 10, 2, 30),
      row(1, 10, 0, 31),
      row(1, 10, 0, 29),
      row(1, 11, null, null, 'zed'),
      row(1, 11, null, null, 'amy'),
      row(2, 10, 5, 1),
      row(2, 12, null, null),
      row(2, 12, null, null),
    ];
    const [a, b, c, d, e, f, g, h] = rows;
    expect(orderFieldValues(rows)).toEqual([c, b, a, e, d, f, g, h]);
    // Simple values (no bundle value, no user) keep their slot order: the same objects in place.
    expect(rows[6]).toBe(g);
    expect(rows[7]).toBe(h);
  });

  it('leaves rows already in order untouched', () => {
    const rows = [row(1, 1, 0, 1), row(1, 1, 1, 2), row(1, 2, null, null, 'a')];
    const copy = [...rows];
    orderFieldValues(rows);
    for (const [i, r] of rows.entries()) expect(r).toBe(copy[i]);
  });
});

describe("SQLite's order of values", () => {
  it('puts NULL first, numbers before text, and compares text as UTF-8 bytes', () => {
    expect(compareSqlite(null, 0)).toBeLessThan(0);
    expect(compareSqlite(3, null)).toBeGreaterThan(0);
    expect(compareSqlite(2, 10)).toBeLessThan(0);
    expect(compareSqlite(10, 'a')).toBeLessThan(0);
    expect(compareSqlite('B', 'a')).toBeLessThan(0);
    expect(compareSqlite(null, undefined)).toBe(0);
  });

  it('sorts a code point above U+FFFF after U+E000-U+FFFF, as its UTF-8 bytes do', () => {
    const words = ['a\u{1F600}', 'a\uFFFD', 'a\uE000', 'ab', 'a', 'a\u00e9', 'a\uD7FF'];
    const byBytes = [...words].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect([...words].sort(compareUtf8)).toEqual(byBytes);
    expect(byBytes.at(-1)).toBe('a\u{1F600}');
  });
});
