import type { EntitySchema } from '@mikro-orm/core';
import { PermanentToken, Session } from '../auth/token.entity.js';
import { SavedSearch } from '../folders/saved-search.entity.js';
import { Group, GroupMember, GroupRoleGrant } from '../groups/group.entity.js';
import { IssueAttachment } from '../issues/attachments/attachment.entity.js';
import { IssueComment } from '../issues/comments/comment.entity.js';
import {
  Bundle,
  BundleGroup,
  BundleUser,
  CustomField,
  FieldValue,
  IssueFieldValue,
  ProjectField,
} from '../issues/fields/field.entity.js';
import { IssueChange } from '../issues/history/issue-change.entity.js';
import { Issue, IssueLink } from '../issues/issue.entity.js';
import { IssueStar, IssueVote } from '../issues/stars-votes.entity.js';
import { IssueTag, Tag } from '../issues/tags/tag.entity.js';
import {
  ProjectTimeTracking,
  TimeTrackingSettings,
  WorkItem,
  WorkType,
} from '../issues/work-items/work-item.entity.js';
import { IssueLinkType } from '../link-types/link-type.entity.js';
import { Project } from '../projects/project.entity.js';
import { Permission, Role, RoleGrant } from '../roles/role.entity.js';
import { User } from '../users/user.entity.js';
import {
  VcsChange,
  VcsDelivery,
  VcsEffect,
  VcsIntegration,
  VcsIntegrationProject,
} from '../vcs/vcs.entity.js';

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
];
