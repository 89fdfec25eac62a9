import * as c from '@trackline/contracts';
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
  parts: { underline: boolean; suggest: boolean; commands: boolean };
};

const READABLE_ID = /^[A-Za-z][A-Za-z0-9_]*-\d+$/;
const DEFAULT_OPTIONS = 15;
const CONTEXT_LIMIT = 100;

/**
 * The context issues: `issueIds` (readable ids first, else legacy compressed ids), else
 * `query` within `folder`, else none. `noIssuesContext=true` forces none.
 */
async function contextIssues(em: d.Em, actor: d.Actor, req: AssistRequest): Promise<d.IssueRef[] | null> {
  if (req.noIssuesContext) return null;
  const raw = (req.issueIds ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (raw.length > 0) {
    const readable = raw.filter((id) => READABLE_ID.test(id));
    const compressed = raw.filter((id) => !READABLE_ID.test(id)).map((id) => c.decodeCompressedId(id));
    if (compressed.some((n) => n === null)) {
      throw d.DomainError.invalid('issueIds', 'must be issue ids (PRJ-12) or compressed persistent ids');
    }
    // Readable ids that are missing or unreadable are NOT_FOUND; so are compressed ids that match nothing.
    const named = readable.length > 0 ? await d.findReadableIssues(em, actor, readable) : [];
    const fromDb = await d.findReadableIssuesByDbIds(em, actor, compressed as number[]);
    if (fromDb.length < new Set(compressed).size) {
      throw new d.DomainError('NOT_FOUND', `Issues [ ${raw.join(', ')} ] not found.`);
    }
    return [...named, ...fromDb];
  }
  if (!req.query?.trim() && !req.folder?.trim()) return null;
  const folder = req.folder?.trim() ? await d.getFolder(em, actor, req.folder) : null;
  const query = [folder?.query, req.query].filter((q) => q?.trim()).join(' ');
  const ids = await d.searchIssueIds(em, actor, query, { max: CONTEXT_LIMIT });
  return ids.length > 0 ? d.findReadableIssues(em, actor, ids) : null;
}

const toItem = (s: d.Suggestion) => ({
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
export async function assistCommand(
  em: d.Em,
  actor: d.Actor,
  req: AssistRequest,
): Promise<c.CommandAssistDto> {
  const context = await contextIssues(em, actor, req);
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
    result.suggest = { items: d.suggestCommand(command, caret, vocabulary, limit).map(toItem) };
  }
  return result;
}
