import { TEST_FIELDS, testVocabulary } from '@trackline/domain/testing';
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
  ...[
    'delete',
    'visible to',
    'remove visible to',
    'QA Engineers',
    'work',
    '2h',
    'Development',
    '2026-11-20',
    'remove',
    'comment',
    'relates to',
    'relates',
    'to',
    'subtask of',
    'parent for',
    'is required for',
  ],
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
  delete: fc.boolean(),
  visibility: fc.boolean(),
  work: fc.boolean(),
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
    // Over the length limit: one diagnostic and no suggestions, whatever the text (its cost is
    // measured by the benchmark's command rows, not asserted here).
    expect(parseCommand(noise, vocab).diagnostics).toHaveLength(1);
    expect(suggestCommand(noise, 5000, vocab, 10)).toEqual([]);
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

  /**
   * An oracle that knows nothing of the suggester: after `<Field> `, the completions offered for
   * what was typed are exactly the field's values (and its empty text) that contain it, ignoring
   * case (several typed words match only a name's start), and those starting with it come
   * first. Computed from the vocabulary and the documented matching rules alone.
   */
  test('field values: exactly the values containing the typed text, prefix matches first', () => {
    const valued = TEST_FIELDS.filter((f) => f.values.length > 0);
    const fragment = fc
      .constantFrom(...valued)
      .chain((field) =>
        fc.record({
          field: fc.constant(field),
          value: fc.constantFrom(...field.values.map((v) => v.name)),
          from: fc.nat(),
          length: fc.integer({ min: 1, max: 12 }),
        }),
      )
      .map(({ field, value, from, length }) => {
        const start = from % value.length;
        return { field, value, typed: value.slice(start, start + length).trim() };
      })
      .filter(({ typed }) => typed.length > 0);
    fc.assert(
      fc.property(fragment, ({ field, value, typed }) => {
        const text = `${field.name} ${typed}`;
        const site = field.name.length + 1;
        const offered = suggestCommand(text, text.length, vocab, 1000)
          .filter((s) => s.completionStart === site)
          .map((s) => s.option);
        const lower = typed.toLowerCase();
        const names = [
          ...field.values.map((v) => v.name),
          ...(field.canBeEmpty ? [field.emptyText ?? ''] : []),
        ];
        const matches = /\s/.test(lower)
          ? (name: string) => name.toLowerCase().startsWith(lower)
          : (name: string) => name.toLowerCase().includes(lower);
        const expected = names.filter(matches);
        if (!/\s/.test(lower) || value.toLowerCase().startsWith(lower)) expect(expected).toContain(value);
        expect([...offered].sort(), text).toEqual([...expected].sort());
        const firstNonPrefix = offered.findIndex((o) => !o.toLowerCase().startsWith(lower));
        if (firstNonPrefix >= 0) {
          expect(
            offered.slice(firstNonPrefix).filter((o) => o.toLowerCase().startsWith(lower)),
            text,
          ).toEqual([]);
        }
      }),
      { numRuns: 500 },
    );
  });

  test('field values: none offered to an actor who may not update issues', () => {
    const readOnly = testVocabulary({ can: { ...vocab.can, update: false } });
    for (const field of TEST_FIELDS) {
      for (const value of field.values) {
        const text = `${field.name} ${value.name.slice(0, 2)}`;
        const site = field.name.length + 1;
        const offered = suggestCommand(text, text.length, readOnly, 1000).filter(
          (s) => s.completionStart === site,
        );
        expect(offered.map((s) => s.option).filter((o) => field.values.some((v) => v.name === o))).toEqual(
          [],
        );
      }
    }
  });
});
