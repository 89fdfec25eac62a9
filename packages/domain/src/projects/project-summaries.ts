import type { Actor } from '../auth/actor.js';
import { FieldValue, ProjectAssignee } from '../issues/fields/field.entity.js';
import type { Em } from '../orm/em.js';
import { listAccessibleProjects } from './projects.js';

export type ProjectSummary = {
  name: string;
  shortName: string;
  description: string;
  /** Present when asked for (`verbose`): the project's assignees and subsystems. */
  details?: {
    assignees: { login: string; fullName: string }[];
    subsystems: string[];
  };
};

/** The subsystem field's name in the default field set. */
const SUBSYSTEM_FIELD_KEY = 'subsystem';

/**
 * Projects the actor may read (READ_PROJECT), by short name, for the legacy `/project/all`;
 * with `verbose`, each with its assignees (by login) and subsystem values (in display order).
 */
export async function listProjectSummaries(
  em: Em,
  actor: Actor,
  verbose: boolean,
): Promise<ProjectSummary[]> {
  const projects = await listAccessibleProjects(em, actor);
  if (!verbose || projects.length === 0)
    return projects.map((p) => ({ name: p.name, shortName: p.shortName, description: p.description }));
  const ids = projects.map((p) => p.id);
  const assignees = await em.find(
    ProjectAssignee,
    { project: { $in: ids } },
    { populate: ['user'], orderBy: { user: { loginKey: 'asc' } } },
  );
  const subsystems = await em.find(
    FieldValue,
    { field: { project: { $in: ids }, nameKey: SUBSYSTEM_FIELD_KEY } },
    { populate: ['field'], orderBy: { ordinal: 'asc', id: 'asc' } },
  );
  return projects.map((p) => ({
    name: p.name,
    shortName: p.shortName,
    description: p.description,
    details: {
      assignees: assignees
        .filter((a) => a.project.id === p.id)
        .map((a) => ({ login: a.user.login, fullName: a.user.fullName })),
      subsystems: subsystems.filter((v) => v.field.project.id === p.id).map((v) => v.name),
    },
  }));
}
