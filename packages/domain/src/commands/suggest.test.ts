import { TEST_FIELDS, testVocabulary, vocabularyWithout } from '@trackline/domain/testing';
import { describe, expect, test } from 'vitest';
import { parseCommand } from './parser.js';
import type { Suggestion } from './result.js';
import { suggestCommand } from './suggest.js';
import type { CommandVocabulary } from './vocabulary.js';

const vocab = testVocabulary();

/** Splits a fixture such as `'State Fi|'` into the text and the caret at the `|`. */
function at(fixture: string): [string, number] {
  const caret = fixture.indexOf('|');
  return [fixture.replace('|', ''), caret < 0 ? fixture.length : caret];
}

function suggest(fixture: string, v: CommandVocabulary = vocab, limit = 50): Suggestion[] {
  return suggestCommand(...at(fixture), v, limit);
}

function options(fixture: string, v: CommandVocabulary = vocab, limit = 50): string[] {
  return suggest(fixture, v, limit).map((s) => s.option);
}

function apply(text: string, s: Suggestion): string {
  return text.slice(0, s.completionStart) + s.prefix + s.option + s.suffix + text.slice(s.completionEnd);
}

describe('suggestCommand: what is offered', () => {
  test.each([
    ['State Fi|', ['Fixed', "Won't fix", 'Verified']],
    ['state to|', ['To be discussed']],
    ['State To be d|', ['To be discussed']],
    ['Priority |', ['Show-stopper', 'Critical', 'Major', 'Normal', 'Minor']],
    ['Type b|', ['Bug']],
    ['Assignee |', ['me', 'root', 'john.doe', 'jane', 'Unassigned']],
    ['for j|', ['john.doe', 'jane']],
    ['for John D|', ['john.doe']],
    ['tag |', ['Todo', 'regression', 'fix it this week']],
    ['tag fix it|', ['fix it this week']],
    ['untag re|', ['regression']],
    ['remove tag |', ['Todo', 'regression', 'fix it this week']],
    ['relates to |', ['PRJ-1', 'PRJ-2', 'PRJ-3', 'ABC-12']],
    ['subtask of abc|', ['ABC-12']],
    ['Fix versions |', ['1.0', '1.1', '2.0', '5.1']],
    ['sub|', ['Subsystem', 'subtask of']],
    ['is d|', ['is duplicated by']],
    ['parent f|', ['parent for']],
    ['un|', ['untag', 'unstar', 'unvote', 'Unassigned']],
    ['Subsystem n|', ['No subsystem']],
  ])('%j offers %j first', (fixture, expected) => {
    expect(options(fixture).slice(0, expected.length)).toEqual(expected);
  });

  test.each([
    ['Fixed|', 'Fixed', 'State'],
    ['duplicates|', 'duplicates', 'Link (Duplicate)'],
    ['star jane|', 'jane', 'Jane Smith'],
  ])('%j offers the exact match %j first', (fixture, option, description) => {
    expect(suggest(fixture)[0]).toMatchObject({ option, description });
  });

  test('offers the value and field names for "Fixed" with the caret at 5', () => {
    const found = suggestCommand('Fixed', 5, vocab, 10);
    expect(found[0]).toEqual({
      option: 'Fixed',
      description: 'State',
      descriptionHtml: '<b>State</b>',
      prefix: '',
      suffix: ' ',
      matchStart: 0,
      matchEnd: 5,
      completionStart: 0,
      completionEnd: 5,
      caret: 6,
      separator: false,
    });
  });

  test('offers field names first, then keywords, for an empty command', () => {
    const found = options('', vocab, 100);
    expect(found.slice(0, 6)).toEqual(TEST_FIELDS.map((f) => f.name));
    expect(found).toEqual(
      expect.arrayContaining(['for', 'tag', 'untag', 'star', 'vote', 'comment', 'add', 'remove']),
    );
    expect(found).toEqual(expect.arrayContaining(['relates to', 'subtask of', 'Fixed', 'Critical']));
  });

  test.each([
    ['add |', ['Fix versions', 'relates to', '1.0'], ['State', 'Critical', 'vote']],
    ['remove |', ['Fix versions', 'relates to', '2.0'], ['Priority', 'Bug']],
    ['star |', ['me', 'jane', 'State', 'vote'], []],
    ['relates to |', ['PRJ-1'], ['State', 'Fixed']],
    ['State |', ['Fixed'], ['Critical', 'State', 'vote']],
  ])('after %j offers %j and not %j', (fixture, included, excluded) => {
    const found = options(fixture, vocab, 200);
    expect(found).toEqual(expect.arrayContaining(included));
    for (const option of excluded) expect(found).not.toContain(option);
  });

  test('ranks prefix matches before word-start matches before substrings', () => {
    expect(options('ver|')).toEqual(['Verified', 'Fix versions']);
    expect(options('to|')).toEqual([
      'To be discussed',
      'visible to',
      'remove visible to',
      'assigned to',
      'relates to',
      'Show-stopper',
    ]);
  });

  test('respects the limit', () => {
    expect(options('|', vocab, 3)).toHaveLength(3);
    expect(options('|', vocab, 0)).toEqual([]);
  });
});

