import { describe, expect, test } from 'vitest';
import { scan } from './scanner.js';

/** Each token as `kind:text@start-end`, to compare whole token lists at a glance. */
function tokens(text: string): string[] {
  return scan(text).tokens.map((t) => `${t.kind}:${t.text}@${t.range.start}-${t.range.end}`);
}

describe('scan', () => {
  test.each([
    ['', []],
    ['   ', []],
    ['State Fixed', ['word:State@0-5', 'word:Fixed@6-11']],
    ['  for   me ', ['word:for@2-5', 'word:me@8-10']],
    ['relates to PRJ-1', ['word:relates@0-7', 'word:to@8-10', 'word:PRJ-1@11-16']],
    ["Won't\tfix\n1.0", ["word:Won't@0-5", 'word:fix@6-9', 'word:1.0@10-13']],
    ['State {In Progress}', ['word:State@0-5', 'quoted:In Progress@6-19']],
    ['{a}{b}', ['quoted:a@0-3', 'quoted:b@3-6']],
    ['tag{x}y', ['word:tag@0-3', 'quoted:x@3-6', 'word:y@6-7']],
    ['{}', ['quoted:@0-2']],
    ['a\u00a0b\u3000c', ['word:a@0-1', 'word:b@2-3', 'word:c@4-5']],
    ['café ÜBER', ['word:café@0-4', 'word:ÜBER@5-9']],
  ])('%j', (text, expected) => {
    expect(tokens(text)).toEqual(expected);
    expect(scan(text).diagnostics).toEqual([]);
  });

  test.each([
    [
      '{In Progress',
      ['quoted:In Progress@0-12'],
      [{ start: 0, end: 12, message: 'Missing } to close the {…} value' }],
    ],
    [
      'State }',
      ['word:State@0-5', 'unknown:}@6-7'],
      [{ start: 6, end: 7, message: 'Unexpected }: braces only close a {…} value' }],
    ],
    ['a}}b', ['word:a@0-1', 'unknown:}@1-2', 'unknown:}@2-3', 'word:b@3-4'], expect.any(Array)],
    [
      'x\u0001\u0002y',
      ['word:x@0-1', 'unknown:\u0001\u0002@1-3', 'word:y@3-4'],
      [{ start: 1, end: 3, message: 'Unexpected control character' }],
    ],
  ])('reports %j', (text, expected, diagnostics) => {
    expect(tokens(text)).toEqual(expected);
    expect(scan(text).diagnostics).toEqual(diagnostics);
  });

  test('marks whether a quoted value was closed', () => {
    expect(scan('{a} {b').tokens.map((t) => t.kind === 'quoted' && t.closed)).toEqual([true, false]);
  });

  test('covers every non-space character exactly once, in order', () => {
    const text = 'for {john doe} }\u0007 PRJ-1 {x';
    const found = scan(text).tokens;
    let last = 0;
    for (const token of found) {
      expect(token.range.start).toBeGreaterThanOrEqual(last);
      expect(text.slice(last, token.range.start).trim()).toBe('');
      last = token.range.end;
    }
    expect(last).toBe(text.length);
  });
});
