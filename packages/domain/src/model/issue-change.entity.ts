import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Issue } from './issue.entity.js';
import { User } from './user.entity.js';

/**
 * One recorded change of an issue (`GET /issue/{issue}/changes`): who, when, and each field's
 * values before and after, by name as they read at the time (JSON `FieldChange[]` in `fields`:
 * the list is always read whole, never queried into).
 */
export const IssueChange = defineEntity({
  name: 'IssueChange',
  tableName: 'issue_changes',
  properties: {
    id: p.integer().primary().autoincrement(),
    issue: () => p.manyToOne(Issue).deleteRule('cascade').index(),
    /** No delete rule: a deleted user's changes move to the deleted-user account. */
    updater: () => p.manyToOne(User).index(),
    updatedAt: p.datetime(),
    fields: p.text(),
  },
});
export type IIssueChange = InferEntity<typeof IssueChange>;
