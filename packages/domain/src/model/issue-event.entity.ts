import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Issue } from './issue.entity.js';
import { Tag } from './tag.entity.js';
import { User } from './user.entity.js';

/** What an issue event records besides field changes (those are `IssueChange`s). */
export const ISSUE_EVENT_KINDS = ['link-added', 'link-removed', 'tag-added', 'tag-removed'] as const;
export type IssueEventKind = (typeof ISSUE_EVENT_KINDS)[number];

/**
 * A link or tag added to or removed from an issue by a command: who, when, and what. The issue's
 * activity (the console's history) reads them beside the recorded field changes, the comments and
 * the attachments; the legacy `/changes` answer stays as the original's. A link is recorded on
 * both of its issues, each with the phrase as read from its side; a tag event is shown only to
 * those who see the tag (its owner, or everyone for a shared one).
 */
export const IssueEvent = defineEntity({
  name: 'IssueEvent',
  tableName: 'issue_events',
  properties: {
    id: p.integer().primary().autoincrement(),
    issue: () => p.manyToOne(Issue).deleteRule('cascade').index(),
    /** No delete rule: a deleted user's events move to the deleted-user account. */
    actor: () => p.manyToOne(User).index(),
    at: p.datetime(),
    kind: p.enum(ISSUE_EVENT_KINDS),
    /** Link events: the issue at the other end (its events go with it). */
    otherIssue: () => p.manyToOne(Issue).deleteRule('cascade').nullable().index(),
    /** Link events: the link's phrase from this issue's side ("depends on", "is required for"). */
    phrase: p.string().length(100).nullable(),
    /** Tag events: the tag (its events go with it). */
    tag: () => p.manyToOne(Tag).deleteRule('cascade').nullable().index(),
  },
});
export type IIssueEvent = InferEntity<typeof IssueEvent>;
