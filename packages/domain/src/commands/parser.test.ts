import { TEST_FIELDS, testVocabulary, vocabularyWithout } from '@trackline/domain/testing';
import { describe, expect, test } from 'vitest';
import type { CommandOp } from './ops.js';
import { parseCommand } from './parser.js';
import type { CommandVocabulary, VocabularyField } from './vocabulary.js';

const vocab = testVocabulary();

type OpWithoutRange = CommandOp extends infer O ? (O extends unknown ? Omit<O, 'range'> : never) : never;

function opsOf(text: string, v: CommandVocabulary = vocab): OpWithoutRange[] {
  return parseCommand(text, v).ops.map(({ range: _, ...op }) => op);
}

/** Highlighting as `[typed text, style]` pairs. */
function rangesOf(text: string, v: CommandVocabulary = vocab): [string, string][] {
  return parseCommand(text, v).ranges.map((r) => [text.slice(r.start, r.end), r.style]);
}

const set = (field: string, value: string | null, shown = value) => ({
  kind: 'set',
  field,
  value,
  description: `Set ${field} to ${shown}`,
});
const add = (field: string, value: string) => ({
  kind: 'add',
  field,
  value,
  description: `Add ${value} to ${field}`,
});
const remove = (field: string, value: string) => ({
  kind: 'remove',
  field,
  value,
  description: `Remove ${value} from ${field}`,
});
const link = (linkType: string, outward: boolean, issueId: string, phrase: string) => ({
  kind: 'link',
  linkType,
  outward,
  issueId,
  description: `Link to ${issueId} (${phrase})`,
});

