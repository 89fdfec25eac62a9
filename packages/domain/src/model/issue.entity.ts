import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Group } from './group.entity.js';
import { IssueLinkType } from './link-type.entity.js';
import { Project } from './project.entity.js';
import { User } from './user.entity.js';

export const Issue = defineEntity({
  name: 'Issue',
  tableName: 'issues',
  uniques: [{ properties: ['project', 'numberInProject'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    /**
     * SQLite's foreign-key index (project_id, then rowid) lists a project's issues in id order: search
     * walks it for a page (the unique (project, number) lists them by number).
     */
    project: () => p.manyToOne(Project).deleteRule('cascade'),
    numberInProject: p.integer(),
    summary: p.string().length(1000),
    description: p.text().default(''),
    /** Indexed on both databases (PostgreSQL since migration 0038): `by: u` and `#me` search by it. */
    reporter: () => p.manyToOne(User).index(),
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
    /**
     * Readable only by this group's members, the reporter and holders of READ_HIDDEN_STUFF in the
     * project (always within READ_ISSUE): see auth/issue-access.ts, the one place the rule lives.
     * No delete rule: a group still restricting issues cannot be deleted, or they would become public.
     */
    permittedGroup: () => p.manyToOne(Group).nullable().deleteRule('restrict').index(),
    /**
     * The last updater an import named (`updaterName`, migration 0035): the legacy `updaterName`
     * until a change is recorded (the latest change's author wins; see issue-view.ts).
     */
    updater: () => p.manyToOne(User).nullable().deleteRule('set null').index(),
    /**
     * Created by the import API (migration 0021; issues older than it count as imported). Importing a
     * number again updates an imported issue; an issue people created is never overwritten by one.
     */
    imported: p.boolean().default(false),
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
    // Both ends are looked up on every issue read (has it links?), and the unique index leads with the type.
    source: () => p.manyToOne(Issue).deleteRule('cascade').index(),
    target: () => p.manyToOne(Issue).deleteRule('cascade').index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IIssueLink = InferEntity<typeof IssueLink>;
