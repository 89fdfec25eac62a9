import type { CommandOpKind } from './ops.js';
import { type Capability, COMMAND_OP_REQUIREMENTS } from './requirements.js';

/** The command keywords. Phrases that mean the same command are aliases in `COMMANDS`. */
export type CommandKeyword =
  | 'for'
  | 'tag'
  | 'untag'
  | 'star'
  | 'unstar'
  | 'vote'
  | 'unvote'
  | 'add'
  | 'remove'
  | 'comment'
  | 'delete'
  | 'visible to'
  | 'remove visible to'
  | 'work';

/**
 * What follows each keyword, and so which production reads it: nothing (`vote`), a value of the
 * Assignee field (`for me`), an optional user (`star john`), a tag that may be new (`tag`) or must
 * exist (`untag`), or what a multi-value command takes (`add Fix versions 1.0`, `remove relates to X`).
 */
export type CommandArgument =
  | { argument: 'none'; op: 'vote' | 'unvote' | 'comment' | 'delete'; preview: string }
  | { argument: 'assignee' }
  | { argument: 'user'; op: 'star' | 'unstar' }
  | { argument: 'tag'; op: 'tag' | 'untag'; allowNew: boolean }
  | { argument: 'group'; op: 'visibleTo' | 'removeVisibleTo' }
  | { argument: 'work'; op: 'work' }
  | { argument: 'multi-target'; mode: 'add' | 'remove' };

export type CommandDefinition = CommandArgument & {
  /** Other phrases typed for the same command, matched like the keyword itself. */
  aliases: readonly string[];
  description: string;
};

/** The one table of command keywords; aliases live only here. */
export const COMMANDS: Record<CommandKeyword, CommandDefinition> = {
  for: {
    argument: 'assignee',
    aliases: ['assigned to'],
    description: 'Assign to a user',
  },
  tag: {
    argument: 'tag',
    op: 'tag',
    allowNew: true,
    aliases: ['add tag'],
    description: 'Add a tag, creating it if new',
  },
  untag: {
    argument: 'tag',
    op: 'untag',
    allowNew: false,
    aliases: ['remove tag'],
    description: 'Remove a tag',
  },
  star: {
    argument: 'user',
    op: 'star',
    aliases: [],
    description: 'Star (for me or a user)',
  },
  unstar: { argument: 'user', op: 'unstar', aliases: [], description: 'Remove the star' },
  vote: {
    argument: 'none',
    op: 'vote',
    preview: 'Vote for the issue',
    aliases: [],
    description: 'Vote for the issue',
  },
  unvote: {
    argument: 'none',
    op: 'unvote',
    preview: 'Withdraw my vote',
    aliases: [],
    description: 'Withdraw my vote',
  },
  comment: {
    argument: 'none',
    op: 'comment',
    preview: 'Add comment',
    aliases: [],
    description: 'Add the comment text',
  },
  delete: {
    argument: 'none',
    op: 'delete',
    preview: 'Delete the issue',
    aliases: [],
    description: 'Delete the issue',
  },
  'visible to': {
    argument: 'group',
    op: 'visibleTo',
    aliases: [],
    description: 'Let only a group read the issue',
  },
  'remove visible to': {
    argument: 'group',
    op: 'removeVisibleTo',
    aliases: [],
    description: 'Lift the restriction to a group',
  },
  work: {
    argument: 'work',
    op: 'work',
    aliases: [],
    description: 'Add spent time: work 2h [type] [date] [description]',
  },
  add: {
    argument: 'multi-target',
    mode: 'add',
    aliases: [],
    description: 'Add a value of a multi-value field, or a link',
  },
  remove: {
    argument: 'multi-target',
    mode: 'remove',
    aliases: [],
    description: 'Remove a value of a multi-value field, or a link',
  },
};

export const COMMAND_KEYWORDS = Object.keys(COMMANDS) as CommandKeyword[];

/**
 * Words the command language gives a meaning of its own, whatever the vocabulary: the
 * keywords, their aliases, and `me`. Other names (link phrases) must not take them over.
 */
export const RESERVED_COMMAND_PHRASES: readonly string[] = [
  ...COMMAND_KEYWORDS.flatMap((keyword) => [keyword, ...COMMANDS[keyword].aliases]),
  'me',
];

/** The operation a keyword produces; null when it depends on what follows (`add`, `remove`). */
export function keywordOp(keyword: CommandKeyword): CommandOpKind | null {
  const definition = COMMANDS[keyword];
  switch (definition.argument) {
    case 'assignee':
      return 'set';
    case 'multi-target':
      return null;
    default:
      return definition.op;
  }
}

/** What the actor needs to be offered a keyword (see commands/requirements.ts); null: it depends. */
export function keywordCapability(keyword: CommandKeyword): Capability | null {
  const op = keywordOp(keyword);
  return op && COMMAND_OP_REQUIREMENTS[op].capability;
}

/** Longer commands are refused with one diagnostic, so hostile input costs nothing. */
export { MAX_COMMAND_LENGTH } from '@trackline/contracts';
