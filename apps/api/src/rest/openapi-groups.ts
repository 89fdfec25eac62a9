/**
 * The groups (OpenAPI tags) of the document, in the order and under the names of the original's
 * legacy REST documentation ("Log in", "Issues Related Methods", "Project Related Methods",
 * "User Related Methods", the administration sections, "Import"), then Trackline's own
 * additions. A route belongs to the first group whose pattern matches its path (relative to
 * `/rest`); a route added by any feature is grouped here, not in its contract.
 */
export const GROUPS: { name: string; description: string; paths: RegExp }[] = [
  {
    name: 'Log in',
    description: 'Log in to YouTrack: the session cookie, logout.',
    paths: /^\/user\/(login|logout)$/,
  },
  {
    name: 'Issues',
    description:
      'Issues Related Methods: read, create, update, delete, search, count, commands, comments, links, history, attachments, work items.',
    paths: /^\/(issue|event\/issueEvents)(\/|$)/,
  },
  {
    name: 'Projects',
    description: 'Project Related Methods: the accessible projects.',
    paths: /^\/project\//,
  },
  {
    name: 'Users',
    description: 'User Related Methods: the current user, a user, saved searches, tags, permanent tokens.',
    paths: /^\/user(\/|$)/,
  },
  {
    name: 'Administration: Projects',
    description:
      'Project administration: projects, their custom fields, subsystems, versions, builds, assignees, time tracking, and the trash.',
    paths: /^\/admin\/(project|projectTrash)(\/|$)/,
  },
  {
    name: 'Administration: Users and Groups',
    description: 'Users, user groups, their roles; system users.',
    paths: /^\/admin\/(user|group|systemuser)(\/|$)/,
  },
  {
    name: 'Administration: Roles and Permissions',
    description: 'Roles and the permissions they grant.',
    paths: /^\/admin\/(role|permission)(\/|$)/,
  },
  {
    name: 'Administration: Issue Link Types',
    description: 'Issue link types.',
    paths: /^\/admin\/issueLinkType(\/|$)/,
  },
  {
    name: 'Administration: Custom Fields',
    description: 'Custom field prototypes and bundles.',
    paths: /^\/admin\/customfield(\/|$)/,
  },
  {
    name: 'Administration: Time Tracking',
    description: 'Global time tracking settings and work types.',
    paths: /^\/admin\/timetracking(\/|$)/,
  },
  {
    name: 'Import',
    description: 'Import of users, issues, links, attachments and work items; the export of links.',
    paths: /^\/(import|export)(\/|$)/,
  },
  {
    name: 'Commands (IDE plugins)',
    description: 'Command assistance as the JetBrains IDE plugin calls it (JSON by default).',
    paths: /^\/command(\/|$)/,
  },
  {
    name: 'Issue folders',
    description: 'Projects, saved searches and tags as search contexts.',
    paths: /^\/issuesFolder(\/|$)/,
  },
  {
    name: 'Webhooks',
    description:
      'Outgoing webhooks: changes of issues posted, signed, to other services; their delivery log.',
    paths: /^\/admin\/webhook(\/|$)/,
  },
  {
    name: 'VCS integrations',
    description: 'Push hooks from GitHub, GitLab and Bitbucket, and their integrations.',
    paths: /^\/(vcsHooksReceiver|admin\/vcsIntegration)(\/|$)/,
  },
  {
    name: 'Documentation',
    description: 'This document and its page.',
    paths: /^\/(openapi\.json|docs)(\/|$)/,
  },
  { name: 'tRPC', description: 'The tRPC interface for TypeScript consumers.', paths: /^\/trpc\// },
  { name: 'Other', description: 'Routes no group above covers.', paths: /./ },
];

export const groupOf = (path: string): string => GROUPS.find((g) => g.paths.test(path))?.name ?? 'Other';
