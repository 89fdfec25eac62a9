import type { EntitySchema } from '@mikro-orm/core';
import { IssueAttachment } from './attachment.entity.js';
import { IssueComment } from './comment.entity.js';
import {
  Bundle,
  BundleGroup,
  BundleUser,
  CustomField,
  FieldValue,
  IssueFieldValue,
  ProjectField,
} from './field.entity.js';
import { Group, GroupMember, GroupRoleGrant } from './group.entity.js';
import { Issue, IssueLink } from './issue.entity.js';
import { IssueChange } from './issue-change.entity.js';
import { IssueEvent } from './issue-event.entity.js';
import { IssueLinkType } from './link-type.entity.js';
import {
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
import { Project } from './project.entity.js';
import { Permission, Role, RoleGrant } from './role.entity.js';
import { SavedSearch } from './saved-search.entity.js';
import { IssueStar, IssueVote } from './stars-votes.entity.js';
import { IssueTag, Tag } from './tag.entity.js';
import { PermanentToken, Session } from './token.entity.js';
import { User } from './user.entity.js';
import { VcsChange, VcsDelivery, VcsEffect, VcsIntegration, VcsIntegrationProject } from './vcs.entity.js';
import { ProjectTimeTracking, TimeTrackingSettings, WorkItem, WorkType } from './work-item.entity.js';

/**
 * Every entity the ORM knows; migrations are generated from this list. Typed loosely: the
 * inferred tuple of every schema grew past what the compiler will write into a declaration.
 */
export const ENTITIES: EntitySchema[] = [
  User,
  PermanentToken,
  Session,
  Permission,
  Role,
  RoleGrant,
  Project,
  Group,
  GroupMember,
  GroupRoleGrant,
  IssueLinkType,
  Issue,
  IssueLink,
  Bundle,
  CustomField,
  ProjectField,
  FieldValue,
  BundleUser,
  BundleGroup,
  IssueFieldValue,
  IssueComment,
  IssueChange,
  IssueEvent,
  Tag,
  IssueTag,
  IssueStar,
  IssueVote,
  SavedSearch,
  VcsIntegration,
  VcsIntegrationProject,
  VcsDelivery,
  VcsChange,
  VcsEffect,
  IssueAttachment,
  WorkType,
  WorkItem,
  ProjectTimeTracking,
  TimeTrackingSettings,
  NotificationSetting,
  NotificationSubscription,
  NotificationEvent,
  NotificationMessage,
  NotificationDelivery,
  Webhook,
  WebhookProject,
  WebhookDelivery,
  WebhookAttempt,
  InstallationKey,
];
