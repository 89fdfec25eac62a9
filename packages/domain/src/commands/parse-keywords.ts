import { COMMANDS, type CommandKeyword } from './definitions.js';
import { isIssueId, matchStart } from './lexicon.js';
import { parseMultipleCommand, readFieldValue } from './parse-fields.js';
import type { CommandParser } from './parser.js';
import { errorAt, failedPart, type Part } from './part.js';
import type { HighlightRange } from './result.js';
import { collapseSpaces } from './token.js';

/** KeywordCommand ::= Keyword <what its definition says follows> */
export function parseKeywordCommand(p: CommandParser, keyword: CommandKeyword, length: number): Part {
  const head = p.take(length, 'keyword');
  const definition = COMMANDS[keyword];
  switch (definition.argument) {
    case 'none':
      return { spans: [head], description: definition.preview, op: { kind: definition.op } };
    case 'assignee':
      return parseAssign(p, head);
    case 'user':
      return parseStar(p, definition.op, head);
    case 'tag':
      return parseTag(p, definition.op, definition.allowNew, [head]);
    case 'multi-target':
      return parseMultipleCommand(p, definition.mode, head);
    case 'group':
      return parseVisibility(p, definition.op, head);
  }
}

/** AssignCommand ::= ('for' | 'assigned to') Value   (of the Assignee field: `me`, a login, Unassigned) */
function parseAssign(p: CommandParser, head: HighlightRange): Part {
  const entry = p.lex.assignee;
  if (!entry) return failedPart([], errorAt(head, 'There is no Assignee field to set here'));
  const value = readFieldValue(p, entry);
  if ('error' in value) return failedPart([head], value);
  const field = entry.field.name;
  const op = { kind: 'set' as const, field, value: value.target.value };
  return { spans: [head, value.span], description: `Set ${field} to ${value.target.display}`, op };
}

/** StarCommand ::= ('star' | 'unstar') [ 'me' | Login | FullName ] */
function parseStar(p: CommandParser, kind: 'star' | 'unstar', head: HighlightRange): Part {
  p.expect({ users: true });
  const read = p.read(p.lex.users, 'value');
  const logins = [...new Set(read?.targets)];
  if (read && logins.length > 1) {
    return failedPart(
      [head],
      errorAt(read.span, `Several users match ${p.textOf(read.span)}: type the login`),
    );
  }
  const login = logins[0] ?? p.lex.vocab.me;
  const spans = read ? [head, read.span] : [head];
  return { spans, description: `${kind === 'star' ? 'Star' : 'Unstar'} for ${login}`, op: { kind, login } };
}

/** VisibilityCommand ::= ('visible to' | 'remove visible to') GroupName */
function parseVisibility(
  p: CommandParser,
  kind: 'visibleTo' | 'removeVisibleTo',
  head: HighlightRange,
): Part {
  p.expect({ groups: true });
  const read = p.read(p.lex.groups, 'value');
  const group = read?.targets[0];
  if (read && group !== undefined) {
    const description =
      kind === 'visibleTo'
        ? `Make visible to ${group} only`
        : `Remove the visibility restriction to ${group}`;
    return { spans: [head, read.span], description, op: { kind, group } };
  }
  const phrase = kind === 'visibleTo' ? 'visible to' : 'remove visible to';
  return failedPart(
    [head],
    p.reject(`Group expected after ${phrase}`, (text) => `Unknown group: ${text}`),
  );
}

/**
 * TagCommand ::= 'tag' (TagName | NewTagName) | 'untag' TagName
 * NewTagName ::= Word+ (up to the next keyword) | '{' words '}'
 *
 * An existing tag is read when the command goes on after it (or ends); otherwise `tag` takes the
 * rest of the command up to the next keyword as a new tag's name (`tag fix it this week`).
 */
function parseTag(p: CommandParser, kind: 'tag' | 'untag', allowNew: boolean, head: HighlightRange[]): Part {
  p.expect({ tags: true });
  const from = p.pos;
  const existing = p.lex.tags.match(p.tokens, p.keys, p.pos);
  const tag = existing?.targets[0];
  const after = from + (existing?.length ?? 0);
  const newName = allowNew ? newTagLength(p, from) : 0;
  if (existing && tag !== undefined && (!allowNew || newName <= existing.length || endsPart(p, after))) {
    const span = p.take(existing.length, 'value');
    return {
      spans: [...head, span],
      description: `${kind === 'tag' ? 'Add' : 'Remove'} tag ${tag}`,
      op: { kind, tag },
    };
  }
  if (newName > 0) {
    const span = p.take(newName, 'text');
    const name = p.textOf(span);
    return { spans: [...head, span], description: `Add new tag ${name}`, op: { kind: 'tag', tag: name } };
  }
  return failedPart(
    head,
    p.reject(`Tag name expected after ${kind}`, (text) => `Unknown tag: ${text}`),
  );
}

/** How many tokens a new tag's name takes at `from`: one `{…}`, or the words before the next keyword. */
function newTagLength(p: CommandParser, from: number): number {
  const first = p.tokens[from];
  if (!first || first.kind === 'unknown' || !collapseSpaces(first.text)) return 0;
  if (first.kind === 'quoted') return 1;
  let end = from;
  while (p.tokens[end]?.kind === 'word' && (end === from || !p.lex.keywords.match(p.tokens, p.keys, end)))
    end++;
  return end - from;
}

/** Whether the command part ends before token `pos`: the text ends, or another command starts there. */
function endsPart(p: CommandParser, pos: number): boolean {
  if (pos >= p.tokens.length) return true;
  return matchStart(p.lex, p.tokens, p.keys, pos) !== undefined || isIssueId(p.keys[pos]);
}
