import { decodeCompressedId, MAX_ROW_ID } from '@trackline/contracts';
import type { Actor } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import { getFolder } from '../folders/folders.js';
import type { Em } from '../orm/em.js';
import { findReadableIssues, findReadableIssuesByDbIds, type IssueRef } from './find-issues.js';
import { searchIssueIds } from './search/search-issues.js';

/** What command assist may name as its context; the first that is present wins. */
export type CommandContextRequest = {
  /** Comma-separated readable ids (`PRJ-12`) or the legacy compressed persistent ids. */
  issueIds?: string | undefined;
  folder?: string | undefined;
  query?: string | undefined;
  /** `true` forces no context (the vocabulary of every readable project). */
  noIssuesContext?: boolean | undefined;
};

const READABLE_ID = /^[A-Za-z][A-Za-z0-9_]*-\d+$/;
/** Issues a query context contributes at most: enough for the vocabulary, bounded in cost. */
export const COMMAND_CONTEXT_LIMIT = 100;
/** The largest row id (the id columns are 32-bit integers). */

/**
 * The issues a command is typed against: `issueIds` (readable ids first, else legacy compressed
 * ids), else `query` within `folder`, else none (null). Named issues that are missing or
 * unreadable are NOT_FOUND, alike.
 */
export async function resolveCommandContext(
  em: Em,
  actor: Actor,
  req: CommandContextRequest,
): Promise<IssueRef[] | null> {
  if (req.noIssuesContext) return null;
  const raw = (req.issueIds ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (raw.length > 0) {
    const readable = raw.filter((id) => READABLE_ID.test(id));
    const compressed = raw.filter((id) => !READABLE_ID.test(id)).map((id) => decodeCompressedId(id));
    if (compressed.some((n) => n === null)) {
      throw DomainError.invalid('issueIds', 'must be issue ids (PRJ-12) or compressed persistent ids');
    }
    const named = readable.length > 0 ? await findReadableIssues(em, actor, readable) : [];
    // A number past the id column's range names no issue (PostgreSQL would refuse the comparison).
    const inRange = (compressed as number[]).filter((n) => n <= MAX_ROW_ID);
    const fromDb = await findReadableIssuesByDbIds(em, actor, inRange);
    if (fromDb.length < new Set(compressed).size) {
      throw new DomainError('NOT_FOUND', `Issues [ ${raw.join(', ')} ] not found.`);
    }
    return [...named, ...fromDb];
  }
  if (!req.query?.trim() && !req.folder?.trim()) return null;
  const folder = req.folder?.trim() ? await getFolder(em, actor, req.folder) : null;
  const query = [folder?.query, req.query].filter((q) => q?.trim()).join(' ');
  const ids = await searchIssueIds(em, actor, query, { max: COMMAND_CONTEXT_LIMIT });
  return ids.length > 0 ? findReadableIssues(em, actor, ids) : null;
}
