import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { MAX_BRANCH_FILTER_LENGTH, VCS_DELIVERY_STATUSES, VCS_HOSTS } from '@trackline/contracts';
import { Issue } from './issue.entity.js';
import { Project } from './project.entity.js';
import { Role } from './role.entity.js';
import { User } from './user.entity.js';

/** A repository at a host whose pushes may reference (and command) issues of the linked projects. */
export const VcsIntegration = defineEntity({
  name: 'VcsIntegration',
  tableName: 'vcs_integrations',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(80),
    nameKey: p.string().length(80).unique(),
    host: p.enum(VCS_HOSTS),
    repository: p.string().length(300),
    /** Only the SHA-256 of the apiKey; the key itself is shown once. */
    apiKeyHash: p.string().length(64).unique(),
    /** The webhook secret; kept in clear because the HMAC needs it (never returned). */
    secret: p.string().length(200).nullable(),
    branches: p.string().length(MAX_BRANCH_FILTER_LENGTH).default(''),
    /** Commands of a commit apply only when the host names its author as the pusher. */
    requirePusherMatch: p.boolean().default(true),
    committersRole: () => p.manyToOne(Role).nullable().deleteRule('set null'),
    serviceUser: () => p.manyToOne(User),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IVcsIntegration = InferEntity<typeof VcsIntegration>;

export const VcsIntegrationProject = defineEntity({
  name: 'VcsIntegrationProject',
  tableName: 'vcs_integration_projects',
  uniques: [{ properties: ['integration', 'project'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    integration: () => p.manyToOne(VcsIntegration).deleteRule('cascade'),
    project: () => p.manyToOne(Project).deleteRule('cascade').index(),
  },
});
export type IVcsIntegrationProject = InferEntity<typeof VcsIntegrationProject>;

/**
 * One received hook call, and the durable queue entry the worker claims. Times are epoch
 * milliseconds so that the claim statement compares plain numbers on SQLite and PostgreSQL.
 */
export const VcsDelivery = defineEntity({
  name: 'VcsDelivery',
  tableName: 'vcs_deliveries',
  // The host's delivery id (or a hash of the body): a redelivery is recognised across processes.
  uniques: [{ properties: ['integration', 'deliveryKey'] }],
  // The claim walks the queue oldest first: an index of the unfinished deliveries' ids keeps it
  // proportional to what it takes, whatever the backlog (done rows are not in it).
  indexes: [
    {
      name: 'vcs_deliveries_claimable_index',
      properties: ['id'],
      where: "status in ('pending', 'processing')",
    },
  ],
  properties: {
    id: p.integer().primary().autoincrement(),
    // No index of its own: the unique (integration, deliveryKey) index leads with it.
    integration: () => p.manyToOne(VcsIntegration).deleteRule('cascade').index(false),
    deliveryKey: p.string().length(200),
    event: p.string().length(100),
    receivedAt: p.bigint('number'),
    status: p.enum(VCS_DELIVERY_STATUSES).default('pending'),
    /** While processing: when the claim expires and another worker may take the row. */
    leaseUntil: p.bigint('number').nullable(),
    claimToken: p.string().length(64).nullable(),
    attempts: p.integer().default(0),
    commitCount: p.integer(),
    /** The normalized push (JSON), so processing never re-reads host formats. */
    payload: p.text(),
    error: p.text().nullable(),
    finishedAt: p.bigint('number').nullable(),
  },
});
export type IVcsDelivery = InferEntity<typeof VcsDelivery>;

/**
 * A commit recorded on an issue. Unique per (integration, commit, issue): the row is the
 * dedupe key of the commit's comment, inserted in the comment's transaction. Kept (with a
 * null integration) when the integration is deleted.
 */
export const VcsChange = defineEntity({
  name: 'VcsChange',
  tableName: 'vcs_changes',
  uniques: [{ properties: ['integration', 'commitSha', 'issue'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    integration: () => p.manyToOne(VcsIntegration).nullable().deleteRule('set null'),
    issue: () => p.manyToOne(Issue).deleteRule('cascade').index(),
    commitSha: p.string().length(100),
    url: p.text(),
    authorName: p.text(),
    authorEmail: p.text().nullable(),
    message: p.text(),
    /** The commit's date as the host wrote it. */
    committedAt: p.string().length(100),
    branch: p.text(),
    delivery: () => p.manyToOne(VcsDelivery).nullable().deleteRule('set null').index(),
    /** The user the author's e-mail matched, or null with the reason in `note`. */
    committer: () => p.manyToOne(User).nullable().deleteRule('set null').index(),
    commentAuthor: () => p.manyToOne(User).nullable().deleteRule('set null').index(),
    note: p.text().nullable(),
    createdAt: p.bigint('number'),
  },
});
export type IVcsChange = InferEntity<typeof VcsChange>;

export const VCS_EFFECT_STATUSES = ['applied', 'skipped', 'failed'] as const;

/**
 * A command from a commit line, applied (or refused) once per (integration, commit, issue,
 * command): the row is inserted in the same transaction as the command's changes.
 */
export const VcsEffect = defineEntity({
  name: 'VcsEffect',
  tableName: 'vcs_effects',
  uniques: [{ properties: ['integration', 'commitSha', 'issue', 'commandKey'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    integration: () => p.manyToOne(VcsIntegration).deleteRule('cascade'),
    commitSha: p.string().length(100),
    issue: () => p.manyToOne(Issue).deleteRule('cascade').index(),
    /** SHA-256 of the command text: a bounded key for the unique index. */
    commandKey: p.string().length(64),
    command: p.text(),
    status: p.enum(VCS_EFFECT_STATUSES),
    reason: p.text().nullable(),
    actor: () => p.manyToOne(User).nullable().deleteRule('set null').index(),
    delivery: () => p.manyToOne(VcsDelivery).nullable().deleteRule('set null').index(),
    createdAt: p.bigint('number'),
  },
});
export type IVcsEffect = InferEntity<typeof VcsEffect>;
