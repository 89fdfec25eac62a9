import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseQuery, type QueryLexicon, type QueryNode } from './query-parser.js';

const ATTRIBUTES = new Set([
  'state',
  'priority',
  'fix versions',
  'project',
  'sort by',
  'has',
  'subtask of',
  'created',
]);
const lexicon: QueryLexicon = {
  isAttribute: (key) => ATTRIBUTES.has(key),
  isSortKey: (key) => ['created', 'priority', 'resolved date'].includes(key),
  maxWords: 3,
};
const parse = (text: string) => parseQuery(text, lexicon);

/** The tree as a compact string: operators, items by kind, values as typed. */
function shape(node: QueryNode): string {
  switch (node.kind) {
    case 'empty':
      return '∅';
    case 'or':
    case 'and':
      return `${node.kind}(${node.operands.map(shape).join(', ')})`;
    case 'term':
      return `[${node.items
        .map((item) => {
          switch (item.kind) {
            case 'text':
              return `${item.negated ? '-' : ''}${item.phrase ? `"${item.text}"` : item.text}`;
            case 'single':
              return `${item.negated ? '-' : '#'}${item.value.text}`;
            case 'filter':
              return `${item.attribute.key}:${item.filters
                .map((f) =>
                  f.kind === 'query'
                    ? `(${shape(f.query)})`
                    : f.kind === 'range'
                      ? `${f.negated ? '-' : ''}${'open' in f.from ? '*' : f.from.text}..${'open' in f.to ? '*' : f.to.text}`
                      : `${f.negated ? '-' : ''}${f.value.text}`,
                )
                .join('|')}`;
            case 'has':
              return `has:${item.attributes.map((a) => `${a.negated ? '-' : ''}${a.key}`).join('|')}`;
            default:
              return `sort:${item.fields.map((f) => `${f.key}${f.direction ? ` ${f.direction}` : ''}`).join('|')}`;
          }
        })
        .join(' ')}]`;
  }
}

describe('parseQuery (the grammar)', () => {
  it.each<[string, string]>([
    ['State: Open', '[state:Open]'],
    ['state: open, -fixed', '[state:open|-fixed]'],
    ['Fix versions: 1.0 .. 2.0', '[fix versions:1.0..2.0]'],
    ['created: * .. 2014-10-31', '[created:*..2014-10-31]'],
    ['created: 2014-10-01..2014-10-31', '[created:2014-10-01..2014-10-31]'],
    ['#Unresolved -{In Progress}', '[#Unresolved -In Progress]'],
    ['crash -"stack trace" "out of memory"', '[crash -"stack trace" "out of memory"]'],
    ['a or b and c', 'or([a], and([b], [c]))'],
    ['(a or b) and c', 'and(or([a], [b]), [c])'],
    ['a OR b', 'or([a], [b])'],
    ['{or} state: x', '["or" state:x]'],
    ['has: -comments, Fix versions', '[has:-comments|fix versions]'],
    ['sort by: created desc, priority', '[sort:created desc|priority]'],
    ['sort by: {resolved date} asc', '[sort:resolved date asc]'],
    ['subtask of: (project: A or state: Open)', '[subtask of:(or([project:A], [state:Open]))]'],
    ['State:-Fixed', '[state:-Fixed]'],
    ['well-known x-ray', '[well-known x-ray]'],
    ['()', '∅'],
    ['', '∅'],
  ])('%s', (text, expected) => {
    const parsed = parse(text);
    expect(parsed.diagnostics).toEqual([]);
    expect(shape(parsed.root)).toBe(expected);
  });

  it('gives every item its place in the text', () => {
    const { root } = parse('crash State: Open, -Fixed #me');
    expect(root.kind).toBe('term');
    if (root.kind !== 'term') return;
    expect(root.items.map((i) => [i.kind, i.start, i.end])).toEqual([
      ['text', 0, 5],
      ['filter', 6, 25],
      ['single', 26, 29],
    ]);
  });

  it.each<[string, string]>([
    ['Color: red', 'Unknown search attribute [ Color ] at position 0'],
    ['(a', "Missing ')' to close [ ( ] at position 0"],
    ['a)', "Unexpected [ ) ] at position 1: no '(' opens it"],
    ['a and', "[ and ] at position 2: 'and' needs a term on each side"],
    ['State:', 'Missing value of [ State ] at position 0'],
    ['{open', 'Missing } to close [ {open ] at position 0'],
    ['x }', 'Unexpected }: braces only close a {…} value [ } ] at position 2'],
    ['State: *', '[ * ] at position 7 stands only for an open end of a range (State: 1 .. *)'],
    ['created: 1 ..', 'Missing upper bound after [ .. ] at position 11'],
    ['has:', 'Missing attribute after [ has ] at position 0'],
  ])('reports %s at its position and goes on', (text, message) => {
    expect(parse(text).diagnostics[0]?.message).toBe(message);
  });

  it('reports every problem, not only the first', () => {
    expect(parse('Color: red (x').diagnostics.map((d) => d.start)).toEqual([0, 11]);
  });

  it('never throws, and every diagnostic lies within the text', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200, unit: fc.constantFrom(...'ab :,(){}"#-.* orandState\t') }),
        (text) => {
          const parsed = parse(text);
          for (const d of parsed.diagnostics) {
            expect(d.start).toBeGreaterThanOrEqual(0);
            expect(d.end).toBeLessThanOrEqual(text.length);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('parses deep nesting and long input in one bounded pass', () => {
    const deep = parse(`${'('.repeat(1000)}a${')'.repeat(1000)}`);
    expect(deep.diagnostics[0]?.message).toMatch(/nest deeper than 8 levels/);
    const long = parse('a, '.repeat(1300));
    expect(long.diagnostics[0]?.message).toMatch(/at most 50/);
  });
});
