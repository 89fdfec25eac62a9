import { attachmentsRouter } from '../routers/attachments/attachments.router.js';
import { commandsRouter } from '../routers/commands/commands.router.js';
import { bundlesRouter } from '../routers/custom-fields/bundles.router.js';
import { customFieldsRouter } from '../routers/custom-fields/custom-fields.router.js';
import { projectBundlesRouter } from '../routers/custom-fields/project-bundles.router.js';
import { foldersRouter } from '../routers/folders/folders.router.js';
import { importRouter } from '../routers/import/import.router.js';
import { issuesRouter } from '../routers/issues/issues.router.js';
import { linkTypesRouter } from '../routers/link-types/link-types.router.js';
import { notificationsRouter } from '../routers/notifications/notifications.router.js';
import { webhooksRouter } from '../routers/notifications/webhooks.router.js';
import { projectsRouter } from '../routers/projects/projects.router.js';
import { rolesRouter } from '../routers/roles/roles.router.js';
import { timeTrackingRouter } from '../routers/time-tracking/time-tracking.router.js';
import { groupsRouter } from '../routers/users/groups.router.js';
import { userProfilesRouter } from '../routers/users/user-profiles.router.js';
import { usersRouter } from '../routers/users/users.router.js';
import { vcsRouter } from '../routers/vcs/vcs.router.js';
import { router } from './procedures.js';

/**
 * The whole API. Each procedure is served at `/trpc/<path>` and, through its
 * `meta.openapi`, at its legacy `/rest` route.
 */
export const appRouter = router({
  linkTypes: linkTypesRouter,
  // Before `bundles`: `/admin/customfield/field...` must win over `/admin/customfield/{bundleType}...`.
  customFields: customFieldsRouter,
  bundles: bundlesRouter,
  projectBundles: projectBundlesRouter,
  roles: rolesRouter,
  projects: projectsRouter,
  users: usersRouter,
  groups: groupsRouter,
  issues: issuesRouter,
  commands: commandsRouter,
  folders: foldersRouter,
  vcs: vcsRouter,
  webhooks: webhooksRouter,
  notifications: notificationsRouter,
  import: importRouter,
  attachments: attachmentsRouter,
  timeTracking: timeTrackingRouter,
  // Last: `/user/{login}` must not shadow the literal `/user/…` routes above.
  userProfiles: userProfilesRouter,
});

export type AppRouter = typeof appRouter;
