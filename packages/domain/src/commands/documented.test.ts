import { TEST_FIELDS, testVocabulary } from '@trackline/domain/testing';
import { describe, expect, test } from 'vitest';
import type { CommandOp } from './ops.js';
import { parseCommand } from './parser.js';
import { suggestCommand } from './suggest.js';
import type { CommandVocabulary } from './vocabulary.js';

/**
 * The forms the original documents ("Command Grammar", "YouTrack Commands", "Apply Command to an
 * Issue"; /work/shared/reference/legacy-rest-api.md §2.1), read by the parser. The HTTP tests
 * (apps/api/test/commands.documented.test.ts) apply the same examples to issues on both databases.
 */
const vocab = testVocabulary({ tags: [{ name: 'Todo' }, { name: 'regression' }] });

type OpWithoutRange = CommandOp extends infer O ? (O extends unknown ? Omit<O, 'range'> : never) : never;

function opsOf(text: string, v: CommandVocabulary = vocab): OpWithoutRange[] {
  const parsed = parseCommand(text, v);
  expect(parsed.diagnostics).toEqual([]);
  return parsed.ops.map(({ range: _, ...op }) => op);
}

const kinds = (text: string, v: CommandVocabulary = vocab) => opsOf(text, v).map((op) => op.kind);

describe('multi-word new tags: the rest of the command up to the next keyword', () => {
  test('type Cosmetics tag fix it this week (the commands page)', () => {
    expect(opsOf('type Cosmetics tag fix it this week')).toEqual([
      { kind: 'set', field: 'Type', value: 'Cosmetics', description: 'Set Type to Cosmetics' },
      { kind: 'tag', tag: 'fix it this week', description: 'Add new tag fix it this week' },
    ]);
    expect(opsOf('type Feature tag fix it this week').at(-1)).toMatchObject({ tag: 'fix it this week' });
  });

  test('the name stops at the next keyword', () => {
    expect(opsOf('tag fix it this week vote')).toEqual([
      { kind: 'tag', tag: 'fix it this week', description: 'Add new tag fix it this week' },
      { kind: 'vote', description: 'Vote for the issue' },
    ]);
    expect(opsOf('tag two words for me').map((op) => op.description)).toEqual([
      'Add new tag two words',
      'Set Assignee to root',
    ]);
    expect(opsOf('tag first tag second')).toMatchObject([
      { kind: 'tag', tag: 'first' },
      { kind: 'tag', tag: 'second' },
    ]);
  });

  test('the name also stops at a link phrase or an issue id; values and field names are words of it', () => {
    expect(opsOf('tag Reading depends on PRJ-2')).toMatchObject([
      { kind: 'tag', tag: 'Reading', description: 'Add new tag Reading' },
      { kind: 'link', linkType: 'Depend', issueId: 'PRJ-2' },
    ]);
    expect(opsOf('tag urgent Fixed')).toMatchObject([{ kind: 'tag', tag: 'urgent Fixed' }]);
    expect(opsOf('tag needs State review')).toMatchObject([{ kind: 'tag', tag: 'needs State review' }]);
    expect(opsOf('tag vote')).toMatchObject([{ kind: 'tag', tag: 'vote' }]);
    expect(opsOf('tag {fix it} Fixed')).toMatchObject([
      { kind: 'tag', tag: 'fix it' },
      { kind: 'set', value: 'Fixed' },
    ]);
  });

  test('an existing tag followed by another command is that tag; followed by more words, a new one', () => {
    expect(kinds('tag Todo Fixed')).toEqual(['tag', 'set']);
    expect(opsOf('tag Todo Fixed')[0]).toMatchObject({ tag: 'Todo', description: 'Add tag Todo' });
    expect(opsOf('tag Todo list')).toMatchObject([{ kind: 'tag', tag: 'Todo list' }]);
    expect(opsOf('tag {Todo list} Fixed')).toMatchObject([{ tag: 'Todo list' }, { kind: 'set' }]);
  });

  test('remove tag fix it this week removes an existing multi-word tag; untag never creates', () => {
    const withTag = testVocabulary({ tags: [{ name: 'fix it this week' }] });
    expect(opsOf('remove tag fix it this week', withTag)).toEqual([
      { kind: 'untag', tag: 'fix it this week', description: 'Remove tag fix it this week' },
    ]);
    expect(parseCommand('untag fix it', vocab).diagnostics[0]?.message).toBe('Unknown tag: fix');
  });

  test('suggestions after a new tag word still offer the keywords', () => {
    const options = suggestCommand('tag fix it v', 12, vocab, 10).map((s) => s.option);
    expect(options).toContain('vote');
  });
});

