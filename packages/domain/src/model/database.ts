import type { InferKyselyDB } from '@mikro-orm/sql';
import type { PermissionKey } from '@trackline/contracts';
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import type { IssueAttachment } from './attachment.entity.js';
import type { IssueComment } from './comment.entity.js';
import type {
  Bundle,
  BundleGroup,
  BundleUser,
  CustomField,
  FieldValue,
  IssueFieldValue,
  ProjectField,
} from './field.entity.js';
import type { Group, GroupMember, GroupRoleGrant } from './group.entity.js';
import type { Issue, IssueLink } from './issue.entity.js';
import type { IssueChange } from './issue-change.entity.js';
import type { IssueEvent } from './issue-event.entity.js';
import type { IssueLinkType } from './link-type.entity.js';
import type {
  InstallationKey,
  NotificationDelivery,
  NotificationEvent,
  NotificationMessage,
  NotificationSetting,
  NotificationSubscription,
  Webhook,
  WebhookAttempt,
  WebhookDelivery,
  WebhookProject,
} from './notification.entity.js';
import type { Project } from './project.entity.js';
import type { Permission, Role, RoleGrant } from './role.entity.js';
import type { SavedSearch } from './saved-search.entity.js';
import type { IssueStar, IssueVote } from './stars-votes.entity.js';
import type { IssueTag, Tag } from './tag.entity.js';
import type { PermanentToken, Session } from './token.entity.js';
import type { User } from './user.entity.js';
import type {
  VcsChange,
  VcsDelivery,
  VcsEffect,
  VcsIntegration,
  VcsIntegrationProject,
} from './vcs.entity.js';
import type { ProjectTimeTracking, TimeTrackingSettings, WorkItem, WorkType } from './work-item.entity.js';

/**
 * The database's tables and columns as the entities describe them (MikroORM's Kysely typing of
 * `defineEntity` schemas, snake_case names): the one description raw reads are typed from. The
 * migrations produce exactly this schema (`orm/migrate.test.ts` checks there is no drift), so a
 * query written against it names only columns that exist, and its rows carry their types.
 */
export type Database = Pivots & EntityTables;

/**
 * The pivot tables, which MikroORM's typing (of entities) leaves out: `Role.permissions`. Their
 * columns are listed once more at run time, so a test can hold them against the database.
 */
export const PIVOT_COLUMNS = { role_permissions: ['role_id', 'permission_key'] } as const;
type Pivots = { role_permissions: { role_id: number; permission_key: PermissionKey } };

type EntityTables = InferKyselyDB<
  | typeof Bundle
  | typeof BundleGroup
  | typeof BundleUser
  | typeof CustomField
  | typeof FieldValue
  | typeof Group
  | typeof GroupMember
  | typeof GroupRoleGrant
  | typeof Issue
  | typeof InstallationKey
  | typeof IssueAttachment
  | typeof IssueChange
  | typeof IssueComment
  | typeof IssueEvent
  | typeof IssueFieldValue
  | typeof IssueLink
  | typeof IssueLinkType
  | typeof IssueStar
  | typeof IssueTag
  | typeof IssueVote
  | typeof NotificationDelivery
  | typeof NotificationEvent
  | typeof NotificationMessage
  | typeof NotificationSetting
  | typeof NotificationSubscription
  | typeof PermanentToken
  | typeof Permission
  | typeof Project
  | typeof ProjectField
  | typeof ProjectTimeTracking
  | typeof Role
  | typeof RoleGrant
  | typeof SavedSearch
  | typeof Session
  | typeof Tag
  | typeof TimeTrackingSettings
  | typeof User
  | typeof VcsChange
  | typeof VcsDelivery
  | typeof VcsEffect
  | typeof VcsIntegration
  | typeof VcsIntegrationProject
  | typeof Webhook
  | typeof WebhookAttempt
  | typeof WebhookDelivery
  | typeof WebhookProject
  | typeof WorkItem
  | typeof WorkType
>;

/**
 * A query builder over `Database` that only compiles (it has no connection): queries are written
 * with it, typed, and run by the statement runner (`orm/typed-query.ts`) on statements prepared
 * once. SQLite's compiler writes `?` placeholders and double-quoted names, which PostgreSQL
 * reads as well (the runner numbers the placeholders for it).
 */
export const tables: Kysely<Database> = new Kysely<Database>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});
