import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Issue } from './issue.entity.js';
import { User } from './user.entity.js';

/** A tag belongs to a user; a shared tag is visible to (and applicable by) everyone. */
export const Tag = defineEntity({
  name: 'Tag',
  tableName: 'tags',
  uniques: [{ properties: ['owner', 'nameKey'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    name: p.string().length(100),
    /** Lower-cased name: tag names are unique per owner regardless of case. */
    nameKey: p.string().length(100).index(),
    shared: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type ITag = InferEntity<typeof Tag>;

export const IssueTag = defineEntity({
  name: 'IssueTag',
  tableName: 'issue_tags',
  uniques: [{ properties: ['issue', 'tag'] }],
  /** Search by tag walks a tag's issues in issue order (migration 0020). */
  indexes: [{ properties: ['tag', 'issue'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    // No indexes of their own (migration 0040): the unique (issue, tag) and the index (tag, issue)
    // lead with them.
    issue: () => p.manyToOne(Issue).deleteRule('cascade').index(false),
    tag: () => p.manyToOne(Tag).deleteRule('cascade').index(false),
  },
});
export type IIssueTag = InferEntity<typeof IssueTag>;
