import { MAX_COMMAND_LENGTH } from './definitions.js';
import {
  type FieldEntry,
  isIssueId,
  type Lexicon,
  lexiconOf,
  matchStart,
  type StartMatch,
} from './lexicon.js';
import type { CommandOp } from './ops.js';
import { parseAttributeCommand, parseValueCommand } from './parse-fields.js';
import { parseKeywordCommand } from './parse-keywords.js';
import { parseLinkCommand } from './parse-links.js';
import type { Part, Rejection } from './part.js';
import type { PhraseIndex } from './phrase-index.js';
import { COMMAND_OP_REQUIREMENTS, NO_TIME_TRACKING } from './requirements.js';
import type { HighlightRange, HighlightStyle, ParseResult } from './result.js';
import { MISSING_CLOSE, scan } from './scanner.js';
import { collapseSpaces, type Token, tokenKey } from './token.js';
import type { CommandVocabulary } from './vocabulary.js';

/** What may be typed at a token position; the suggester offers exactly this. */
export type Expectation = {
  command?: boolean;
  /** A value of this field. */
  field?: FieldEntry;
  /** The optional user of `star`/`unstar`. */
  users?: boolean;
  tags?: boolean;
  /** A group name (`visible to`). */
  groups?: boolean;
  /** A work type (`work 2h`). */
  workTypes?: boolean;
  issueIds?: boolean;
  /** What `add`/`remove` take: a multi-value field or value, or a link phrase. */
  multi?: boolean;
};

/**
 * Parses a command into operations, highlighting, diagnostics and a preview. Case-insensitive
 * and tolerant: never throws, and a part it cannot read is reported and skipped.
 */
export function parseCommand(text: string, vocab: CommandVocabulary): ParseResult {
  const source = typeof text === 'string' ? text : '';
  if (source.length > MAX_COMMAND_LENGTH) {
    const message = `Command is too long: ${source.length} characters (at most ${MAX_COMMAND_LENGTH})`;
    const error = { start: 0, end: source.length, message };
    const commands = [{ description: message, error: true }];
    return { ops: [], ranges: [{ ...error, style: 'error' }], diagnostics: [error], commands };
  }
  return runParser(scan(source).tokens, lexiconOf(vocab), source.length).result;
}

export function runParser(tokens: readonly Token[], lex: Lexicon, textEnd: number): CommandParser {
  const parser = new CommandParser(tokens, lex, textEnd);
  parser.parseCommandList();
  return parser;
}

/** Recursive descent over the tokens; the productions live in `parse-*.ts`. */
export class CommandParser {
  pos = 0;
  readonly keys: string[];
  /** What could be typed before each token, and at the end (index `tokens.length`). */
  readonly expectAt: (Expectation | undefined)[] = [];
  readonly result: ParseResult = { ops: [], ranges: [], diagnostics: [], commands: [] };
  private lookahead: { pos: number; match: StartMatch | undefined } | undefined;

  constructor(
    readonly tokens: readonly Token[],
    readonly lex: Lexicon,
    readonly textEnd: number,
  ) {
    this.keys = tokens.map(tokenKey);
  }

  get current(): Token | undefined {
    return this.tokens[this.pos];
  }

  expect(what: Expectation): void {
    this.expectAt[this.pos] = { ...this.expectAt[this.pos], ...what };
  }

  /** Consumes `length` tokens as one span; a `{…}` value is styled as a string. */
  take(length: number, style: HighlightStyle): HighlightRange {
    const first = this.tokens[this.pos];
    const last = this.tokens[this.pos + length - 1];
    this.pos += length;
    const quoted = length === 1 && first?.kind === 'quoted' && (style === 'value' || style === 'text');
    return {
      start: first?.range.start ?? this.textEnd,
      end: last?.range.end ?? this.textEnd,
      style: quoted ? 'string' : style,
    };
  }

  /** Consumes the longest name of `index` here, if there is one. */
  read<T>(index: PhraseIndex<T>, style: HighlightStyle): { targets: T[]; span: HighlightRange } | undefined {
    const match = index.match(this.tokens, this.keys, this.pos);
    return match && { targets: match.targets, span: this.take(match.length, style) };
  }

  /** The text of a span just taken, as typed, braces left out. */
  textOf(span: HighlightRange): string {
    const words: string[] = [];
    for (let i = this.pos - 1; i >= 0; i--) {
      const token = this.tokens[i];
      if (!token || token.range.start < span.start) break;
      words.unshift(collapseSpaces(token.text));
    }
    return words.join(' ');
  }

  /** Refuses the token here as an argument, consuming it, or reports `missing` at the end. */
  reject(missing: string, unknown: (text: string) => string): Rejection {
    const token = this.current;
    if (!token)
      return { error: { start: this.textEnd, end: this.textEnd, message: missing }, incomplete: true };
    const span = this.take(1, 'error');
    const message = token.kind === 'unknown' ? token.message : unknown(token.text.trim());
    return { error: { start: span.start, end: span.end, message }, span };
  }

