import type { CommandOp, TextRange } from './ops.js';

/** How a stretch of the command is shown; `error` is underlined as an error. */
export type HighlightStyle = 'field' | 'keyword' | 'value' | 'string' | 'error' | 'text';

/** End-exclusive offsets into the command text. */
export type HighlightRange = TextRange & { style: HighlightStyle };

/** A problem in the command; an empty range at the end of the text means something is missing. */
export type Diagnostic = TextRange & { message: string };

/** One entry of the preview list: what a parsed part of the command will do, or why it cannot. */
export type CommandPreview = { description: string; error: boolean };

export type ParseResult = {
  /** Only the error-free commands' operations, in text order. */
  ops: CommandOp[];
  ranges: HighlightRange[];
  diagnostics: Diagnostic[];
  commands: CommandPreview[];
};

/** What the completion of `text[0:completionStart] + prefix + option + suffix + text[completionEnd:]` offers. */
export type Suggestion = {
  /** The text to insert. */
  option: string;
  description: string;
  /** `description`, HTML-escaped, with the field or category in bold. */
  descriptionHtml: string;
  /** `{` when the option must be quoted to re-parse as itself, else empty. */
  prefix: string;
  /** `}` for a quoted option, then a space unless one already follows. */
  suffix: string;
  /** Offsets into `option` of the part that matched what was typed. */
  matchStart: number;
  matchEnd: number;
  /** The stretch of the command text the completion replaces. */
  completionStart: number;
  completionEnd: number;
  /** Where the caret goes after applying the completion. */
  caret: number;
  /** A header such as "Recent commands" rather than an option; always false here. */
  separator: boolean;
};
