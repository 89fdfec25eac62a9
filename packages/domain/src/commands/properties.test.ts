import { testVocabulary } from '@trackline/domain/testing';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseCommand } from './parser.js';
import type { ParseResult, Suggestion } from './result.js';
import { suggestCommand } from './suggest.js';
import type { CommandVocabulary } from './vocabulary.js';

const vocab = testVocabulary();

/** Words and fragments of the test vocabulary, so generated commands reach deep into the grammar. */
const PIECES = [
  ...['State', 'Priority', 'Type', 'Assignee', 'Fix versions', 'Subsystem', 'Fix', 'versions'],
  ...[
    'Fixed',
    'In Progress',
    'To be discussed',
    "Won't fix",
    'Critical',
    'Bug',
    '1.0',
    '5.1',
    'No subsystem',
  ],
  ...['for', 'me', 'assigned to', 'tag', 'untag', 'remove tag', 'star', 'unstar', 'vote', 'unvote', 'add'],
  ...['remove', 'comment', 'relates to', 'relates', 'to', 'subtask of', 'parent for', 'is required for'],
  ...[
    'PRJ-1',
    'abc-12',
    'root',
    'john.doe',
    'John Doe',
    'Todo',
    'fix it this week',
    'regression',
    'Unassigned',
  ],
  ...['{', '}', '{In Progress}', '{new tag', 'Fi', 'pr', 'x', '', '#', '\u0000'],
];

const command = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 4 })), { maxLength: 8 })
  .chain((pieces) =>
    fc
      .array(fc.constantFrom(' ', ' ', '  ', '', '\t'), {
        minLength: pieces.length,
        maxLength: pieces.length,
      })
      .map((gaps) => pieces.map((piece, i) => `${piece}${gaps[i]}`).join('')),
  );

const permissions = fc.record({
  update: fc.boolean(),
  link: fc.boolean(),
  comment: fc.boolean(),
  tag: fc.boolean(),
  vote: fc.boolean(),
  star: fc.boolean(),
});

const anyText = fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 60 }), command);

function expectWellFormed(result: ParseResult, length: number) {
  let last = 0;
  for (const range of result.ranges) {
    expect(range.start).toBeGreaterThanOrEqual(last);
    expect(range.end).toBeGreaterThan(range.start);
    last = range.end;
  }
  expect(last).toBeLessThanOrEqual(length);
  for (const d of result.diagnostics) expect(0 <= d.start && d.start <= d.end && d.end <= length).toBe(true);
  expect(result.ops.length).toBeLessThanOrEqual(result.commands.length);
}

function apply(text: string, s: Suggestion): string {
  return text.slice(0, s.completionStart) + s.prefix + s.option + s.suffix + text.slice(s.completionEnd);
}

describe('properties', () => {
  test('parseCommand never throws and returns ordered ranges inside the text', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expectWellFormed(parseCommand(text, vocab), text.length);
      }),
      { numRuns: 1000 },
    );
  });

  test('suggestCommand never throws, for any caret and limit', () => {
    fc.assert(
      fc.property(
        anyText,
        fc.integer({ min: -5, max: 80 }),
        fc.integer({ min: -1, max: 30 }),
        (text, caret, limit) => {
          for (const s of suggestCommand(text, caret, vocab, limit)) {
            expect(
              0 <= s.completionStart &&
                s.completionStart <= s.completionEnd &&
                s.completionEnd <= text.length,
            ).toBe(true);
          }
        },
      ),
      { numRuns: 1000 },
    );
    expect(suggestCommand('State', Number.NaN, vocab, Number.POSITIVE_INFINITY)).toEqual([]);
    expect(suggestCommand('State ', Number.NaN, vocab, 5).map((s) => s.completionStart)).toEqual([
      6, 6, 6, 6, 6,
    ]);
  });

  test('long input: no throw, and the length guard keeps it cheap', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1900, maxLength: 2100 }), fc.nat({ max: 2100 }), (text, caret) => {
        expectWellFormed(parseCommand(text, vocab), text.length);
        suggestCommand(text, caret, vocab, 10);
      }),
      { numRuns: 30 },
    );
    const noise = Array.from({ length: 10_240 }, (_, i) => String.fromCharCode((i * 7919) % 0x2fff)).join('');
    const started = performance.now();
    expect(parseCommand(noise, vocab).diagnostics).toHaveLength(1);
    expect(suggestCommand(noise, 5000, vocab, 10)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(50);
  });

  test('applying any suggestion at any caret leaves no error in the completed stretch', () => {
    fc.assert(
      fc.property(command, fc.nat({ max: 80 }), permissions, (text, caretSeed, can) => {
        const v: CommandVocabulary = testVocabulary({ can });
        const caret = caretSeed % (text.length + 1);
        for (const s of suggestCommand(text, caret, v, 15)) {
          const next = apply(text, s);
          expect(s.caret).toBeLessThanOrEqual(next.length);
          const errors = parseCommand(next, v).ranges.filter((r) => r.style === 'error');
          const overlapping = errors.filter((r) => r.start < s.caret && s.completionStart < r.end);
          expect(overlapping, `${JSON.stringify(text)} → ${JSON.stringify(next)}`).toEqual([]);
        }
      }),
      { numRuns: 1500 },
    );
  });

  test('the option is inserted as is, and its match range lies inside it', () => {
    fc.assert(
      fc.property(command, fc.nat({ max: 80 }), (text, caretSeed) => {
        const caret = caretSeed % (text.length + 1);
        for (const s of suggestCommand(text, caret, vocab, 15)) {
          const next = apply(text, s);
          const inserted = next.slice(
            s.completionStart + s.prefix.length,
            s.completionStart + s.prefix.length + s.option.length,
          );
          expect(inserted).toBe(s.option);
          expect(s.option.toLowerCase().slice(s.matchStart, s.matchEnd).length).toBe(
            s.matchEnd - s.matchStart,
          );
        }
      }),
      { numRuns: 300 },
    );
  });
});
