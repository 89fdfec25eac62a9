/**
 * The permission catalogue. Keys follow the legacy YouTrack names; `scope` says whether
 * the permission is granted per project (a role granted in a project gives it there only)
 * or only globally (a role granted without a project).
 */
export const PERMISSIONS = {
  READ_ISSUE: { description: 'Read Issue', scope: 'project' },
  UPDATE_ISSUE: { description: 'Update Issue', scope: 'project' },
  CREATE_ISSUE: { description: 'Create Issue', scope: 'project' },
  DELETE_ISSUE: { description: 'Delete Issue', scope: 'project' },
  LINK_ISSUE: { description: 'Link Issues', scope: 'project' },
  PRIVATE_READ_ISSUE: { description: 'Read Issue Private Fields', scope: 'project' },
  PRIVATE_UPDATE_ISSUE: { description: 'Update Issue Private Fields', scope: 'project' },
  CREATE_ATTACHMENT_ISSUE: { description: 'Add Attachment', scope: 'project' },
  UPDATE_ATTACHMENT_ISSUE: { description: 'Update Attachment', scope: 'project' },
  DELETE_ATTACHMENT_ISSUE: { description: 'Delete Attachment', scope: 'project' },
  CREATE_COMMENT: { description: 'Create Comment', scope: 'project' },
  READ_COMMENT: { description: 'Read Comment', scope: 'project' },
  UPDATE_COMMENT: { description: 'Update Comment', scope: 'project' },
  DELETE_COMMENT: { description: 'Delete Comment', scope: 'project' },
  UPDATE_NOT_OWN_COMMENT: { description: 'Update Not Own Comment', scope: 'project' },
  DELETE_NOT_OWN_COMMENT: { description: 'Delete Not Own Comment', scope: 'project' },
  VIEW_WATCHERS: { description: 'View Watchers', scope: 'project' },
  UPDATE_WATCHERS: { description: 'Update Watchers', scope: 'project' },
  VIEW_VOTERS: { description: 'View Voters', scope: 'project' },
  READ_WORK_ITEM: { description: 'Read Work Item', scope: 'project' },
  CREATE_WORK_ITEM: { description: 'Create Work Item', scope: 'project' },
  UPDATE_WORK_ITEM: { description: 'Update Work Item', scope: 'project' },
  UPDATE_NOT_OWN_WORK_ITEM: { description: 'Update Not Own Work Item', scope: 'project' },
  CREATE_NOT_OWN_WORK_ITEM: { description: 'Create Not Own Work Item', scope: 'project' },
  READ_PROJECT: { description: 'Read Project', scope: 'project' },
  UPDATE_PROJECT: { description: 'Update Project', scope: 'project' },
  CREATE_PROJECT: { description: 'Create Project', scope: 'global' },
  DELETE_PROJECT: { description: 'Delete Project', scope: 'project' },
  READ_USER: { description: 'Read User', scope: 'global' },
  CREATE_USER: { description: 'Create User', scope: 'global' },
  UPDATE_USER: { description: 'Update User', scope: 'global' },
  DELETE_USER: { description: 'Delete User', scope: 'global' },
  READ_USERGROUP: { description: 'Read Group', scope: 'global' },
  CREATE_USERGROUP: { description: 'Create Group', scope: 'global' },
  UPDATE_USERGROUP: { description: 'Update Group', scope: 'global' },
  DELETE_USERGROUP: { description: 'Delete Group', scope: 'global' },
  READ_ROLE: { description: 'Read Role', scope: 'global' },
  CREATE_ROLE: { description: 'Create Role', scope: 'global' },
  UPDATE_ROLE: { description: 'Update Role (including its permissions and grants)', scope: 'global' },
  DELETE_ROLE: { description: 'Delete Role', scope: 'global' },
  UPDATE_ISSUE_LINK_TYPE: { description: 'Create, update and delete issue link types', scope: 'global' },
  CREATE_WATCH_FOLDER: { description: 'Create Saved Searches and Tags', scope: 'global' },
  UPDATE_WATCH_FOLDER: { description: 'Update Saved Searches and Tags', scope: 'global' },
  DELETE_WATCH_FOLDER: { description: 'Delete Saved Searches and Tags', scope: 'global' },
  SHARE_WATCH_FOLDER: { description: 'Share Saved Searches and Tags', scope: 'global' },
  READ_HIDDEN_STUFF: { description: 'Read Hidden Stuff', scope: 'project' },
  APPLY_COMMANDS_SILENTLY: { description: 'Apply Commands Silently', scope: 'project' },
  ADMIN_VCS_INTEGRATION: { description: 'Administer VCS integrations', scope: 'global' },
  /**
   * The import API (`/rest/import/...`): sets numbers, dates and authors as given and creates
   * users, so it is global and held apart from the everyday issue permissions.
   */
  IMPORT_DATA: {
    description: 'Import users, issues, links, attachments and work items as given (numbers, dates, authors)',
    scope: 'global',
  },
  LOW_LEVEL_ADMIN: {
    description: 'Low-level Administration (run as another user, system users)',
    scope: 'global',
  },
} as const satisfies Record<string, { description: string; scope: 'project' | 'global' }>;

export type PermissionKey = keyof typeof PERMISSIONS;
export const PERMISSION_KEYS = Object.keys(PERMISSIONS) as PermissionKey[];
export const isPermissionKey = (key: string): key is PermissionKey => Object.hasOwn(PERMISSIONS, key);
