import type { Actor } from '../auth/actor.js';
import type { Em } from '../orm/em.js';
import { placeholders } from '../orm/sql-fragments.js';
import { BUNDLE_MEMBERS } from './bundle-usage.js';
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
  const inIds = placeholders(ids);
  // Assignees: the users of each project's Assignee bundle (see `assigneeBundleId`).
  const assignees = await em.execute<{ project_id: number; login: string; full_name: string }[]>(
    'select pf.project_id, u.login, u.full_name from project_fields pf ' +
      `join (${BUNDLE_MEMBERS}) bu on bu.bundle_id = pf.bundle_id join users u on u.id = bu.user_id ` +
      `where pf.kind = 'user' and pf.name_key = 'assignee' and pf.project_id in (${inIds}) order by u.login_key`,
    ids,
  );
  const subsystems = await em.execute<{ project_id: number; name: string }[]>(
    'select pf.project_id, fv.name from project_fields pf join field_values fv on fv.bundle_id = pf.bundle_id ' +
      `where pf.name_key = ? and pf.project_id in (${inIds}) order by fv.ordinal, fv.id`,
    [SUBSYSTEM_FIELD_KEY, ...ids],
  );
  return projects.map((p) => ({
    name: p.name,
    shortName: p.shortName,
    description: p.description,
    details: {
      assignees: assignees
        .filter((a) => Number(a.project_id) === p.id)
        .map((a) => ({ login: a.login, fullName: a.full_name })),
      subsystems: subsystems.filter((v) => Number(v.project_id) === p.id).map((v) => v.name),
    },
  }));
}