describe('suggestCommand: permissions', () => {
  test.each([
    ['rel|', 'link', ['relates to']],
    ['|', 'update', ['State', 'Fixed', 'for', 'assigned to']],
    ['|', 'comment', ['comment']],
    ['|', 'tag', ['tag', 'untag', 'add tag', 'remove tag']],
    ['|', 'vote', ['vote', 'unvote']],
    ['|', 'star', ['star', 'unstar']],
  ] as const)('%j without %s does not offer %j', (fixture, permission, excluded) => {
    const found = options(fixture, vocabularyWithout(permission), 200);
    for (const option of excluded) expect(found).not.toContain(option);
  });

  test.each([
    ['State |', 'update'],
    ['for |', 'update'],
    ['relates to |', 'link'],
    ['tag |', 'tag'],
  ] as const)('offers nothing after %j without %s', (fixture, permission) => {
    expect(options(fixture, vocabularyWithout(permission))).toEqual([]);
  });

  test('still offers other commands after a star the actor may not give, but no logins', () => {
    const found = options('star |', vocabularyWithout('star'), 200);
    expect(found).toContain('State');
    expect(found).not.toContain('jane');
  });
});

describe('suggestCommand: completion ranges', () => {
  test.each([
    ['State Fi|', 'Fixed', 6, 8, 'State Fixed ', 12],
    ['Fi|xed', 'Fixed', 0, 5, 'Fixed ', 6],
    ['State To be d|', 'To be discussed', 6, 13, 'State To be discussed ', 22],
    ['State Fi| Priority Critical', 'Fixed', 6, 8, 'State Fixed Priority Critical', 12],
    ['State |Critical', 'Fixed', 6, 6, 'State Fixed Critical', 12],
    ['for John D|', 'john.doe', 4, 10, 'for john.doe ', 13],
    ['}|', 'State', 1, 1, '}State ', 7],
  ])('%j with %j replaces [%i, %i)', (fixture, option, start, end, result, caret) => {
    const [text] = at(fixture);
    const s = suggest(fixture).find((x) => x.option === option);
    expect(s).toMatchObject({ completionStart: start, completionEnd: end, caret });
    expect(s && apply(text, s)).toBe(result);
  });

  test('quotes inside an opened brace', () => {
    const s = suggest('State {In|')[0];
    expect(s).toMatchObject({
      option: 'In Progress',
      prefix: '{',
      suffix: '} ',
      completionStart: 6,
      completionEnd: 9,
    });
    expect(s && apply('State {In', s)).toBe('State {In Progress} ');
  });

  test('closes an unclosed brace and keeps the text after the word', () => {
    const s = suggest('{In Pro|gress State Fixed')[0];
    expect(s && apply('{In Progress State Fixed', s)).toBe('{In Progress} State Fixed');
  });

  test('quotes a value that is spelled like a keyword, and it then parses as the value', () => {
    const v = testVocabulary({
      fields: [
        ...TEST_FIELDS,
        { name: 'Kind', kind: 'enum', multi: false, canBeEmpty: false, values: [{ name: 'Vote' }] },
      ],
    });
    const found = suggest('vo|', v);
    expect(found.slice(0, 2).map((s) => `${s.prefix}${s.option}${s.suffix}`)).toEqual(['vote ', '{Vote} ']);
    const quoted = found[1];
    expect(quoted && parseCommand(apply('vo', quoted), v).ops.map((op) => op.description)).toEqual([
      'Set Kind to Vote',
    ]);
  });

  test('quotes a value when the words before it would swallow it', () => {
    // "relates" + "To be discussed" would read as the link phrase "relates to" and a bad issue id.
    const s = suggest('relates |').find((x) => x.option === 'To be discussed');
    expect(s).toMatchObject({ prefix: '{', suffix: '} ' });
  });

  test('every offered completion re-parses without an error in the completed text', () => {
    for (const fixture of [
      '|',
      'State |',
      'add |',
      'for |',
      'star |',
      'tag |',
      'relates to |',
      'Type Bug |',
    ]) {
      const [text] = at(fixture);
      for (const s of suggest(fixture, vocab, 200)) {
        const errors = parseCommand(apply(text, s), vocab).ranges.filter((r) => r.style === 'error');
        expect(errors.filter((r) => r.start < s.caret && s.completionStart < r.end)).toEqual([]);
      }
    }
  });
});

describe('suggestCommand: match ranges', () => {
  test.each([
    ['State Fi|', 'Fixed', 0, 2],
    ['ver|', 'Fix versions', 4, 7],
    ['for John D|', 'john.doe', 0, 0],
    ['|', 'State', 0, 0],
  ])('%j marks [%i, %i) of %j', (fixture, option, matchStart, matchEnd) => {
    expect(suggest(fixture).find((s) => s.option === option)).toMatchObject({ matchStart, matchEnd });
  });
});

describe('suggestCommand: a large vocabulary', () => {
  // About 50 fields of 20 values, 500 users and 200 tags.
  const large = testVocabulary({
    fields: [
      ...TEST_FIELDS,
      ...Array.from({ length: 44 }, (_, i) => ({
        name: `Custom field ${i}`,
        kind: 'enum' as const,
        multi: i % 4 === 0,
        canBeEmpty: true,
        emptyText: `No custom ${i}`,
        values: Array.from({ length: 20 }, (_, j) => ({ name: `Option ${i}.${j}` })),
      })),
    ],
    users: Array.from({ length: 500 }, (_, i) => ({ login: `user${i}`, fullName: `Person Number ${i}` })),
    tags: Array.from({ length: 200 }, (_, i) => ({ name: `topic ${i}` })),
  });

  test('finds multi-word names, full names and tags', () => {
    expect(options('Custom field 7 Option 7.1|', large).slice(0, 3)).toEqual([
      'Option 7.1',
      'Option 7.10',
      'Option 7.11',
    ]);
    expect(options('for person number 42|', large)[0]).toBe('user42');
    const tags = options('tag topic 19|', large);
    expect(tags[0]).toBe('topic 19');
    // The longer match ranks first; values containing "19" (after a new tag "topic") follow.
    expect(tags.slice(0, 11).every((tag) => tag.startsWith('topic 19'))).toBe(true);
  });
});
