import type * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import { cachedVocabulary } from './vocabulary-cache.js';

export type AssistRequest = {
  issueIds?: string | undefined;
  folder?: string | undefined;
  query?: string | undefined;
  command?: string | undefined;
  caret?: number | undefined;
  optionsLimit?: number | undefined;
  noIssuesContext?: boolean | undefined;
  parts: AssistParts;
};

export type AssistParts = { underline: boolean; suggest: boolean; commands: boolean };
/** Exactly the parts asked for, each present (the per-route output schemas say the same). */
export type AssistOf<P extends AssistParts> = {
  [K in keyof P & keyof c.CommandAssistDto as P[K] extends true ? K : never]-?: NonNullable<
    c.CommandAssistDto[K]
  >;
};

const DEFAULT_OPTIONS = 15;

/** A suggestion with the legacy short keys and the long aliases (shared with the search assist). */
export const toSuggestItem = (s: d.Suggestion) => ({
  o: s.option,
  d: s.description,
  hd: s.descriptionHtml,
  pre: s.prefix,
  suf: s.suffix,
  ms: s.matchStart,
  me: s.matchEnd,
  cs: s.completionStart,
  ce: s.completionEnd,
  cp: s.caret,
  sep: s.separator,
  option: s.option,
  description: s.description,
  prefix: s.prefix,
  suffix: s.suffix,
  matchingStart: s.matchStart,
  matchingEnd: s.matchEnd,
  completionStart: s.completionStart,
  completionEnd: s.completionEnd,
  caret: s.caret,
  separator: s.separator,
});

/** Underline, suggestions and previews for a command typed against some issues. */
export async function assistCommand<P extends AssistParts>(
  em: d.Em,
  actor: d.Actor,
  req: AssistRequest & { parts: P },
): Promise<AssistOf<P>> {
  const context = await d.resolveCommandContext(em, actor, req);
  const vocabulary = await cachedVocabulary(em, actor, context);
  const command = req.command ?? '';
  const result: c.CommandAssistDto = {};
  if (req.parts.underline || req.parts.commands) {
    const parsed = d.parseCommand(command, vocabulary);
    if (req.parts.underline) {
      result.underline = {
        ranges: parsed.ranges.map((r) => ({
          start: r.start,
          end: r.end,
          length: r.end - r.start,
          style: r.style,
        })),
      };
    }
    if (req.parts.commands) {
      result.commands = {
        command: parsed.commands.map((p) => ({
          desc: p.description,
          description: p.description,
          error: p.error,
        })),
      };
    }
  }
  if (req.parts.suggest) {
    const caret = Math.min(req.caret ?? command.length, command.length);
    const limit = req.optionsLimit ?? DEFAULT_OPTIONS;
    result.suggest = { items: d.suggestCommand(command, caret, vocabulary, limit).map(toSuggestItem) };
  }
  return result as AssistOf<P>;
}
