import { type Actor, requirePermission } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import { Issue } from '../model/issue.entity.js';
import { type IProject, Project } from '../model/project.entity.js';
import type { Em } from '../orm/em.js';
import { purgeProjectRows } from './projects.js';

/** How long a deleted project stays restorable unless configured otherwise. */
export const DEFAULT_TRASH_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export type TrashedProjectView = {
  shortName: string;
  name: string;
  deletedAt: Date;
  /** When the periodic purge removes it for good. */
  purgeAfter: Date;
  issues: number;
};

/**
 * The trash is administration across projects: listing, restoring and purging need
 * DELETE_PROJECT granted globally (a project-level grant ends with the project's visibility).
 */
const requireTrashAdmin = (actor: Actor, what: string) =>
  requirePermission(actor, 'DELETE_PROJECT', undefined, what);

async function findTrashed(em: Em, shortName: string): Promise<IProject> {
  const project = await em.findOne(Project, {
    shortNameKey: shortName.toUpperCase(),
    deletedAt: { $ne: null },
  });
  if (!project) throw new DomainError('NOT_FOUND', `Project [ ${shortName} ] not found in the trash.`);
  return project;
}

export async function listTrashedProjects(
  em: Em,
  actor: Actor,
  trashDays = DEFAULT_TRASH_DAYS,
): Promise<TrashedProjectView[]> {
  requireTrashAdmin(actor, 'see deleted projects (DELETE_PROJECT globally)');
  const projects = await em.find(
    Project,
    { deletedAt: { $ne: null } },
    { orderBy: { deletedAt: 'desc', id: 'desc' } },
  );
  const views: TrashedProjectView[] = [];
  for (const p of projects) {
    const deletedAt = p.deletedAt as Date;
    views.push({
      shortName: p.shortName,
      name: p.name,
      deletedAt,
      purgeAfter: new Date(deletedAt.getTime() + trashDays * DAY_MS),
      issues: await em.count(Issue, { project: p.id }),
    });
  }
  return views;
}

/** Takes a project out of the trash with its issues, links (also across projects), fields and grants. */
export async function restoreProject(em: Em, actor: Actor, shortName: string): Promise<IProject> {
  requireTrashAdmin(actor, 'restore deleted projects (DELETE_PROJECT globally)');
  const project = await findTrashed(em, shortName);
  project.deletedAt = null;
  await em.flush();
  await em.populate(project, ['lead']);
  return project;
}

/** Removes a trashed project and everything in it for good; a live project must be deleted first. */
export async function purgeProject(em: Em, actor: Actor, shortName: string): Promise<void> {
  requireTrashAdmin(actor, 'purge deleted projects (DELETE_PROJECT globally)');
  const project = await findTrashed(em, shortName);
  if (!(await purgeProjectRows(em, project.id)))
    throw new DomainError('NOT_FOUND', `Project [ ${shortName} ] not found in the trash.`);
}

/** The periodic purge: projects trashed more than `trashDays` ago. Answers the purged short names. */
export async function purgeExpiredProjects(em: Em, trashDays: number, now = new Date()): Promise<string[]> {
  const before = new Date(now.getTime() - trashDays * DAY_MS);
  const expired = await em.find(Project, { deletedAt: { $ne: null, $lte: before } });
  const purged: string[] = [];
  for (const project of expired) if (await purgeProjectRows(em, project.id)) purged.push(project.shortName);
  return purged;
}
