import type { CommandOpKind } from './ops.js';
import type { CommandVocabulary } from './vocabulary.js';

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
  | 'comment';

export type Permission = keyof CommandVocabulary['can'];

/**
 * What follows each keyword, and so which production reads it: nothing (`vote`), a value of the
 * Assignee field (`for me`), an optional user (`star john`), a tag that may be new (`tag`) or must
 * exist (`untag`), or what a multi-value command takes (`add Fix versions 1.0`, `remove relates to X`).
 */
export type CommandArgument =
  | { argument: 'none'; op: 'vote' | 'unvote' | 'comment'; preview: string }
  | { argument: 'assignee' }
  | { argument: 'user'; op: 'star' | 'unstar' }
  | { argument: 'tag'; op: 'tag' | 'untag'; allowNew: boolean }
  | { argument: 'multi-target'; mode: 'add' | 'remove' };

export type CommandDefinition = CommandArgument & {
  /** Other phrases typed for the same command, matched like the keyword itself. */
  aliases: readonly string[];
  description: string;
  /** What the actor needs; null when it depends on what follows (`add`, `remove`). */
  permission: Permission | null;
};

/** The one table of command keywords; aliases live only here. */
export const COMMANDS: Record<CommandKeyword, CommandDefinition> = {
  for: {
    argument: 'assignee',
    aliases: ['assigned to'],
    description: 'Assign to a user',
    permission: 'update',
  },
  tag: {
    argument: 'tag',
    op: 'tag',
    allowNew: true,
    aliases: ['add tag'],
    description: 'Add a tag, creating it if new',
    permission: 'tag',
  },
  untag: {
    argument: 'tag',
    op: 'untag',
    allowNew: false,
    aliases: ['remove tag'],
    description: 'Remove a tag',
    permission: 'tag',
  },
  star: {
    argument: 'user',
    op: 'star',
    aliases: [],
    description: 'Star (for me or a user)',
    permission: 'star',
  },
  unstar: { argument: 'user', op: 'unstar', aliases: [], description: 'Remove the star', permission: 'star' },
  vote: {
    argument: 'none',
    op: 'vote',
    preview: 'Vote for the issue',
    aliases: [],
    description: 'Vote for the issue',
    permission: 'vote',
  },
  unvote: {
    argument: 'none',
    op: 'unvote',
    preview: 'Withdraw my vote',
    aliases: [],
    description: 'Withdraw my vote',
    permission: 'vote',
  },
  comment: {
    argument: 'none',
    op: 'comment',
    preview: 'Add comment',
    aliases: [],
    description: 'Add the comment text',
    permission: 'comment',
  },
  add: {
    argument: 'multi-target',
    mode: 'add',
    aliases: [],
    description: 'Add a value of a multi-value field, or a link',
    permission: null,
  },
  remove: {
    argument: 'multi-target',
    mode: 'remove',
    aliases: [],
    description: 'Remove a value of a multi-value field, or a link',
    permission: null,
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

/** What each permission allows, for "you have no rights to …" messages. */
export const PERMISSION_WHAT: Record<Permission, string> = {
  update: 'update issues',
  link: 'link issues',
  comment: 'comment on issues',
  tag: 'tag issues',
  vote: 'vote for issues',
  star: 'star issues',
};

/** The permission each operation needs. */
export const OP_PERMISSION: Record<CommandOpKind, Permission> = {
  set: 'update',
  add: 'update',
  remove: 'update',
  tag: 'tag',
  untag: 'tag',
  star: 'star',
  unstar: 'star',
  vote: 'vote',
  unvote: 'vote',
  link: 'link',
  unlink: 'link',
  comment: 'comment',
};

/** Longer commands are refused with one diagnostic, so hostile input costs nothing. */
export const MAX_COMMAND_LENGTH = 2000;
