import { tables } from '../model/database.js';

/**
 * Every (user, role, project) a user holds, as SQL: their own grants and their groups' grants
 * (`project_id` null for global ones). For the queries that look for *users* by role (the user
 * list's filters, the VCS committer match); a single user's permissions come from `loadActor`.
 */
export const EFFECTIVE_GRANTS_SQL =
  '(select user_id, role_id, project_id from role_grants union all ' +
  'select m.user_id, g.role_id, g.project_id from group_role_grants g join group_members m on m.group_id = g.group_id)';

/** `EFFECTIVE_GRANTS_SQL` for the typed builder: `.innerJoin(effectiveGrants().as('g'), 'g.user_id', …)`. */
export const effectiveGrants = () =>
  tables
    .selectFrom('role_grants')
    .select(['user_id', 'role_id', 'project_id'])
    .unionAll(
      tables
        .selectFrom('group_role_grants as g')
        .innerJoin('group_members as m', 'm.group_id', 'g.group_id')
        .select(['m.user_id', 'g.role_id', 'g.project_id']),
    );
