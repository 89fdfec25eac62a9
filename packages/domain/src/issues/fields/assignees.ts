import { type Actor, requirePermission } from '../../auth/actor.js';
import { DomainError } from '../../errors.js';
import { BundleUser, ProjectField } from '../../model/field.entity.js';
import type { IProject } from '../../model/project.entity.js';
import { User } from '../../model/user.entity.js';
import type { Em } from '../../orm/em.js';
import { onUniqueViolation } from '../../orm/unique.js';
import { BUNDLE_MEMBERS } from '../../projects/bundle-usage.js';
import { getReadableProject } from '../../projects/projects.js';
import { nameKey } from '../../text/user-text.js';
import type { UserRef } from '../issue-view.js';

/**
 * The bundle holding a project's assignees: that of its Assignee field, else of its first user
 * field; null when the project has no user field.
 */
export async function assigneeBundleId(em: Em, projectId: number): Promise<number | null> {
  const fields = await em.find(
    ProjectField,
    { project: projectId, kind: 'user', bundle: { $ne: null } },
    { orderBy: { ordinal: 'asc', id: 'asc' } },
  );
  const field = fields.find((f) => f.nameKey === 'assignee') ?? fields[0];
  return field?.bundle?.id ?? null;
}

/** Users issues of the project may be assigned to (READ_PROJECT), by login: individuals and members of its groups. */
export async function listProjectAssignees(
  em: Em,
  actor: Actor,
  shortName: string,
): Promise<(UserRef & { isFromGroup: boolean })[]> {
  const project = await getReadableProject(em, actor, shortName);
  const bundle = await assigneeBundleId(em, project.id);
  if (bundle === null) return [];
  const rows = await em.execute<{ login: string; full_name: string; individual: unknown }[]>(
    'select u.login, u.full_name, (select count(*) from bundle_users i where i.bundle_id = ? and i.user_id = u.id) as individual ' +
      `from (${BUNDLE_MEMBERS}) bm join users u on u.id = bm.user_id where bm.bundle_id = ? order by u.login_key`,
    [bundle, bundle],
  );
  return rows.map((r) => ({
    login: r.login,
    fullName: r.full_name,
    isFromGroup: Number(r.individual) === 0,
  }));
}

/** The groups whose members may be assigned issues of the project (READ_PROJECT). */
export async function listProjectAssigneeGroups(em: Em, actor: Actor, shortName: string): Promise<string[]> {
  const project = await getReadableProject(em, actor, shortName);
  const bundle = await assigneeBundleId(em, project.id);
  if (bundle === null) return [];
  const rows = await em.execute<{ name: string }[]>(
    'select g.name from bundle_groups bg join user_groups g on g.id = bg.group_id where bg.bundle_id = ? order by g.name_key',
    [bundle],
  );
  return rows.map((r) => r.name);
}

async function resolve(
  em: Em,
  actor: Actor,
  shortName: string,
  login: string,
): Promise<[IProject, number, number]> {
  const project = await getReadableProject(em, actor, shortName);
  requirePermission(actor, 'UPDATE_PROJECT', project.id, `update project [ ${project.shortName} ]`);
  const user = await em.findOne(User, { loginKey: nameKey(login) });
  if (!user) throw DomainError.notFound('User', login);
  const bundle = await assigneeBundleId(em, project.id);
  if (bundle === null) throw DomainError.invalid('project', `[ ${project.shortName} ] has no user field`);
  return [project, user.id, bundle];
}

/** Adds an assignee (UPDATE_PROJECT); adding one already there succeeds and changes nothing. */
export async function addProjectAssignee(
  em: Em,
  actor: Actor,
  shortName: string,
  login: string,
): Promise<void> {
  const [, userId, bundle] = await resolve(em, actor, shortName, login);
  if (await em.findOne(BundleUser, { bundle, user: userId })) return;
  await onUniqueViolation(
    async () => {
      await em.insert(BundleUser, { bundle, user: userId });
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
  const [project, userId, bundle] = await resolve(em, actor, shortName, login);
  const removed = await em.nativeDelete(BundleUser, { bundle, user: userId });
  if (removed === 0) {
    throw new DomainError(
      'NOT_FOUND',
      `User [ ${login} ] is not an assignee of project [ ${project.shortName} ].`,
    );
  }
}
