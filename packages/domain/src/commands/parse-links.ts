import { isIssueId, type LinkTarget } from './lexicon.js';
import type { CommandParser } from './parser.js';
import { failedPart, type Part } from './part.js';
import type { HighlightRange } from './result.js';

/**
 * LinkCommand ::= LinkName IssueId
 * LinkName ::= <a link type's outward or inward name: 'relates to', 'subtask of', 'parent for'…>
 */
export function parseLinkCommand(
  p: CommandParser,
  link: LinkTarget,
  length: number,
  kind: 'link' | 'unlink',
  head: HighlightRange[],
): Part {
  // Length 0: the link phrase is implied by the value before the id (`state duplicate TS-2405`).
  const spans = length > 0 ? [...head, p.take(length, 'keyword')] : [...head];
  p.expect({ issueIds: true });
  const key = p.keys[p.pos];
  if (p.current?.kind !== 'unknown' && key !== undefined && isIssueId(key)) {
    spans.push(p.take(1, 'value'));
    const issueId = p.lex.issueIds.get(key) ?? key.toUpperCase();
    const op = { kind, linkType: link.linkType, outward: link.outward, issueId };
    const verb = kind === 'link' ? 'Link to' : 'Remove link to';
    return { spans, description: `${verb} ${issueId} (${link.phrase})`, op };
  }
  const missing = `Issue id expected after ${link.phrase}`;
  return failedPart(
    spans,
    p.reject(missing, (text) => `Not an issue id: ${text} (expected e.g. PRJ-12)`),
  );
}
