import type { CommandOp } from './ops.js';
import type { Diagnostic, HighlightRange } from './result.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An operation before the parser adds its range and description. */
export type OpBody = DistributiveOmit<CommandOp, 'range' | 'description'>;

/** One command part before its permission is checked and it is recorded. */
export type Part = {
  spans: HighlightRange[];
  description: string;
  op?: OpBody;
  error?: Diagnostic;
  /** The text ended where the part still needed something. */
  incomplete?: boolean;
};

/** Why an argument was not read: its token is underlined, or at the end of the text it is missing. */
export type Rejection = { error: Diagnostic; span?: HighlightRange; incomplete?: boolean };

/** A part that failed on `rejection`, after the spans read so far. */
export function failedPart(spans: HighlightRange[], rejection: Rejection): Part {
  return {
    spans: rejection.span ? [...spans, rejection.span] : spans,
    description: rejection.error.message,
    error: rejection.error,
    incomplete: rejection.incomplete,
  };
}

/** Marks `span` as the error of a part. */
export function errorAt(span: HighlightRange, message: string): Rejection {
  span.style = 'error';
  return { error: { start: span.start, end: span.end, message }, span };
}
