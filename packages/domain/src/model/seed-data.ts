import { PERMISSION_KEYS, type PermissionKey } from '@trackline/contracts';

export const SEED_LINK_TYPES = [
  {
    name: 'Relates',
    outwardName: 'relates to',
    inwardName: 'relates to',
    directed: false,
    aggregation: false,
  },
  {
    name: 'Depend',
    outwardName: 'depends on',
    inwardName: 'is required for',
    directed: true,
    aggregation: false,
  },
  {
    name: 'Duplicate',
    outwardName: 'duplicates',
    inwardName: 'is duplicated by',
    directed: true,
    aggregation: true,
  },
  { name: 'Subtask', outwardName: 'parent for', inwardName: 'subtask of', directed: true, aggregation: true },
];

const OBSERVER: PermissionKey[] = [
  'READ_ISSUE',
  'READ_COMMENT',
  'READ_PROJECT',
  'READ_USER',
  'READ_WORK_ITEM',
];
const REPORTER: PermissionKey[] = [
  ...OBSERVER,
  'CREATE_ISSUE',
  'LINK_ISSUE',
  'CREATE_COMMENT',
  'UPDATE_COMMENT',
  'DELETE_COMMENT',
  'CREATE_ATTACHMENT_ISSUE',
  'CREATE_WATCH_FOLDER',
  'UPDATE_WATCH_FOLDER',
  'DELETE_WATCH_FOLDER',
];
const DEVELOPER: PermissionKey[] = [
  ...REPORTER,
  'UPDATE_ISSUE',
  'DELETE_ISSUE',
  'PRIVATE_READ_ISSUE',
  'PRIVATE_UPDATE_ISSUE',
  'UPDATE_ATTACHMENT_ISSUE',
  'DELETE_ATTACHMENT_ISSUE',
  'VIEW_WATCHERS',
  'UPDATE_WATCHERS',
  'VIEW_VOTERS',
  'CREATE_WORK_ITEM',
  'UPDATE_WORK_ITEM',
  'SHARE_WATCH_FOLDER',
];
const PROJECT_ADMIN: PermissionKey[] = [
  ...DEVELOPER,
  'UPDATE_PROJECT',
  'DELETE_PROJECT',
  'UPDATE_NOT_OWN_COMMENT',
  'DELETE_NOT_OWN_COMMENT',
  'UPDATE_NOT_OWN_WORK_ITEM',
  'CREATE_NOT_OWN_WORK_ITEM',
  'READ_HIDDEN_STUFF',
  'APPLY_COMMANDS_SILENTLY',
  'READ_ROLE',
  'READ_USERGROUP',
];

export const SEED_ROLES: { name: string; description: string; permissions: readonly PermissionKey[] }[] = [
  { name: 'Admin', description: 'Admin can do everything.', permissions: PERMISSION_KEYS },
  {
    name: 'Project Admin',
    description: 'Administers the projects it is granted in.',
    permissions: PROJECT_ADMIN,
  },
  {
    name: 'Developer',
    description: 'Works on issues: reads, creates, updates and links.',
    permissions: DEVELOPER,
  },
  { name: 'Reporter', description: 'Reports issues and comments on them.', permissions: REPORTER },
  { name: 'Observer', description: 'Reads issues and comments.', permissions: OBSERVER },
];

/**
 * What a deleted user's issues, comments and changes point at from then on. Ensured at every
 * seed (not only the first), so that installations from before it have it too.
 */
export const DELETED_USER = { login: 'deleted_user', fullName: 'Deleted user', type: 'system' as const };

export const SYSTEM_ACCOUNTS = [
  { login: 'guest', fullName: 'Guest', type: 'guest' as const },
  { login: 'system_user', fullName: 'Workflow and system user', type: 'workflow' as const },
];

/**
 * The logins of the built-in accounts (lower-cased): never created, changed or deleted through an
 * import or the user administration, whatever type their row has (an older version let an import
 * turn `deleted_user` into an ordinary account; the seed turns it back).
 */
export const BUILT_IN_LOGINS: ReadonlySet<string> = new Set([
  'root',
  DELETED_USER.login,
  ...SYSTEM_ACCOUNTS.map((a) => a.login),
]);

/** Created with the first seed: every user joins it (the original's "All Users"). */
export const SEED_GROUPS = [
  { name: 'All Users', description: 'Every user of the installation.', autoJoin: true },
];
