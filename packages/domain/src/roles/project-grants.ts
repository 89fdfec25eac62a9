import { type Actor, can, requirePermission } from '../auth/actor.js';
import type { Em } from '../orm/em.js';
import { findReadableProject } from './grant-rules.js';

/** One role held in a project: by a user or a group, granted in the project or everywhere. */
export type ProjectGrant = {
  holder: { kind: 'user' | 'group'; name: string; fullName: string };
  role: string;
  scope: 'project' | 'everywhere';
};

type Row = { name: string; full_name: string; role: string; project_id: number | null };

/**
 * Who holds which role in a project (the console's project screen): the grants made in it and
 * those made everywhere, to users and to groups. For the project's administrators (UPDATE_PROJECT
 * there) and those who read roles (READ_ROLE).
 */
export async function listProjectGrants(em: Em, actor: Actor, shortName: string): Promise<ProjectGrant[]> {
  const project = await findReadableProject(em, actor, shortName);
  if (!can(actor, 'READ_ROLE'))
    requirePermission(
      actor,
      'UPDATE_PROJECT',
      project.id,
      `list the roles granted in project [ ${project.shortName} ]`,
    );
  const users = await em.execute<Row[]>(
    'select u.login as name, u.full_name, r.name as role, g.project_id from role_grants g ' +
      'join users u on u.id = g.user_id join roles r on r.id = g.role_id ' +
      'where g.project_id = ? or g.project_id is null order by u.login_key, r.name',
    [project.id],
  );
  const groups = await em.execute<Row[]>(
    'select gr.name, gr.name as full_name, r.name as role, g.project_id from group_role_grants g ' +
      'join user_groups gr on gr.id = g.group_id join roles r on r.id = g.role_id ' +
      'where g.project_id = ? or g.project_id is null order by gr.name, r.name',
    [project.id],
  );
  const grant =
    (kind: 'user' | 'group') =>
    (r: Row): ProjectGrant => ({
      holder: { kind, name: r.name, fullName: r.full_name },
      role: r.role,
      scope: r.project_id === null ? 'everywhere' : 'project',
    });
  return [...users.map(grant('user')), ...groups.map(grant('group'))];
}