describe('parseCommand: operations', () => {
  test.each([
    ['Fixed', [set('State', 'Fixed')]],
    ['state fixed', [set('State', 'Fixed')]],
    ['STATE FIXED', [set('State', 'Fixed')]],
    ['State To be discussed', [set('State', 'To be discussed')]],
    ['to be discussed', [set('State', 'To be discussed')]],
    ["won't fix", [set('State', "Won't fix")]],
    ['State {In Progress}', [set('State', 'In Progress')]],
    ['{in progress}', [set('State', 'In Progress')]],
    ['Priority Critical', [set('Priority', 'Critical')]],
    ['show-stopper', [set('Priority', 'Show-stopper')]],
    ['subsystem Documentation', [set('Subsystem', 'Documentation')]],
    ['Fix versions 1.0', [add('Fix versions', '1.0')]],
    ['1.0', [add('Fix versions', '1.0')]],
    ['add Fix versions 1.0', [add('Fix versions', '1.0')]],
    ['add 5.1', [add('Fix versions', '5.1')]],
    ['remove Fix versions 1.0', [remove('Fix versions', '1.0')]],
    ['remove 2.0', [remove('Fix versions', '2.0')]],
    ['for me', [set('Assignee', 'root')]],
    ['for john.doe', [set('Assignee', 'john.doe')]],
    ['for John Doe', [set('Assignee', 'john.doe')]],
    ['assigned to jane', [set('Assignee', 'jane')]],
    ['Assignee me', [set('Assignee', 'root')]],
    ['john.doe', [set('Assignee', 'john.doe')]],
    ['Assignee Unassigned', [set('Assignee', null, 'Unassigned')]],
    ['unassigned', [set('Assignee', null, 'Unassigned')]],
    ['for Unassigned', [set('Assignee', null, 'Unassigned')]],
    ['Subsystem No subsystem', [set('Subsystem', null, 'No subsystem')]],
    ['no subsystem', [set('Subsystem', null, 'No subsystem')]],
    ['tag regression', [{ kind: 'tag', tag: 'regression', description: 'Add tag regression' }]],
    ['tag TODO', [{ kind: 'tag', tag: 'Todo', description: 'Add tag Todo' }]],
    [
      'tag fix it this week',
      [{ kind: 'tag', tag: 'fix it this week', description: 'Add tag fix it this week' }],
    ],
    ['tag brand-new', [{ kind: 'tag', tag: 'brand-new', description: 'Add new tag brand-new' }]],
    ['tag {brand  new}', [{ kind: 'tag', tag: 'brand new', description: 'Add new tag brand new' }]],
    ['add tag Todo', [{ kind: 'tag', tag: 'Todo', description: 'Add tag Todo' }]],
    ['untag Todo', [{ kind: 'untag', tag: 'Todo', description: 'Remove tag Todo' }]],
    [
      'remove tag fix it this week',
      [{ kind: 'untag', tag: 'fix it this week', description: 'Remove tag fix it this week' }],
    ],
    ['star', [{ kind: 'star', login: 'root', description: 'Star for root' }]],
    ['star jane', [{ kind: 'star', login: 'jane', description: 'Star for jane' }]],
    ['star Jane Smith', [{ kind: 'star', login: 'jane', description: 'Star for jane' }]],
    ['unstar me', [{ kind: 'unstar', login: 'root', description: 'Unstar for root' }]],
    ['vote', [{ kind: 'vote', description: 'Vote for the issue' }]],
    ['unvote', [{ kind: 'unvote', description: 'Withdraw my vote' }]],
    ['comment', [{ kind: 'comment', description: 'Add comment' }]],
    ['relates to PRJ-1', [link('Relates', true, 'PRJ-1', 'relates to')]],
    ['relates to prj-1', [link('Relates', true, 'PRJ-1', 'relates to')]],
    ['depends on ABC-12', [link('Depend', true, 'ABC-12', 'depends on')]],
    ['is required for PRJ-2', [link('Depend', false, 'PRJ-2', 'is required for')]],
    ['duplicates PRJ-1', [link('Duplicate', true, 'PRJ-1', 'duplicates')]],
    ['is duplicated by PRJ-1', [link('Duplicate', false, 'PRJ-1', 'is duplicated by')]],
    ['subtask of PRJ-2', [link('Subtask', false, 'PRJ-2', 'subtask of')]],
    ['parent for PRJ-3', [link('Subtask', true, 'PRJ-3', 'parent for')]],
    ['add relates to xyz-7', [link('Relates', true, 'XYZ-7', 'relates to')]],
    [
      'remove relates to PRJ-1',
      [
        {
          kind: 'unlink',
          linkType: 'Relates',
          outward: true,
          issueId: 'PRJ-1',
          description: 'Remove link to PRJ-1 (relates to)',
        },
      ],
    ],
    [
      'Type Bug Priority Critical add Fix versions 5.1 tag regression',
      [
        set('Type', 'Bug'),
        set('Priority', 'Critical'),
        add('Fix versions', '5.1'),
        { kind: 'tag', tag: 'regression', description: 'Add tag regression' },
      ],
    ],
    [
      'type cosmetics tag fix it this week',
      [
        set('Type', 'Cosmetics'),
        { kind: 'tag', tag: 'fix it this week', description: 'Add tag fix it this week' },
      ],
    ],
    ['assigned to me priority major', [set('Assignee', 'root'), set('Priority', 'Major')]],
    [
      'Fixed star vote comment',
      [
        set('State', 'Fixed'),
        { kind: 'star', login: 'root', description: 'Star for root' },
        { kind: 'vote', description: 'Vote for the issue' },
        { kind: 'comment', description: 'Add comment' },
      ],
    ],
    ['', []],
  ])('%j', (text, expected) => {
    expect(opsOf(text)).toEqual(expected);
    expect(parseCommand(text, vocab).diagnostics).toEqual([]);
  });

  test('gives each operation the range of its command', () => {
    const text = 'Type Bug  relates to PRJ-1 tag {fix it this week}';
    expect(parseCommand(text, vocab).ops.map((op) => text.slice(op.range.start, op.range.end))).toEqual([
      'Type Bug',
      'relates to PRJ-1',
      'tag {fix it this week}',
    ]);
  });
});

describe('parseCommand: highlighting', () => {
  test.each([
    [
      'State Fixed',
      [
        ['State', 'field'],
        ['Fixed', 'value'],
      ],
    ],
    [
      'Fix versions 1.0',
      [
        ['Fix versions', 'field'],
        ['1.0', 'value'],
      ],
    ],
    [
      'State {In Progress}',
      [
        ['State', 'field'],
        ['{In Progress}', 'string'],
      ],
    ],
    [
      'for me',
      [
        ['for', 'keyword'],
        ['me', 'value'],
      ],
    ],
    [
      'assigned to me',
      [
        ['assigned to', 'keyword'],
        ['me', 'value'],
      ],
    ],
    [
      'remove tag Todo',
      [
        ['remove tag', 'keyword'],
        ['Todo', 'value'],
      ],
    ],
    [
      'tag newone',
      [
        ['tag', 'keyword'],
        ['newone', 'text'],
      ],
    ],
    [
      'relates to PRJ-1',
      [
        ['relates to', 'keyword'],
        ['PRJ-1', 'value'],
      ],
    ],
    [
      'remove Fix versions 1.0',
      [
        ['remove', 'keyword'],
        ['Fix versions', 'field'],
        ['1.0', 'value'],
      ],
    ],
    [
      'foo bar Fixed',
      [
        ['foo bar', 'error'],
        ['Fixed', 'value'],
      ],
    ],
    [
      'State Fxed Open',
      [
        ['State', 'field'],
        ['Fxed', 'error'],
        ['Open', 'value'],
      ],
    ],
    ['State', [['State', 'field']]],
  ])('%j', (text, expected) => {
    expect(rangesOf(text)).toEqual(expected);
  });
});

