import { z } from 'zod';
import { MAX_COMMAND_LENGTH } from '../common/limits.js';
import { ZQueryText } from '../common/paging.js';
import { QueryBool } from '../common/query-bool.js';
import type { RouteMeta } from '../common/route-meta.js';

const TAGS = ['Commands'];

export const ZUnderlineRange = z.object({
  start: z.number().int(),
  end: z.number().int(),
  /** Long-named alias: `end - start`. */
  length: z.number().int(),
  style: z.string(),
});
/** A suggestion with the legacy short keys and the long-named aliases newer clients read. */
export const ZSuggestItem = z.object({
  o: z.string(),
  d: z.string(),
  hd: z.string(),
  pre: z.string(),
  suf: z.string(),
  ms: z.number().int(),
  me: z.number().int(),
  cs: z.number().int(),
  ce: z.number().int(),
  cp: z.number().int(),
  sep: z.boolean(),
  option: z.string(),
  description: z.string(),
  prefix: z.string(),
  suffix: z.string(),
  matchingStart: z.number().int(),
  matchingEnd: z.number().int(),
  completionStart: z.number().int(),
  completionEnd: z.number().int(),
  caret: z.number().int(),
  separator: z.boolean(),
  /** The kind of completion (`field`, `keyword`, `value`); given by the search assist. */
  styleClass: z.string().optional(),
});
export const ZCommandPreview = z.object({ desc: z.string(), description: z.string(), error: z.boolean() });

const ZUnderlinePart = z.object({ ranges: z.array(ZUnderlineRange) });
const ZSuggestPart = z.object({ items: z.array(ZSuggestItem) });
const ZCommandsPart = z.object({ command: z.array(ZCommandPreview) });

/** Any selection of the three parts (what the XML renderer takes). */
export const ZCommandAssistOutput = z.object({
  underline: ZUnderlinePart.optional(),
  suggest: ZSuggestPart.optional(),
  commands: ZCommandsPart.optional(),
});
export type CommandAssistDto = z.infer<typeof ZCommandAssistOutput>;
/** Each route answers exactly the parts it names, so typed clients need no `?.` on them. */
export const ZSuggestOutput = z.object({ suggest: ZSuggestPart });
export const ZUnderlineOutput = z.object({ underline: ZUnderlinePart });
export const ZUnderlineAndSuggestOutput = z.object({ underline: ZUnderlinePart, suggest: ZSuggestPart });
export const ZFullAssistOutput = z.object({
  underline: ZUnderlinePart,
  suggest: ZSuggestPart,
  commands: ZCommandsPart,
});
export type FullAssistDto = z.infer<typeof ZFullAssistOutput>;

const contextFields = {
  /** Comma-separated issue ids: legacy compressed persistent ids, or readable ids (PRJ-12). */
  issueIds: z.string().max(10_000, 'must be at most 10000 characters').optional(),
  /** A folder id (see /rest/issuesFolder) narrowing `query`. */
  folder: z.string().max(200, 'must be at most 200 characters').optional(),
  query: ZQueryText.optional(),
  command: z.string().max(MAX_COMMAND_LENGTH, `must be at most ${MAX_COMMAND_LENGTH} characters`).optional(),
  noIssuesContext: QueryBool.optional(),
};
export const ZUnderlineInput = z.object(contextFields);
export const ZSuggestInput = z.object({
  ...contextFields,
  caret: z
    .number()
    .int()
    .min(0, 'must be at least 0')
    .max(MAX_COMMAND_LENGTH, `must be at most ${MAX_COMMAND_LENGTH}`)
    .optional(),
  optionsLimit: z.number().int().min(1, 'must be at least 1').max(100, 'must be at most 100').optional(),
});

/** The shared meta of the four assist routes; each caller writes its full path. */
const assist = (path: `/command/${string}`, summary: string) =>
  ({
    openapi: {
      method: 'GET',
      path,
      summary,
      tags: TAGS,
      errorResponses: [400, 401, 404],
    },
    xml: { kind: 'custom', renderer: 'commandAssist' },
    defaultFormat: 'json',
  }) satisfies RouteMeta;

export const suggestMeta = assist('/command/suggest', 'Suggests');
export const underlineMeta = assist('/command/underline', 'Underline');
export const underlineAndSuggestMeta = assist('/command/underlineAndSuggest', 'Underline and suggest');
export const underlineAndSuggestAndCommandsMeta = assist(
  '/command/underlineAndSuggestAndCommands',
  'Underline and suggest and description',
);
