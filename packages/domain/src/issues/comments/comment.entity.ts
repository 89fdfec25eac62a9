import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from '../../users/user.entity.js';
import { Issue } from '../issue.entity.js';

export const IssueComment = defineEntity({
  name: 'IssueComment',
  tableName: 'issue_comments',
  properties: {
    id: p.integer().primary().autoincrement(),
    issue: () => p.manyToOne(Issue).deleteRule('cascade'),
    author: () => p.manyToOne(User).deleteRule('cascade').index(),
    text: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IIssueComment = InferEntity<typeof IssueComment>;