describe('a state value named like a link type, then an issue id (the commands page)', () => {
  test('state duplicate TS-2405 sets the state and links as a duplicate', () => {
    expect(opsOf('state duplicate TS-2405')).toEqual([
      { kind: 'set', field: 'State', value: 'Duplicate', description: 'Set State to Duplicate' },
      {
        kind: 'link',
        linkType: 'Duplicate',
        outward: true,
        issueId: 'TS-2405',
        description: 'Link to TS-2405 (duplicates)',
      },
    ]);
    expect(kinds('Duplicate PRJ-1')).toEqual(['set', 'link']);
  });

  test('after another value, or with a command between, an issue id alone still needs a link phrase', () => {
    for (const text of ['state Fixed PRJ-1', 'state duplicate vote PRJ-1', 'PRJ-1']) {
      expect(parseCommand(text, vocab).diagnostics.map((d) => d.message)).toEqual([
        'Issue id PRJ-1 needs a link command before it, e.g. relates to PRJ-1',
      ]);
    }
  });
});

describe('visible to <group> / remove visible to <group>', () => {
  test('name a group of the vocabulary, several words alike', () => {
    expect(opsOf('visible to QA Engineers')).toEqual([
      { kind: 'visibleTo', group: 'QA Engineers', description: 'Make visible to QA Engineers only' },
    ]);
    expect(opsOf('remove visible to secret-team Fixed')).toEqual([
      {
        kind: 'removeVisibleTo',
        group: 'secret-team',
        description: 'Remove the visibility restriction to secret-team',
      },
      { kind: 'set', field: 'State', value: 'Fixed', description: 'Set State to Fixed' },
    ]);
  });

  test('an unknown group is refused, and the actor without the right is told so', () => {
    expect(parseCommand('visible to nobody', vocab).diagnostics[0]?.message).toBe('Unknown group: nobody');
    expect(parseCommand('visible to', vocab).diagnostics[0]?.message).toBe('Group expected after visible to');
    const cannot = testVocabulary({ can: { ...vocab.can, visibility: false } });
    expect(parseCommand('visible to QA Engineers', cannot).diagnostics[0]?.message).toBe(
      'Make visible to QA Engineers only: you have no rights to change who may read issues',
    );
  });

  test('suggests groups after the phrase, and the phrase only to who may use it', () => {
    expect(suggestCommand('visible to Q', 12, vocab, 10).map((s) => s.option)).toEqual(['QA Engineers']);
    expect(suggestCommand('visi', 4, vocab, 10).map((s) => s.option)).toContain('visible to');
    const cannot = testVocabulary({ can: { ...vocab.can, visibility: false } });
    expect(suggestCommand('visi', 4, cannot, 10).map((s) => s.option)).not.toContain('visible to');
  });
});

