import { PERMISSION_KEYS, type PermissionKey, type UserType } from '@trackline/contracts';
import type { Em } from '../orm/em.js';
import type { Actor, ProjectTrash } from './actor.js';

type GrantRow = { project_id: number | null; permission_key: PermissionKey };

/**
 * Resolves a user's grants with one query (raw SQL: this runs on every request).
 *
 * The root account holds every permission globally whatever its grants say: no edit of roles
 * or grants can lock the installation out of administration, because root always has a way
 * back (it can re-grant and re-add anything).
 */
export async function loadActor(em: Em, user: { id: number; login: string; type: UserType }): Promise<Actor> {
  const rows = await em
    .getConnection()
    .execute<GrantRow[]>(
      'select g.project_id, rp.permission_key from role_grants g ' +
        'join role_permissions rp on rp.role_id = g.role_id where g.user_id = ?',
      [user.id],
    );
  const global = new Set<PermissionKey>();
  const byProject = new Map<number, Set<PermissionKey>>();
  for (const row of rows) {
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
    ...(trash ? { trash } : {}),
  };
}

/**
 * The trashed projects, and then the live ones (what a global grant covers); undefined when
 * the trash is empty, which costs one query returning no rows.
 */
export async function loadProjectTrash(em: Em): Promise<ProjectTrash | undefined> {
  const connection = em.getConnection();
  const trashed = await connection.execute<{ id: number }[]>(
    'select id from projects where deleted_at is not null',
  );
  if (trashed.length === 0) return undefined;
  const live = await connection.execute<{ id: number }[]>('select id from projects where deleted_at is null');
  return { ids: new Set(trashed.map((r) => Number(r.id))), live: live.map((r) => Number(r.id)) };
}
