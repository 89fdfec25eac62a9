import { placeholders } from '../../../orm/sql-fragments.js';
import { type AttributeFilter, at, type Bound } from '../../../query/query-parser.js';
import { visibleAttachmentsSql } from '../../attachments/attachment-visibility.js';
import { visibleCommentsSql } from '../../comments/comments.js';
import { STAR_TAG } from '../../tags/tag-lookup.js';
import type { Sql } from '../readable-issues.js';
import { type Condition, FALSE, leaf } from '../search-plan.js';
import { groupIdByName, tagIds } from './lookups.js';
import { bad, type CompileScope, type Named, singleValueOf } from './scope.js';

/**
 * What users put on issues: tags, stars, votes, comments, attachments, the visibility group. The
 * read rules of the family, each in its own place: tags are the caller's own or shared (`tagIds`,
 * `hasTags`), a star is the caller's own, comments and attachments are those the caller can see
 * (`visibleComments`, `visibleAttachmentsSql`); votes are public counts.
 */

/** `tag: name`: one of the caller's own or shared tags of that name. */
export async function tagCondition(
  scope: CompileScope,
  attribute: Named,
  filter: AttributeFilter,
): Promise<Condition> {
  const value = singleValueOf(filter, attribute);
  const ids = await tagIds(scope, value.text);
  // Every user has a Star tag (the star, issues/tags/tag-lookup.ts): unstarred, it tags nothing.
  if (ids.length === 0 && value.text.toLowerCase() !== STAR_TAG.toLowerCase())
    throw bad(`Unknown tag ${at(value.text, value)}`, value);
  return ids.length === 0 ? FALSE : tagged(ids);
}

/** Tagged with one of these tags (ids the caller may use). */
export function tagged(ids: number[]): Condition {
  return leaf(
    {
      sql: `exists (select 1 from issue_tags t where t.issue_id = i.id and t.tag_id in (${placeholders(ids)}))`,
      params: ids,
    },
    ids.length === 1
      ? { from: 'issue_tags d', id: 'd.issue_id', where: { sql: 'd.tag_id = ?', params: ids }, ordered: true }
      : undefined,
  );
}

/** `votes: n`, `votes: a .. b`. */
export function votesCondition(attribute: Named, filter: AttributeFilter): Condition {
  const range = numberRange(filter, attribute);
  return leaf({
    sql: `(select count(*) from issue_votes v where v.issue_id = i.id) between ? and ?`,
    params: [range.from, range.to],
  });
}

/**
 * `visible to: group`: the issue's own visibility group (`permittedGroup`); the caller's readable
 * issues only, as every condition. A group name the caller cannot know matches nothing, never errs.
 */
export async function visibleToCondition(
  scope: CompileScope,
  attribute: Named,
  filter: AttributeFilter,
): Promise<Condition> {
  const value = singleValueOf(filter, attribute);
  const group = await groupIdByName(scope, value.text);
  if (group === undefined) return FALSE;
  return leaf({ sql: 'i.permitted_group_id = ?', params: [group] });
}

/** `has: attachments`: an attachment the caller can see. */
export function hasAttachments(scope: CompileScope): Condition {
  const files = visibleAttachmentsSql(scope.actor);
  return leaf({
    sql: `exists (select 1 from issue_attachments a where a.issue_id = i.id and ${files.sql})`,
    params: files.params,
  });
}

/**
 * The comments (alias `c`) the caller can see: not deleted, and a comment restricted to a group
 * only for the group's members and its author (issues/comments/comments.ts). The one read rule of
 * comments in search: `has: comments`, `commenter:` and `sort by: comments` all take it.
 */
export function visibleComments(scope: CompileScope): Sql {
  const visible = visibleCommentsSql(scope.actor);
  return { sql: `c.deleted = ? and ${visible.sql}`, params: [false, ...visible.params] };
}

/** `has: comments`: a comment the caller can see. */
export function hasComments(scope: CompileScope): Condition {
  const visible = visibleComments(scope);
  return leaf({
    sql: `exists (select 1 from issue_comments c where c.issue_id = i.id and ${visible.sql})`,
    params: visible.params,
  });
}

export function hasVotes(): Condition {
  return leaf({ sql: 'exists (select 1 from issue_votes v where v.issue_id = i.id)', params: [] });
}

/** `has: star`: the caller's own star. */
export function hasStar(scope: CompileScope): Condition {
  return leaf({
    sql: 'exists (select 1 from issue_stars s where s.issue_id = i.id and s.user_id = ?)',
    params: [scope.actor.userId],
  });
}

/** `has: tags`: a tag of the caller's own or a shared one. */
export function hasTags(scope: CompileScope): Condition {
  return leaf({
    sql: 'exists (select 1 from issue_tags t join tags g on g.id = t.tag_id where t.issue_id = i.id and (g.owner_id = ? or g.shared = ?))',
    params: [scope.actor.userId, true],
  });
}

function numberRange(filter: AttributeFilter, attribute: Named): { from: number; to: number } {
  const one = (bound: Bound, open: number): number => {
    if ('open' in bound) return open;
    const n = Number(bound.text);
    if (!/^-?\d{1,15}$/.test(bound.text))
      throw bad(`Not a number ${at(bound.text, bound)} for ${attribute.name}`, bound);
    return n;
  };
  if (filter.kind === 'value') {
    const n = one(filter.value, 0);
    return { from: n, to: n };
  }
  if (filter.kind === 'range')
    return { from: one(filter.from, Number.MIN_SAFE_INTEGER), to: one(filter.to, Number.MAX_SAFE_INTEGER) };
  throw bad(`${attribute.name} takes no (query)`);
}
