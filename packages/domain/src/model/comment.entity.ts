import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Group } from './group.entity.js';
import { Issue } from './issue.entity.js';
import { User } from './user.entity.js';

export const IssueComment = defineEntity({
  name: 'IssueComment',
  tableName: 'issue_comments',
  properties: {
    id: p.integer().primary().autoincrement(),
    /** Indexed: an issue's comments, and the search document's refresh (migration 0025). */
    issue: () => p.manyToOne(Issue).deleteRule('cascade').index(),
    author: () => p.manyToOne(User).deleteRule('cascade').index(),
    text: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
    /** Soft-deleted (`DELETE …/comment/{id}` without `permanently`): listed as deleted, not shown in the issue. */
    deleted: p.boolean().default(false),
    /**
     * Visible only to this group's members and the author (`group` of execute). No delete rule:
     * a group still restricting comments cannot be deleted, or they would become public.
     */
    permittedGroup: () => p.manyToOne(Group).nullable().deleteRule('restrict').index(),
  },
});
export type IIssueComment = InferEntity<typeof IssueComment>;
