import { PERMISSION_KEYS, type PermissionKey, type UserType } from '@trackline/contracts';
import type { Em } from '../orm/em.js';
import type { Actor, ProjectTrash } from './actor.js';
import { grantRows, liveProjectIds, trashedProjectIds } from './actor-read-model.js';

/**
 * Resolves a user's grants with one prepared query (the actor read model, `grantRows`: every
 * request pays it): their own and those of every group they belong to, so that each permission
 * check (commands, suggestions, search, folders, hooks) sees a group's roles without knowing
 * about groups.
 *
 * The root account holds every permission globally whatever its grants say: no edit of roles
 * or grants can lock the installation out of administration, because root always has a way
 * back (it can re-grant and re-add anything).
 */
export async function loadActor(em: Em, user: { id: number; login: string; type: UserType }): Promise<Actor> {
  const rows = await grantRows(em, user.id);
  const global = new Set<PermissionKey>();
  const byProject = new Map<number, Set<PermissionKey>>();
  const groups = new Set<number>();
  for (const row of rows) {
    if (row.group_id !== null) groups.add(Number(row.group_id));
    if (row.permission_key === null) continue;
    if (row.project_id === null) {
      global.add(row.permission_key);
      continue;
    }
    const id = Number(row.project_id);
    const set = byProject.get(id) ?? new Set<PermissionKey>();
    set.add(row.permission_key);
    byProject.set(id, set);
  }
  if (user.type === 'root') for (const key of PERMISSION_KEYS) global.add(key);
  const trash = await loadProjectTrash(em);
  return {
    userId: user.id,
    login: user.login,
    type: user.type,
    global,
    byProject,
    groups,
    ...(trash ? { trash } : {}),
  };
}

/**
 * The trashed projects, and then the live ones (what a global grant covers); undefined when
 * the trash is empty, which costs one query returning no rows.
 */
export async function loadProjectTrash(em: Em): Promise<ProjectTrash | undefined> {
  const trashed = await trashedProjectIds(em);
  if (trashed.length === 0) return undefined;
  return { ids: new Set(trashed), live: await liveProjectIds(em) };
}
