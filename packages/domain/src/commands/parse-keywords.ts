import { formatPeriod, parseSimpleValue } from '../values/simple-values.js';
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
    case 'work':
      return parseWork(p, head);
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

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * WorkCommand ::= 'work' Duration [WorkType] [Date] [Description]
 * Duration ::= Period ('2h', '1h30m', '90', '{1d 2h}'); WorkType ::= a known work type;
 * Date ::= YYYY-MM-DD (type and date in either order); Description ::= Word+ up to the next keyword | '{' words '}'
 */
function parseWork(p: CommandParser, head: HighlightRange): Part {
  const token = p.current;
  if (!token || token.kind === 'unknown')
    return failedPart(
      [head],
      p.reject('Duration expected after work, e.g. work 2h', (t) => `Not a duration: ${t}`),
    );
  const durationSpan = p.take(1, 'value');
  const duration = parseSimpleValue('period', p.textOf(durationSpan));
  if ('error' in duration || !duration.number)
    return failedPart(
      [head],
      errorAt(
        durationSpan,
        `work: ${'error' in duration ? duration.error : 'the duration must be at least 1 minute'}`,
      ),
    );
  const spans = [head, durationSpan];
  let workType: string | null = null;
  let date: number | null = null;
  for (let i = 0; i < 2; i++) {
    p.expect({ workTypes: workType === null });
    const type: { targets: string[]; span: HighlightRange } | undefined =
      workType === null ? p.read(p.lex.workTypes, 'value') : undefined;
    if (type?.targets[0] !== undefined) {
      workType = type.targets[0];
      spans.push(type.span);
      continue;
    }
    const key = p.keys[p.pos];
    if (date === null && p.current?.kind === 'word' && key && ISO_DAY.test(key)) {
      const span = p.take(1, 'value');
      const parsed = parseSimpleValue('date', key);
      if ('error' in parsed || parsed.number === null)
        return failedPart(spans, errorAt(span, `work: ${'error' in parsed ? parsed.error : 'no date'}`));
      date = parsed.number;
      spans.push(span);
      continue;
    }
    break;
  }
  const length = textLength(p, p.pos, false);
  const textSpan = length > 0 ? p.take(length, 'text') : undefined;
  const text = textSpan ? p.textOf(textSpan) : '';
  if (textSpan) spans.push(textSpan);
  const minutes = duration.number;
  const details = [workType, date === null ? null : new Date(date).toISOString().slice(0, 10)].filter(
    Boolean,
  );
  const description = `Add work ${formatPeriod(minutes)}${details.length ? ` (${details.join(', ')})` : ''}${text ? `: ${text}` : ''}`;
  return { spans, description, op: { kind: 'work', minutes, workType, date, text } };
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
  const newName = allowNew ? textLength(p, from) : 0;
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

/**
 * How many tokens a new tag's name or a text takes at `from`: one `{…}`, or the words up to the next
 * keyword, link phrase or issue id (`tag fix it this week vote`, `tag Reading depends on PRJ-2`). Field
 * names and values do not end it: they are ordinary words of a name or a description. The first word
 * is always taken when `firstAlways` (a new tag may be called anything).
 */
function textLength(p: CommandParser, from: number, firstAlways = true): number {
  const first = p.tokens[from];
  if (!first || first.kind === 'unknown' || !collapseSpaces(first.text)) return 0;
  if (first.kind === 'quoted') return 1;
  let end = from;
  while (p.tokens[end]?.kind === 'word' && ((end === from && firstAlways) || !startsKeyword(p, end))) end++;
  return end - from;
}

/** Whether a keyword, a link phrase or an issue id starts at token `pos`. */
function startsKeyword(p: CommandParser, pos: number): boolean {
  return (
    p.lex.keywords.match(p.tokens, p.keys, pos) !== undefined ||
    p.lex.links.match(p.tokens, p.keys, pos) !== undefined ||
    isIssueId(p.keys[pos])
  );
}

/** Whether the command part ends before token `pos`: the text ends, or another command starts there. */
function endsPart(p: CommandParser, pos: number): boolean {
  if (pos >= p.tokens.length) return true;
  return matchStart(p.lex, p.tokens, p.keys, pos) !== undefined || isIssueId(p.keys[pos]);
}