  /** CommandList ::= Command* */
  parseCommandList(): void {
    let complete = true;
    for (;;) {
      if (complete) this.expect({ command: true });
      if (this.pos >= this.tokens.length) return;
      const from = this.pos;
      complete = this.commit(from, this.parseCommand());
    }
  }

  private startMatch(): StartMatch | undefined {
    if (this.lookahead?.pos !== this.pos) {
      this.lookahead = { pos: this.pos, match: matchStart(this.lex, this.tokens, this.keys, this.pos) };
    }
    return this.lookahead.match;
  }

  /** Command ::= KeywordCommand | LinkCommand | AttributeCommand | Value | Unknown */
  private parseCommand(): Part {
    const match = this.startMatch();
    if (!match) return isIssueId(this.keys[this.pos]) ? this.parseIssueIdAfterValue() : this.parseUnknown();
    switch (match.kind) {
      case 'keyword':
        return parseKeywordCommand(this, match.keyword, match.length);
      case 'link':
        return parseLinkCommand(this, match.link, match.length, 'link', []);
      case 'field':
        return parseAttributeCommand(this, match.field, match.length, 'set', []);
      case 'value':
        return parseValueCommand(this, match.targets, match.length, 'set', []);
    }
  }

  /** Unknown ::= <tokens that start no command>+, reported once */
  private parseUnknown(): Part {
    const from = this.pos;
    do {
      this.pos++;
      this.expect({ command: true });
    } while (this.pos < this.tokens.length && !this.startMatch() && !isIssueId(this.keys[this.pos]));
    const tokens = this.tokens.slice(from, this.pos);
    const span = {
      start: tokens[0]?.range.start ?? 0,
      end: tokens.at(-1)?.range.end ?? 0,
      style: 'error' as const,
    };
    const single = tokens.length === 1 && tokens[0]?.kind === 'unknown' ? tokens[0].message : undefined;
    const message = single ?? `Unknown command: ${clip(tokens.map((t) => t.text).join(' '))}`;
    return { spans: [span], description: message, error: { start: span.start, end: span.end, message } };
  }

  /**
   * ValueLink ::= Value IssueId   (`state duplicate TS-2405`: a value named like a link type, then
   * an issue id, links with that type's outward name); any other issue id alone needs a link phrase.
   */
  private parseIssueIdAfterValue(): Part {
    const last = this.result.ops.at(-1);
    const lastEnd = last?.range.end;
    const previous = this.tokens[this.pos - 1];
    if (last?.kind === 'set' && last.value !== null && previous?.range.end === lastEnd) {
      const type = this.lex.vocab.linkTypes.find((t) => t.name.toLowerCase() === last.value?.toLowerCase());
      if (type) {
        const link = { linkType: type.name, outward: true, phrase: type.outwardName };
        return parseLinkCommand(this, link, 0, 'link', []);
      }
    }
    return this.parseStrayIssueId();
  }

  /** An issue id alone: it needs a link phrase before it. */
  private parseStrayIssueId(): Part {
    const id = (this.keys[this.pos] ?? '').toUpperCase();
    const span = this.take(1, 'error');
    const message = `Issue id ${id} needs a link command before it, e.g. relates to ${id}`;
    return { spans: [span], description: message, error: { start: span.start, end: span.end, message } };
  }

  /** Records a part; an unclosed `{` or a missing permission makes it an error. */
  private commit(from: number, part: Part): boolean {
    let error = part.error;
    const spans = part.spans;
    const start = spans[0]?.start ?? 0;
    const end = spans.at(-1)?.end ?? start;
    const unclosed = this.tokens.slice(from, this.pos).find((t) => t.kind === 'quoted' && !t.closed);
    if (!error && unclosed) {
      error = { ...unclosed.range, message: MISSING_CLOSE };
      for (const span of spans) if (span.start === unclosed.range.start) span.style = 'error';
    }
    const needs = part.op && COMMAND_OP_REQUIREMENTS[part.op.kind];
    if (!error && needs && !this.lex.vocab.can[needs.capability]) {
      error = { start, end, message: `${part.description}: you have no rights to ${needs.what}` };
      for (const span of spans) span.style = 'error';
    } else if (!error && needs?.timeTracking && !this.lex.vocab.timeTracking) {
      error = { start, end, message: `${part.description}: ${NO_TIME_TRACKING}` };
      for (const span of spans) span.style = 'error';
    }
    this.result.ranges.push(...spans);
    if (error) this.result.diagnostics.push(error);
    this.result.commands.push({ description: error ? error.message : part.description, error: !!error });
    if (!error && part.op) {
      const op: CommandOp = { ...part.op, range: { start, end }, description: part.description };
      this.result.ops.push(op);
    }
    return !part.incomplete;
  }
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
