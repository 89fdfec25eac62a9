import { type Actor, can, requirePermission } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import { tables } from '../model/database.js';
import { ProjectField } from '../model/field.entity.js';
import { GroupRoleGrant } from '../model/group.entity.js';
import { Issue } from '../model/issue.entity.js';
import { type IProject, Project } from '../model/project.entity.js';
import { RoleGrant } from '../model/role.entity.js';
import { type IUser, User } from '../model/user.entity.js';
import { VcsIntegrationProject } from '../model/vcs.entity.js';
import type { Em } from '../orm/em.js';
import { inTransaction } from '../orm/transaction.js';
import { type Param, prepareRead } from '../orm/typed-query.js';
import { onUniqueViolation, rejectWith } from '../orm/unique.js';
import { type ProjectListItem, readableProjects } from '../read-models/projects.js';
import { attachDefaultFields } from './attach-fields.js';
import { deleteUnusedBundles } from './bundle-usage.js';
import { deleteIssueDependents, issueIdsOfProject } from './issue-dependents.js';

export type NewProject = {
  shortName: string;
  name: string;
  description?: string | undefined;
  leadLogin?: string | undefined;
  startingNumber?: number | undefined;
};

/** Projects the actor may read (READ_PROJECT globally or in the project). */
export function listAccessibleProjects(em: Em, actor: Actor): Promise<ProjectListItem[]> {
  return readableProjects(em, actor);
}

/**
 * A project the actor can read. An unreadable project answers exactly like a missing
 * one, so that short names of other teams' projects cannot be probed.
 */
export async function getReadableProject(em: Em, actor: Actor, shortName: string): Promise<IProject> {
  const project = await em.findOne(
    Project,
    { shortNameKey: shortName.toUpperCase() },
    { populate: ['lead'] },
  );
  if (!project || !can(actor, 'READ_PROJECT', project.id)) throw DomainError.notFound('Project', shortName);
  return project;
}

const projectIdQuery = prepareRead((param: Param<{ key: string }>) =>
  tables.selectFrom('projects').select('id').where('short_name_key', '=', param('key')),
);

/**
 * The database id of a project the actor may read (READ_PROJECT), by short name; NOT_FOUND
 * otherwise, alike for a missing one. One indexed read, no entity: for paths that only need to
 * scope by project (a page of its issues).
 */
export async function readableProjectId(em: Em, actor: Actor, shortName: string): Promise<number> {
  const row = await projectIdQuery.first(em, { key: shortName.toUpperCase() });
  const id = row === undefined ? undefined : Number(row.id);
  if (id === undefined || !can(actor, 'READ_PROJECT', id)) throw DomainError.notFound('Project', shortName);
  return id;
}

export async function createProject(em: Em, actor: Actor, input: NewProject): Promise<IProject> {
  requirePermission(actor, 'CREATE_PROJECT');
  let lead: IUser | null;
  if (input.leadLogin) {
    lead = await em.findOne(User, { loginKey: input.leadLogin.toLowerCase() });
    if (!lead) throw DomainError.invalid('projectLeadLogin', `user [ ${input.leadLogin} ] not found`);
  } else {
    lead = await em.findOneOrFail(User, { id: actor.userId });
  }
  if (await em.findOne(Project, { shortNameKey: input.shortName.toUpperCase() })) {
    throw DomainError.alreadyExists('Project', input.shortName);
  }
  if (await em.findOne(Project, { nameKey: input.name.toLowerCase() })) {
    throw new DomainError('ALREADY_EXISTS', `Project with name [ ${input.name} ] already exists.`);
  }
  const startingNumber = input.startingNumber ?? 1;
  // Two concurrent creators both passed the checks above: the unique index decides.
  return onUniqueViolation(
    async () => {
      const project = em.create(Project, {
        shortName: input.shortName,
        shortNameKey: input.shortName.toUpperCase(),
        name: input.name,
        nameKey: input.name.toLowerCase(),
        description: input.description ?? '',
        lead,
        startingNumber,
        nextNumber: startingNumber,
      });
      // Same flush (one transaction): a project never exists without its fields.
      await attachDefaultFields(em, project, lead.id);
      await em.flush();
      return project;
    },
    rejectWith(() => DomainError.alreadyExists('Project', input.shortName)),
  );
}

/**
 * Moves the project to the trash (DELETE_PROJECT in it): it and its issues become invisible
 * everywhere at once, its short name and name stay reserved, and an administrator may restore
 * it (see `trash.ts`) until it is purged. Nothing is removed here.
 */
export async function deleteProject(
  em: Em,
  actor: Actor,
  shortName: string,
  now = new Date(),
): Promise<void> {
  const project = await getReadableProject(em, actor, shortName);
  requirePermission(actor, 'DELETE_PROJECT', project.id, `delete project [ ${project.shortName} ]`);
  // A concurrent delete may have trashed it since we read it: then this one answers like a missing one.
  if ((await em.nativeUpdate(Project, { id: project.id, deletedAt: null }, { deletedAt: now })) === 0)
    throw DomainError.notFound('Project', shortName);
}

/**
 * Removes a project for good with all its issues and everything hanging off them (field values,
 * comments, tags on them, stars, votes, links in both directions, recorded commits), its
 * fields, assignees, role grants and VCS links, atomically (the issues' rows through
 * `deleteIssueDependents`, the one list of what belongs to an issue). Only for trashed projects (`trash.ts`).
 */
export async function purgeProjectRows(em: Em, projectId: number): Promise<boolean> {
  return inTransaction(em, async (tx) => {
    const issueIds = issueIdsOfProject(tx as Em, projectId);
    await deleteIssueDependents(tx as Em, issueIds);
    await tx.nativeDelete(Issue, { project: projectId });
    const bundleIds = (await tx.find(ProjectField, { project: projectId, bundle: { $ne: null } })).flatMap(
      (f) => (f.bundle ? [f.bundle.id] : []),
    );
    await tx.nativeDelete(ProjectField, { project: projectId });
    const project = await tx.findOne(Project, projectId);
    if (project) await deleteUnusedBundles(tx as Em, bundleIds, project.shortName);
    await tx.nativeDelete(RoleGrant, { project: projectId });
    await tx.nativeDelete(GroupRoleGrant, { project: projectId });
    await tx.nativeDelete(VcsIntegrationProject, { project: projectId });
    // A concurrent purge may have removed it meanwhile (PostgreSQL runs both at once).
    return (await tx.nativeDelete(Project, { id: projectId, deletedAt: { $ne: null } })) > 0;
  });
}
