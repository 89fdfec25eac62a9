import { type Actor, requirePermission } from '../../auth/actor.js';
import { DomainError } from '../../errors.js';
import type { Em } from '../../orm/em.js';
import { onUniqueViolation } from '../../orm/unique.js';
import type { IProject } from '../../projects/project.entity.js';
import { getReadableProject } from '../../projects/projects.js';
import { nameKey } from '../../text/user-text.js';
import { User } from '../../users/user.entity.js';
import type { UserRef } from '../issue-view.js';
import { ProjectAssignee } from './field.entity.js';

/** Users issues of the project may be assigned to (READ_PROJECT), by login. */
export async function listProjectAssignees(em: Em, actor: Actor, shortName: string): Promise<UserRef[]> {
  const project = await getReadableProject(em, actor, shortName);
  const rows = await em.find(
    ProjectAssignee,
    { project: project.id },
    { populate: ['user'], orderBy: { user: { loginKey: 'asc' } } },
  );
  return rows.map((r) => ({ login: r.user.login, fullName: r.user.fullName }));
}

async function resolve(em: Em, actor: Actor, shortName: string, login: string): Promise<[IProject, number]> {
  const project = await getReadableProject(em, actor, shortName);
  requirePermission(actor, 'UPDATE_PROJECT', project.id, `update project [ ${project.shortName} ]`);
  const user = await em.findOne(User, { loginKey: nameKey(login) });
  if (!user) throw DomainError.notFound('User', login);
  return [project, user.id];
}

/** Adds an assignee (UPDATE_PROJECT); adding one already there succeeds and changes nothing. */
export async function addProjectAssignee(
  em: Em,
  actor: Actor,
  shortName: string,
  login: string,
): Promise<void> {
  const [project, userId] = await resolve(em, actor, shortName, login);
  if (await em.findOne(ProjectAssignee, { project: project.id, user: userId })) return;
  await onUniqueViolation(
    async () => {
      await em.insert(ProjectAssignee, { project: project.id, user: userId });
    },
    () => undefined,
  );
}

/**
 * Removes an assignee (UPDATE_PROJECT). Issues already assigned to the user keep the
 * assignment; new assignments are refused.
 */
export async function removeProjectAssignee(
  em: Em,
  actor: Actor,
  shortName: string,
  login: string,
): Promise<void> {
  const [project, userId] = await resolve(em, actor, shortName, login);
  const removed = await em.nativeDelete(ProjectAssignee, { project: project.id, user: userId });
  if (removed === 0) {
    throw new DomainError(
      'NOT_FOUND',
      `User [ ${login} ] is not an assignee of project [ ${project.shortName} ].`,
    );
  }
}
