import { PERMISSION_KEYS, type PermissionKey } from '@trackline/contracts';
import { type Actor, can } from '../auth/actor.js';
import type { Em } from '../orm/em.js';
import { listAccessibleProjects } from '../projects/projects.js';
import { getUser } from './users.js';

export type Me = {
  login: string;
  fullName: string;
  type: Actor['type'];
  /** Held globally. */
  permissions: PermissionKey[];
  /** Each readable project with what the actor holds there (global grants included). */
  projects: { shortName: string; name: string; permissions: PermissionKey[] }[];
};

/** The caller and what they may do, so that a client offers only the actions they may take. */
export async function describeMe(em: Em, actor: Actor): Promise<Me> {
  const user = await getUser(em, actor, actor.login);
  const projects = await listAccessibleProjects(em, actor);
  return {
    login: user.login,
    fullName: user.fullName,
    type: actor.type,
    permissions: PERMISSION_KEYS.filter((key) => actor.global.has(key)),
    projects: projects.map((p) => ({
      shortName: p.shortName,
      name: p.name,
      permissions: PERMISSION_KEYS.filter((key) => can(actor, key, p.id)),
    })),
  };
}