describe('parseCommand: diagnostics', () => {
  test.each([
    ['State', 5, 5, 'Value expected for State'],
    ['State Fxed', 6, 10, 'Unknown State value: Fxed'],
    ['Priority Fixed', 9, 14, 'Unknown Priority value: Fixed'],
    ['foo bar', 0, 7, 'Unknown command: foo bar'],
    ['Fixed foo', 6, 9, 'Unknown command: foo'],
    ['PRJ-1', 0, 5, 'Issue id PRJ-1 needs a link command before it, e.g. relates to PRJ-1'],
    ['relates to', 10, 10, 'Issue id expected after relates to'],
    ['relates to banana', 11, 17, 'Not an issue id: banana (expected e.g. PRJ-12)'],
    ['untag nope', 6, 10, 'Unknown tag: nope'],
    ['untag', 5, 5, 'Tag name expected after untag'],
    ['for nobody', 4, 10, 'Unknown Assignee value: nobody'],
    ['for', 3, 3, 'Value expected for Assignee'],
    ['add Critical', 4, 12, 'Priority takes a single value: write Priority Critical without add'],
    ['add State Fixed', 4, 9, 'State takes a single value: write State Fixed without add'],
    ['remove', 6, 6, 'Field, value or link expected after remove'],
    ['add banana', 4, 10, 'Unknown field, value or link after add: banana'],
    ['State {In Progress', 6, 18, 'Missing } to close the {…} value'],
    ['State }', 6, 7, 'Unexpected }: braces only close a {…} value'],
    ['} Fixed', 0, 1, 'Unexpected }: braces only close a {…} value'],
    ['Fixed \u0001', 6, 7, 'Unexpected control character'],
    ['{comment}', 0, 9, 'Unknown command: comment'],
    ['state verified PRJ-2', 15, 20, 'Issue id PRJ-2 needs a link command before it, e.g. relates to PRJ-2'],
  ])('%j', (text, start, end, message) => {
    expect(parseCommand(text, vocab).diagnostics).toEqual([{ start, end, message }]);
  });

  test('underlines the unknown words once, as one range, and keeps parsing after them', () => {
    const result = parseCommand('please make it Fixed now', vocab);
    expect(result.ranges.map((r) => r.style)).toEqual(['error', 'value', 'error']);
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      'Unknown command: please make it',
      'Unknown command: now',
    ]);
    expect(result.ops.map((op) => op.description)).toEqual(['Set State to Fixed']);
  });
});

