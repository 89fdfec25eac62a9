import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { IssueLinkType } from '../link-types/link-type.entity.js';
import { Project } from '../projects/project.entity.js';
import { User } from '../users/user.entity.js';

export const Issue = defineEntity({
  name: 'Issue',
  tableName: 'issues',
  uniques: [{ properties: ['project', 'numberInProject'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    project: () => p.manyToOne(Project).deleteRule('cascade'),
    numberInProject: p.integer(),
    summary: p.string().length(1000),
    description: p.text().default(''),
    reporter: () => p.manyToOne(User),
    /** Indexed for search: date ranges and sorting (migration 0020). */
    createdAt: p
      .datetime()
      .onCreate(() => new Date())
      .index(),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .index(),
    /** When the issue entered a resolved state; null while unresolved (kept by the State field). */
    resolvedAt: p.datetime().nullable().index(),
  },
});
export type IIssue = InferEntity<typeof Issue>;

/** A link stored once, from `source` in the type's outward direction. */
export const IssueLink = defineEntity({
  name: 'IssueLink',
  tableName: 'issue_links',
  uniques: [{ properties: ['type', 'source', 'target'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    type: () => p.manyToOne(IssueLinkType).deleteRule('cascade'),
    source: () => p.manyToOne(Issue).deleteRule('cascade'),
    target: () => p.manyToOne(Issue).deleteRule('cascade').index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IIssueLink = InferEntity<typeof IssueLink>;
