import { describe, expect, it } from 'vitest';
import { branchMatches } from './branch-filter.js';
import { parseCommitMessage } from './parse-commit-message.js';

describe('parseCommitMessage', () => {
  it.each([
    ['no reference', 'Update README', []],
    ['id alone: comment only', 'Fix #TL-1', [{ issue: 'TL-1', commands: [] }]],
    ['rest of the line is the command', '#TL-1 Fixed', [{ issue: 'TL-1', commands: ['Fixed'] }]],
    ['command trimmed', '  #TL-1    for me   ', [{ issue: 'TL-1', commands: ['for me'] }]],
    ['after a space mid-line', 'Done #TL-2 tag perf', [{ issue: 'TL-2', commands: ['tag perf'] }]],
    ['not glued to a word', 'see foo#TL-3 Fixed', []],
    ['not glued to more digits or letters', '#TL-3x Fixed', []],
    ['only the first id of a line', '#A-1 #B-2 Fixed', [{ issue: 'A-1', commands: ['#B-2 Fixed'] }]],
    [
      'one entry per issue, commands in order, duplicates once',
      'Title\n\n#TL-1 In Progress\n#tl-1 tag x\r\n#TL-1 In Progress\n#TL-2',
      [
        { issue: 'TL-1', commands: ['In Progress', 'tag x'] },
        { issue: 'TL-2', commands: [] },
      ],
    ],
    ['underscores and digits in the project', '#MY_P2-17 vote', [{ issue: 'MY_P2-17', commands: ['vote'] }]],
  ])('%s', (_name, message, expected) => {
    expect(parseCommitMessage(message)).toEqual(expected);
  });
});

describe('branchMatches', () => {
  it.each([
    ['', 'main', true],
    ['main', 'main', true],
    ['main develop', 'develop', true],
    ['main', 'main2', false],
    ['release/*', 'release/1.2', true],
    ['release/*', 'hotfix/1.2', false],
    ['refs/heads/main', 'main', true],
    ['a.b', 'axb', false],
  ])('filter %j, branch %j → %s', (filter, branch, expected) => {
    expect(branchMatches(filter, branch)).toBe(expected);
  });
});
