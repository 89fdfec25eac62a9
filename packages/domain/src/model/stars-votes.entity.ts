import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Issue } from './issue.entity.js';
import { User } from './user.entity.js';

/** A user watching an issue (`star`). */
export const IssueStar = defineEntity({
  name: 'IssueStar',
  tableName: 'issue_stars',
  uniques: [{ properties: ['issue', 'user'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    // No index of its own (migration 0040): the unique (issue, user) leads with it.
    issue: () => p.manyToOne(Issue).deleteRule('cascade').index(false),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
  },
});
export type IIssueStar = InferEntity<typeof IssueStar>;

export const IssueVote = defineEntity({
  name: 'IssueVote',
  tableName: 'issue_votes',
  uniques: [{ properties: ['issue', 'user'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    // No index of its own (migration 0040): the unique (issue, user) leads with it.
    issue: () => p.manyToOne(Issue).deleteRule('cascade').index(false),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
  },
});
export type IIssueVote = InferEntity<typeof IssueVote>;
