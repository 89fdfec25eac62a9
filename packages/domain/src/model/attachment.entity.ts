import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Issue } from './issue.entity.js';
import { User } from './user.entity.js';

/**
 * A file attached to an issue. The bytes live in the attachment store under their SHA-256
 * (`contentHash`), never in this row: two attachments of the same content share one file.
 */
export const IssueAttachment = defineEntity({
  name: 'IssueAttachment',
  tableName: 'issue_attachments',
  properties: {
    id: p.integer().primary().autoincrement(),
    issue: () => p.manyToOne(Issue).deleteRule('cascade').index(),
    name: p.string().length(255),
    contentHash: p.string().length(64).index(),
    size: p.integer(),
    contentType: p.string().length(200),
    author: () => p.manyToOne(User).deleteRule('cascade').index(),
    /** The group the original limited visibility to; recorded, not enforced (groups are not modelled). */
    groupName: p.string().length(200).nullable(),
    createdAt: p.datetime(),
  },
});
export type IIssueAttachment = InferEntity<typeof IssueAttachment>;
