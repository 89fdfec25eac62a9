import { PermanentToken, Session } from '../auth/token.entity.js';
import { Issue, IssueLink } from '../issues/issue.entity.js';
import { IssueLinkType } from '../link-types/link-type.entity.js';
import { Project } from '../projects/project.entity.js';
import { Permission, Role, RoleGrant } from '../roles/role.entity.js';
import { User } from '../users/user.entity.js';

/** Every entity the ORM knows; migrations are generated from this list. */
export const ENTITIES = [
  User,
  PermanentToken,
  Session,
  Permission,
  Role,
  RoleGrant,
  Project,
  IssueLinkType,
  Issue,
  IssueLink,
];