describe('work <duration> [type] [date] [description]', () => {
  const work = (
    minutes: number,
    workType: string | null,
    date: number | null,
    text: string,
    description: string,
  ) => ({
    kind: 'work',
    minutes,
    workType,
    date,
    text,
    description,
  });

  test('a duration alone, and with a type, a date and a description in either order', () => {
    expect(opsOf('work 2h')).toEqual([work(120, null, null, '', 'Add work 2h')]);
    expect(opsOf('work 1h30m Development 2026-11-20 fixed the parser')).toEqual([
      work(
        90,
        'Development',
        Date.UTC(2026, 10, 20),
        'fixed the parser',
        'Add work 1h 30m (Development, 2026-11-20): fixed the parser',
      ),
    ]);
    // The description ends at a keyword or link phrase; values are words like any other in it.
    expect(opsOf('work {1d 2h} 2026-11-20 reviewed it Fixed relates to PRJ-1')).toMatchObject([
      { minutes: 10 * 60, workType: null, text: 'reviewed it Fixed' },
      { kind: 'link', issueId: 'PRJ-1' },
    ]);
    expect(opsOf('work 45 Code Review vote')).toMatchObject([
      { kind: 'work', minutes: 45, workType: 'Code Review', text: '' },
      { kind: 'vote' },
    ]);
  });

  test('a bad duration or date is refused naming it', () => {
    const first = (text: string) => parseCommand(text, vocab).diagnostics[0]?.message;
    expect(first('work')).toBe('Duration expected after work, e.g. work 2h');
    expect(first('work soon')).toBe('work: [ soon ] is not a period (minutes or 1w 2d 3h 4m)');
    expect(first('work 0m')).toBe('work: the duration must be at least 1 minute');
    expect(first('work 2h 2026-13-45')).toBe(
      'work: [ 2026-13-45 ] is not a date (milliseconds or YYYY-MM-DD)',
    );
  });

  test('only where the project tracks time, and only for who may add work items', () => {
    const untracked = testVocabulary({ timeTracking: false });
    expect(parseCommand('work 2h', untracked).diagnostics[0]?.message).toBe(
      'Add work 2h: time tracking is not enabled in this project',
    );
    expect(suggestCommand('wor', 3, untracked, 10).map((s) => s.option)).not.toContain('work');
    expect(suggestCommand('wor', 3, vocab, 10).map((s) => s.option)).toContain('work');
    const cannot = testVocabulary({ can: { ...vocab.can, work: false } });
    expect(parseCommand('work 2h', cannot).diagnostics[0]?.message).toBe(
      'Add work 2h: you have no rights to add work items',
    );
  });

  test('suggests work types after the duration', () => {
    expect(suggestCommand('work 2h Dev', 11, vocab, 10).map((s) => s.option)).toEqual(['Development']);
  });
});

describe('field aliases: the prototype’s other names (add affects 1.0, the grammar page)', () => {
  const withAffected = testVocabulary({
    fields: [
      ...TEST_FIELDS.map((f) => (f.name === 'Fix versions' ? { ...f, aliases: ['fixed in'] } : f)),
      {
        name: 'Affected versions',
        kind: 'version',
        multi: true,
        canBeEmpty: true,
        values: [{ name: '1.0' }, { name: '2.0' }],
        aliases: ['affects'],
      },
    ],
  });

  test('add affects 1.0 adds to Affected versions, where the bare value is ambiguous', () => {
    expect(opsOf('add affects 1.0', withAffected)).toEqual([
      { kind: 'add', field: 'Affected versions', value: '1.0', description: 'Add 1.0 to Affected versions' },
    ]);
    expect(opsOf('affects 2.0 fixed in 1.0', withAffected)).toMatchObject([
      { kind: 'add', field: 'Affected versions', value: '2.0' },
      { kind: 'add', field: 'Fix versions', value: '1.0' },
    ]);
    expect(opsOf('remove affects 1.0', withAffected)).toMatchObject([
      { kind: 'remove', field: 'Affected versions' },
    ]);
    expect(parseCommand('add 1.0', withAffected).diagnostics[0]?.message).toMatch(/^Ambiguous value 1.0/);
    // The alias is highlighted as a field name.
    expect(parseCommand('add affects 1.0', withAffected).ranges.map((r) => r.style)).toEqual([
      'keyword',
      'field',
      'value',
    ]);
  });

  test('suggestions offer an alias as a field, described by the field it names', () => {
    const items = suggestCommand('add aff', 7, withAffected, 10);
    expect(items.map((s) => [s.option, s.description])).toContainEqual([
      'affects',
      'Affected versions (alias)',
    ]);
    expect(suggestCommand('Fixed', 5, withAffected, 10).map((s) => s.option)).toEqual(
      expect.arrayContaining(['Fixed', 'fixed in']),
    );
  });
});
