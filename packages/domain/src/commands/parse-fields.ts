import type { SimpleKind } from '../values/field-kinds.js';
import { parseSimpleValue } from '../values/simple-values.js';
import { type FieldEntry, matchStart, type ValueTarget } from './lexicon.js';
import { parseLinkCommand } from './parse-links.js';
import type { CommandParser } from './parser.js';
import { errorAt, failedPart, type Part, type Rejection } from './part.js';
import { resolveBareValue } from './resolve.js';
import type { HighlightRange } from './result.js';

export type FieldMode = 'set' | 'add' | 'remove';

/**
 * AttributeCommand ::= Attribute Value
 * MultipleAttributeCommand ::= MultipleAttribute Value   (after `add` / `remove`)
 */
export function parseAttributeCommand(
  p: CommandParser,
  entry: FieldEntry,
  length: number,
  mode: FieldMode,
  head: HighlightRange[],
): Part {
  const name = p.take(length, 'field');
  const spans = [...head, name];
  const value = readFieldValue(p, entry);
  if ('error' in value) return failedPart(spans, value);
  spans.push(value.span);
  const field = entry.field.name;
  if (mode !== 'set' && !entry.field.multi) {
    const message = `${field} takes a single value: write ${field} ${value.target.display} without ${mode}`;
    return failedPart(spans, { error: errorAt(name, message).error });
  }
  return valuePart(spans, value.target, mode);
}

/** Value ::= <a value of the field> | <its empty text> | (user fields) 'me' | Login | FullName */
export function readFieldValue(
  p: CommandParser,
  entry: FieldEntry,
): { target: ValueTarget; span: HighlightRange } | Rejection {
  const field = entry.field.name;
  p.expect({ field: entry });
  if (isSimpleKind(entry.field.kind)) return readSimpleValue(p, entry);
  const read = p.read(entry.values, 'value');
  const target = read?.targets[0];
  if (!read || !target)
    return p.reject(`Value expected for ${field}`, (text) => `Unknown ${field} value: ${text}`);
  const values = [...new Set(read.targets.map((t) => t.value))];
  if (values.length > 1) {
    const text = p.textOf(read.span);
    return errorAt(read.span, `${text} is ambiguous for ${field}: it can be ${values.join(' or ')}`);
  }
  return { target, span: read.span };
}

const isSimpleKind = (kind: string): kind is SimpleKind =>
  ['string', 'text', 'integer', 'float', 'date', 'period'].includes(kind);

/**
 * SimpleValue ::= <its empty text> | Word | '{' words '}'  (a string, text, integer, float, date or
 * period field): one word, or a `{…}` group for several (`Estimation {1w 2d}`), checked by type.
 */
function readSimpleValue(
  p: CommandParser,
  entry: FieldEntry,
): { target: ValueTarget; span: HighlightRange } | Rejection {
  const field = entry.field.name;
  const empty = p.read(entry.values, 'value');
  const emptyTarget = empty?.targets[0];
  if (empty && emptyTarget) return { target: emptyTarget, span: empty.span };
  const token = p.current;
  if (!token || token.kind === 'unknown')
    return p.reject(`Value expected for ${field}`, (text) => `Unknown ${field} value: ${text}`);
  const span = p.take(1, 'value');
  const text = p.textOf(span);
  const parsed = parseSimpleValue(entry.field.kind as SimpleKind, text);
  if ('error' in parsed) return errorAt(span, `${field}: ${parsed.error}`);
  return { target: { field: entry, value: text, display: text, user: false }, span };
}

/** Value ::= <a value of exactly one field, by the rules of `resolveBareValue`> */
export function parseValueCommand(
  p: CommandParser,
  targets: ValueTarget[],
  length: number,
  mode: FieldMode,
  head: HighlightRange[],
): Part {
  const span = p.take(length, 'value');
  const resolution = resolveBareValue(p.textOf(span), targets, p.lex, mode);
  if (!resolution.ok) return failedPart(head, errorAt(span, resolution.message));
  return valuePart([...head, span], resolution.target, mode);
}

/** MultipleCommand ::= ('add' | 'remove') (Value | LinkCommand | MultipleAttributeCommand) */
export function parseMultipleCommand(p: CommandParser, mode: 'add' | 'remove', head: HighlightRange): Part {
  p.expect({ multi: true });
  const match = matchStart(p.lex, p.tokens, p.keys, p.pos, false);
  switch (match?.kind) {
    case 'link':
      return parseLinkCommand(p, match.link, match.length, mode === 'add' ? 'link' : 'unlink', [head]);
    case 'field':
      return parseAttributeCommand(p, match.field, match.length, mode, [head]);
    case 'value':
      return parseValueCommand(p, match.targets, match.length, mode, [head]);
    default: {
      const missing = `Field, value or link expected after ${mode}`;
      return failedPart(
        [head],
        p.reject(missing, (text) => `Unknown field, value or link after ${mode}: ${text}`),
      );
    }
  }
}

function valuePart(spans: HighlightRange[], target: ValueTarget, mode: FieldMode): Part {
  const field = target.field.field.name;
  if (!target.field.field.multi) {
    return {
      spans,
      description: `Set ${field} to ${target.display}`,
      op: { kind: 'set', field, value: target.value },
    };
  }
  const value = target.value ?? target.display;
  if (mode === 'remove') {
    return {
      spans,
      description: `Remove ${target.display} from ${field}`,
      op: { kind: 'remove', field, value },
    };
  }
  return { spans, description: `Add ${target.display} to ${field}`, op: { kind: 'add', field, value } };
}
