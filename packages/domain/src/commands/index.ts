/**
 * The command language: pure functions of (text, vocabulary), no database or HTTP.
 * `parseCommand` gives operations, highlighting, diagnostics and a preview;
 * `suggestCommand` gives completions at a caret.
 */
export { COMMANDS, type CommandKeyword, MAX_COMMAND_LENGTH } from './definitions.js';
export type { CommandOp, CommandOpKind, TextRange } from './ops.js';
export { parseCommand } from './parser.js';
export type {
  CommandPreview,
  Diagnostic,
  HighlightRange,
  HighlightStyle,
  ParseResult,
  Suggestion,
} from './result.js';
export { suggestCommand } from './suggest.js';
export type { CommandVocabulary, VocabularyField, VocabularyValue } from './vocabulary.js';