describe('parseCommand: ambiguity', () => {
  const field = (
    name: string,
    kind: VocabularyField['kind'],
    multi: boolean,
    ...names: string[]
  ): VocabularyField => ({
    name,
    kind,
    multi,
    canBeEmpty: true,
    values: names.map((n) => ({ name: n })),
  });
  const extended = testVocabulary({
    fields: [
      ...TEST_FIELDS,
      field('Affected versions', 'version', true, '1.0', '3.0'),
      field('Resolution', 'enum', false, 'Fixed', 'Obsolete'),
      field('Severity', 'enum', false, 'Major', 'Low'),
      field('Reviewer', 'user', false),
      field('Fixed in build', 'version', false, '123', '124'),
    ],
    users: [...testVocabulary().users, { login: 'low', fullName: 'Lowell Smith' }],
    tags: [{ name: 'fix it' }, { name: 'fix it this week' }],
  });

  test.each([
    ['a state word goes to the state field', 'Fixed', [set('State', 'Fixed')]],
    ['the other field takes it by name', 'Resolution Fixed', [set('Resolution', 'Fixed')]],
    ['an enum value wins over a login', 'low', [set('Severity', 'Low')]],
    ['a login goes to Assignee over other user fields', 'jane', [set('Assignee', 'jane')]],
    ['a user field takes a login by name', 'Reviewer jane', [set('Reviewer', 'jane')]],
    ['a value only one field has', '3.0', [add('Affected versions', '3.0')]],
    ['the longest name wins: a field name', 'Fixed in build 123', [set('Fixed in build', '123')]],
    ['a shorter name when the longer does not match', 'Fixed in', [set('State', 'Fixed')]],
    ['the field name settles an ambiguous value', 'Severity Major', [set('Severity', 'Major')]],
    [
      'the field name settles an ambiguous version',
      'Affected versions 1.0',
      [add('Affected versions', '1.0')],
    ],
    [
      'the longest tag wins',
      'tag fix it this week',
      [{ kind: 'tag', tag: 'fix it this week', description: 'Add tag fix it this week' }],
    ],
    [
      'words going on past an existing tag name a new tag (up to the next keyword)',
      'tag fix it now',
      [{ kind: 'tag', tag: 'fix it now', description: 'Add new tag fix it now' }],
    ],
    [
      'a shorter tag when another command follows it',
      'tag fix it Fixed',
      [{ kind: 'tag', tag: 'fix it', description: 'Add tag fix it' }, set('State', 'Fixed')],
    ],
  ])('%s: %j', (_, text, expected) => {
    expect(opsOf(text, extended)).toEqual(expected);
  });

  test.each([
    [
      'Major',
      'Ambiguous value Major: it belongs to Priority and Severity; write the field name first, e.g. Priority Major',
    ],
    [
      '1.0',
      'Ambiguous value 1.0: it belongs to Fix versions and Affected versions; write the field name first, e.g. Fix versions 1.0',
    ],
    [
      'add 1.0',
      'Ambiguous value 1.0: it belongs to Fix versions and Affected versions; write the field name first, e.g. Fix versions 1.0',
    ],
  ])('reports %j as ambiguous, underlining the value', (text, message) => {
    const result = parseCommand(text, extended);
    expect(result.ops).toEqual([]);
    const start = text.lastIndexOf(' ') + 1;
    expect(result.diagnostics).toEqual([{ start, end: text.length, message }]);
    expect(result.ranges.at(-1)).toEqual({ start, end: text.length, style: 'error' });
  });
});

describe('parseCommand: permissions', () => {
  test.each([
    ['relates to PRJ-1', 'link', 'Link to PRJ-1 (relates to): you have no rights to link issues'],
    [
      'remove relates to PRJ-1',
      'link',
      'Remove link to PRJ-1 (relates to): you have no rights to link issues',
    ],
    ['State Fixed', 'update', 'Set State to Fixed: you have no rights to update issues'],
    ['for me', 'update', 'Set Assignee to root: you have no rights to update issues'],
    ['tag regression', 'tag', 'Add tag regression: you have no rights to tag issues'],
    ['comment', 'comment', 'Add comment: you have no rights to comment on issues'],
    ['vote', 'vote', 'Vote for the issue: you have no rights to vote for issues'],
    ['star jane', 'star', 'Star for jane: you have no rights to star issues'],
  ] as const)('%j without %s', (text, permission, message) => {
    const result = parseCommand(text, vocabularyWithout(permission));
    expect(result.ops).toEqual([]);
    expect(result.diagnostics).toEqual([{ start: 0, end: text.length, message }]);
    expect(result.commands).toEqual([{ description: message, error: true }]);
    expect(result.ranges.every((r) => r.style === 'error')).toBe(true);
  });

  test('keeps the commands the actor may apply', () => {
    const result = parseCommand('State Fixed relates to PRJ-1 tag regression', vocabularyWithout('link'));
    expect(result.ops.map((op) => op.kind)).toEqual(['set', 'tag']);
    expect(result.commands.map((c) => c.error)).toEqual([false, true, false]);
  });
});

describe('parseCommand: preview and limits', () => {
  test('has one preview entry per parsed part', () => {
    expect(parseCommand('Type Bug relates to PRJ-1 foo add 1.0', vocab).commands).toEqual([
      { description: 'Set Type to Bug', error: false },
      { description: 'Link to PRJ-1 (relates to)', error: false },
      { description: 'Unknown command: foo', error: true },
      { description: 'Add 1.0 to Fix versions', error: false },
    ]);
  });

  test('refuses a too long command with one diagnostic', () => {
    const text = 'Fixed '.repeat(400);
    const result = parseCommand(text, vocab);
    expect(result.ops).toEqual([]);
    expect(result.diagnostics).toEqual([
      { start: 0, end: text.length, message: 'Command is too long: 2400 characters (at most 2000)' },
    ]);
  });

  test('parses a command just under the limit', () => {
    expect(parseCommand('Fixed '.repeat(333), vocab).ops).toHaveLength(333);
  });
});
